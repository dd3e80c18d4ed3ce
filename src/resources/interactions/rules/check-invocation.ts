/**
 * Checking a client's invocation before anything reaches the app ("Invoking"): the command
 * it names, its target, and every option against the definition. The version and the user's right to
 * use the command are checked by the caller. Pure: it reads the command and the world it is given.
 */
import { CommandType, type StoredCommand } from '../../../core/commands/model.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readInteger, readRecord, readString, type JsonRecord } from '../../../core/io/read.js';
import { report, reportRequired, type Issues } from '../../../core/io/report.js';
import {
  INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID,
  INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE,
  INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED,
  INTERACTION_COMMAND_NAME_MISMATCH,
  INTERACTION_COMMAND_TYPE_MISMATCH,
  INTERACTION_OPTIONS_NOT_ALLOWED,
} from '../../../core/io/codes.js';
import type {
  CheckedInvocation,
  FocusedOption,
  InvocationKind,
  InvocationTarget,
  WireDataOption,
} from './invocation-types.js';
import { isBranchLevel, readLevel, type FocusCandidate, type WalkContext } from './option-tree.js';
import { emptyReferences } from '../../messages/rules/references.js';
import { readTarget } from './target.js';

export type {
  CheckedInvocation,
  FocusedOption,
  InvocationKind,
  InvocationTarget,
  ReferencedIds,
  WireDataOption,
} from './invocation-types.js';

const DATA_PATH: IssuePath = ['data'];
const OPTIONS_PATH: IssuePath = ['data', 'options'];

/** Names in an invocation are always default names (v10 API): a localized command name is a mismatch. */
function checkName(data: JsonRecord, command: StoredCommand, issues: Issues): void {
  const path = [...DATA_PATH, 'name'];
  const raw = fieldOf(data, 'name');
  if (isAbsent(raw)) return reportRequired(issues, path);
  const name = readString(raw, path, issues);
  if (name !== undefined && name !== command.definition.name) {
    report(issues, path, INTERACTION_COMMAND_NAME_MISMATCH, `The command is named "${command.definition.name}".`);
  }
}

function checkType(data: JsonRecord, command: StoredCommand, issues: Issues): void {
  const path = [...DATA_PATH, 'type'];
  const raw = fieldOf(data, 'type');
  if (isAbsent(raw)) return reportRequired(issues, path);
  const type = readInteger(raw, path, issues);
  if (type !== undefined && type !== command.definition.type) {
    report(issues, path, INTERACTION_COMMAND_TYPE_MISMATCH, `The command has type ${command.definition.type}.`);
  }
}

/** Only CHAT_INPUT options can be autocompleted; the request's own `type` (4) is what is wrong. */
function checkAutocompleteAllowed(command: StoredCommand, issues: Issues): void {
  if (command.definition.type === CommandType.ChatInput) return;
  report(
    issues,
    ['type'],
    INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID,
    'Only CHAT_INPUT commands have autocomplete.',
  );
}

/** USER and MESSAGE commands take no options; an empty list counts as none (docs/v10-behaviour.md#compatibility-decisions). */
function checkNoOptions(data: JsonRecord, issues: Issues): void {
  const raw = fieldOf(data, 'options');
  if (isAbsent(raw) || (Array.isArray(raw) && raw.length === 0)) return;
  report(issues, OPTIONS_PATH, INTERACTION_OPTIONS_NOT_ALLOWED, 'This command takes no options.');
}

function takesOptions(command: StoredCommand): boolean {
  const { type } = command.definition;
  return type !== CommandType.User && type !== CommandType.Message;
}

/** An autocomplete request types into exactly one option. */
function pickFocus(candidates: readonly FocusCandidate[], issues: Issues): FocusedOption | null {
  const [first, ...extra] = candidates;
  if (!first) {
    report(
      issues,
      OPTIONS_PATH,
      INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED,
      'An autocomplete request needs one focused option.',
    );
    return null;
  }
  for (const candidate of extra) {
    report(issues, candidate.path, INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE, 'Only one option can be focused.');
  }
  return { path: first.names, option: first.option };
}

function readOptions(data: JsonRecord, command: StoredCommand, ctx: WalkContext): WireDataOption[] | undefined {
  if (!takesOptions(command)) {
    checkNoOptions(data, ctx.issues);
    return undefined;
  }
  const definitions = command.definition.options;
  const options = readLevel(
    fieldOf(data, 'options'),
    definitions,
    isBranchLevel(definitions),
    { path: OPTIONS_PATH, names: [] },
    ctx,
  );
  return options.length > 0 ? options : undefined;
}

/**
 * Checks `data` (the client's `{id, name, type, version, options?, target_id?}`) against the command
 * and returns the options as the app will receive them, or every issue found.
 */
export function checkInvocation(
  command: StoredCommand,
  data: unknown,
  kind: InvocationKind,
  target: InvocationTarget,
): Result<CheckedInvocation> {
  const issues: Issues = [];
  const record = readRecord(data, DATA_PATH, issues);
  if (!record) return fail(issues);
  if (kind === 'autocomplete') checkAutocompleteAllowed(command, issues);
  if (issues.length > 0) return fail(issues);
  checkName(record, command, issues);
  checkType(record, command, issues);
  const ctx: WalkContext = { kind, target, references: emptyReferences(), issues, focusCandidates: [] };
  const targetId = readTarget(fieldOf(record, 'target_id'), command.definition.type, ctx, issues);
  const options = readOptions(record, command, ctx);
  const focused = kind === 'autocomplete' ? pickFocus(ctx.focusCandidates, issues) : null;
  if (issues.length > 0) return fail(issues);
  return ok({ options, focused, referenced: ctx.references, target_id: targetId });
}
