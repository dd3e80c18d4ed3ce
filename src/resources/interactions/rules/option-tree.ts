/**
 * Walking `data.options` against the definition, level by level: every entry names an option of
 * its level once, subcommands and groups lead one level down, and the walk takes exactly one path
 * through them (v10 API, Subcommand structure). Each entry becomes the wire option the app receives.
 *
 * Decisions: names are matched against default names only (v10 clients send default names; a
 * localized name is an unknown option). An entry's `type` may be omitted (the definition's applies)
 * but, when given, must be the option's type. Entries keep the order the client sent them in.
 */
import { OptionType, type OptionDefinition } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readList, readRecord, readString, type JsonRecord } from '../../../core/io/read.js';
import { report, reportNotBoolean, reportRequired, type Issues } from '../../../core/io/report.js';
import {
  INTERACTION_AUTOCOMPLETE_NOT_ENABLED,
  INTERACTION_OPTION_DUPLICATE,
  INTERACTION_OPTION_FIELD_NOT_ALLOWED,
  INTERACTION_OPTION_REQUIRED,
  INTERACTION_OPTION_TYPE_MISMATCH,
  INTERACTION_OPTION_UNKNOWN,
  INTERACTION_SUBCOMMAND_MULTIPLE,
  INTERACTION_SUBCOMMAND_REQUIRED,
} from '../../../core/io/codes.js';
import { readFocusedValue } from './focused-value.js';
import type { InvocationKind, WireDataOption } from './invocation-types.js';
import { resolveOptionId, type ResolutionScope } from './option-resolution.js';
import { isIdOptionType, readOptionValue } from './option-values.js';

/** An entry that claims to be the option being autocompleted. */
export interface FocusCandidate {
  names: string[];
  option: OptionDefinition;
  /** Where its `focused` field is, for reporting a second one. */
  path: IssuePath;
}

export interface WalkContext extends ResolutionScope {
  readonly kind: InvocationKind;
  readonly issues: Issues;
  readonly focusCandidates: FocusCandidate[];
}

/** Where an entry sits: its JSON path and the default names of the levels above it. */
export interface Place {
  readonly path: IssuePath;
  readonly names: readonly string[];
}

function isBranchType(type: number): boolean {
  return type === OptionType.Subcommand || type === OptionType.SubcommandGroup;
}

/** A level whose options are subcommands or groups: one of them must be taken. A group always is one. */
export function isBranchLevel(definitions: readonly OptionDefinition[]): boolean {
  return definitions.some((definition) => isBranchType(definition.type));
}

function reportFieldNotAllowed(issues: Issues, path: IssuePath, field: string): void {
  report(issues, path, INTERACTION_OPTION_FIELD_NOT_ALLOWED, `The field "${field}" is not allowed on this option.`);
}

/** The definition an entry names, or undefined (reported) when its name is missing, unknown or repeated. */
function matchDefinition(
  entry: JsonRecord,
  definitions: readonly OptionDefinition[],
  seen: Set<string>,
  path: IssuePath,
  issues: Issues,
): OptionDefinition | undefined {
  const rawName = fieldOf(entry, 'name');
  if (isAbsent(rawName)) {
    reportRequired(issues, [...path, 'name']);
    return undefined;
  }
  const name = readString(rawName, [...path, 'name'], issues);
  if (name === undefined) return undefined;
  const definition = definitions.find((candidate) => candidate.name === name);
  if (!definition) {
    report(issues, [...path, 'name'], INTERACTION_OPTION_UNKNOWN, `Unknown option "${name}".`);
    return undefined;
  }
  if (seen.has(name)) {
    report(issues, [...path, 'name'], INTERACTION_OPTION_DUPLICATE, `Option "${name}" is given more than once.`);
    return undefined;
  }
  seen.add(name);
  return definition;
}

function checkEntryType(entry: JsonRecord, definition: OptionDefinition, path: IssuePath, issues: Issues): void {
  const type = fieldOf(entry, 'type');
  if (isAbsent(type) || type === definition.type) return;
  report(
    issues,
    [...path, 'type'],
    INTERACTION_OPTION_TYPE_MISMATCH,
    `Option "${definition.name}" has type ${definition.type}.`,
  );
}

/** True when the entry says it is focused; `focused` outside autocomplete is reported. */
function readFocusFlag(entry: JsonRecord, path: IssuePath, ctx: WalkContext): boolean {
  const focused = fieldOf(entry, 'focused');
  if (isAbsent(focused)) return false;
  if (typeof focused !== 'boolean') {
    reportNotBoolean(ctx.issues, [...path, 'focused']);
    return false;
  }
  if (focused && ctx.kind !== 'autocomplete') {
    reportFieldNotAllowed(ctx.issues, [...path, 'focused'], 'focused');
    return false;
  }
  return focused;
}

function readBranchEntry(
  entry: JsonRecord,
  definition: OptionDefinition,
  place: Place,
  ctx: WalkContext,
): WireDataOption {
  if (fieldOf(entry, 'value') !== undefined) reportFieldNotAllowed(ctx.issues, [...place.path, 'value'], 'value');
  if (fieldOf(entry, 'focused') === true) reportFieldNotAllowed(ctx.issues, [...place.path, 'focused'], 'focused');
  const below: Place = { path: [...place.path, 'options'], names: [...place.names, definition.name] };
  const mustBranch = definition.type === OptionType.SubcommandGroup;
  const options = readLevel(fieldOf(entry, 'options'), definition.options ?? [], mustBranch, below, ctx);
  return { name: definition.name, type: definition.type, options };
}

function noteFocus(definition: OptionDefinition, place: Place, ctx: WalkContext): void {
  const path = [...place.path, 'focused'];
  ctx.focusCandidates.push({ names: [...place.names, definition.name], option: definition, path });
  if (definition.autocomplete !== true) {
    report(
      ctx.issues,
      path,
      INTERACTION_AUTOCOMPLETE_NOT_ENABLED,
      `Option "${definition.name}" does not have autocomplete enabled.`,
    );
  }
}

/** A filled-in value: typed, bounded, and resolved when it is an id. */
function readFilledValue(
  value: unknown,
  definition: OptionDefinition,
  path: IssuePath,
  ctx: WalkContext,
): WireDataOption['value'] {
  const typed = readOptionValue(value, definition, path, ctx.issues);
  if (typeof typed === 'string' && isIdOptionType(definition.type))
    resolveOptionId(typed, definition, path, ctx, ctx.issues);
  return typed;
}

function readValueEntry(
  entry: JsonRecord,
  definition: OptionDefinition,
  place: Place,
  ctx: WalkContext,
): WireDataOption {
  if (fieldOf(entry, 'options') !== undefined) reportFieldNotAllowed(ctx.issues, [...place.path, 'options'], 'options');
  const focused = readFocusFlag(entry, place.path, ctx);
  if (focused) noteFocus(definition, place, ctx);
  const valuePath = [...place.path, 'value'];
  const raw = fieldOf(entry, 'value');
  const wire: WireDataOption = { name: definition.name, type: definition.type };
  if (isAbsent(raw)) reportRequired(ctx.issues, valuePath);
  else {
    const value = focused
      ? readFocusedValue(raw, definition, valuePath, ctx.issues)
      : readFilledValue(raw, definition, valuePath, ctx);
    if (value !== undefined) wire.value = value;
  }
  if (focused) wire.focused = true;
  return wire;
}

function readEntry(entry: JsonRecord, definition: OptionDefinition, place: Place, ctx: WalkContext): WireDataOption {
  checkEntryType(entry, definition, place.path, ctx.issues);
  return isBranchType(definition.type)
    ? readBranchEntry(entry, definition, place, ctx)
    : readValueEntry(entry, definition, place, ctx);
}

/** A branch level takes exactly one subcommand or group. */
function checkOnePath(taken: readonly { index: number }[], path: IssuePath, issues: Issues): void {
  if (taken.length === 0) {
    report(issues, path, INTERACTION_SUBCOMMAND_REQUIRED, 'A subcommand must be chosen.');
    return;
  }
  for (const extra of taken.slice(1)) {
    report(
      issues,
      [...path, extra.index, 'name'],
      INTERACTION_SUBCOMMAND_MULTIPLE,
      'Only one subcommand can be invoked.',
    );
  }
}

/** Required options of a leaf level; an autocomplete request may leave them out. */
function checkRequired(
  definitions: readonly OptionDefinition[],
  given: ReadonlySet<string>,
  path: IssuePath,
  ctx: WalkContext,
): void {
  if (ctx.kind === 'autocomplete') return;
  for (const definition of definitions) {
    if (definition.required === true && !given.has(definition.name)) {
      report(ctx.issues, path, INTERACTION_OPTION_REQUIRED, `Option "${definition.name}" is required.`);
    }
  }
}

/** One level's entries as wire options; `mustBranch` marks a level that has to lead to a subcommand. */
export function readLevel(
  raw: unknown,
  definitions: readonly OptionDefinition[],
  mustBranch: boolean,
  place: Place,
  ctx: WalkContext,
): WireDataOption[] {
  const list = isAbsent(raw) ? [] : readList(raw, place.path, ctx.issues);
  if (!list) return [];
  const seen = new Set<string>();
  const wire: WireDataOption[] = [];
  const branches: { index: number }[] = [];
  list.forEach((item, index) => {
    const path = [...place.path, index];
    const entry = readRecord(item, path, ctx.issues);
    const definition = entry && matchDefinition(entry, definitions, seen, path, ctx.issues);
    if (!entry || !definition) return;
    if (isBranchType(definition.type)) branches.push({ index });
    wire.push(readEntry(entry, definition, { path, names: place.names }, ctx));
  });
  if (mustBranch || isBranchLevel(definitions)) checkOnePath(branches, place.path, ctx.issues);
  else checkRequired(definitions, seen, place.path, ctx);
  return wire;
}
