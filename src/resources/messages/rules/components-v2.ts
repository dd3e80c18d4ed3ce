/**
 * The message-level rules of components v2 (the IS_COMPONENTS_V2 flag): such a message is made of
 * its components only, so the legacy fields that show something else are refused; the flag, once
 * set, stays; a message upgraded to it by an edit must clear what it showed before.
 */
import { MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2, MESSAGE_FLAGS_INVALID } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, type JsonRecord } from '../../../core/io/read.js';
import { report, type Issues } from '../../../core/io/report.js';
import { IS_COMPONENTS_V2_FLAG } from './messages.js';

/** The fields a components v2 message may not use (v10 names them so, `sticker_ids` for stickers). */
export const LEGACY_MESSAGE_FIELDS: readonly string[] = ['content', 'embeds', 'poll', 'sticker_ids'];

/** What an edit changes: whether the message has the flag, and which legacy fields show something now. */
export interface EditedMessageState {
  readonly componentsV2: boolean;
  readonly legacyFields: readonly string[];
}

/** True when the body's `flags` is a bit set (a whole number, not negative) with IS_COMPONENTS_V2 set. */
export function setsComponentsV2(record: JsonRecord): boolean {
  const flags = fieldOf(record, 'flags');
  return (
    typeof flags === 'number' && Number.isSafeInteger(flags) && flags >= 0 && (flags & IS_COMPONENTS_V2_FLAG) !== 0
  );
}

/** A value that shows something: text, a non-empty list, an object. */
function showsSomething(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  return true;
}

function reportLegacy(issues: Issues, path: IssuePath, key: string): void {
  report(
    issues,
    [...path, key],
    MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2,
    `The '${key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`,
  );
}

/** A legacy field the body uses on a components v2 message, or (upgrading) one the message shows and the body does not clear. */
function checkLegacyFields(
  record: JsonRecord,
  editing: EditedMessageState | undefined,
  path: IssuePath,
  issues: Issues,
) {
  const upgrading = editing !== undefined && !editing.componentsV2;
  for (const key of LEGACY_MESSAGE_FIELDS) {
    const raw = fieldOf(record, key);
    const leftShowing = upgrading && editing.legacyFields.includes(key) && raw !== null && !showsSomething(raw);
    if (showsSomething(raw) || leftShowing) reportLegacy(issues, path, key);
  }
}

/** An edit whose `flags` would drop IS_COMPONENTS_V2 from a message that has it. */
function checkFlagKept(record: JsonRecord, path: IssuePath, issues: Issues): void {
  const flags = fieldOf(record, 'flags');
  if (typeof flags !== 'number' || setsComponentsV2(record)) return;
  report(issues, [...path, 'flags'], MESSAGE_FLAGS_INVALID, 'The IS_COMPONENTS_V2 flag cannot be removed once set.');
}

/**
 * The components v2 rules of a message body at `path` (`componentsV2`: the message will have the
 * flag; `editing`: the message an edit changes, when it is one).
 */
export function checkComponentsV2Message(
  record: JsonRecord,
  componentsV2: boolean,
  editing: EditedMessageState | undefined,
  path: IssuePath,
  issues: Issues,
): void {
  if (editing?.componentsV2) checkFlagKept(record, path, issues);
  if (componentsV2) checkLegacyFields(record, editing, path, issues);
}

/** The state of a stored message an edit starts from. */
export function editedMessageState(message: {
  flags: number;
  content: string;
  embeds: readonly unknown[];
}): EditedMessageState {
  return {
    componentsV2: (message.flags & IS_COMPONENTS_V2_FLAG) !== 0,
    legacyFields: [
      ...(message.content.length > 0 ? ['content'] : []),
      ...(message.embeds.length > 0 ? ['embeds'] : []),
    ],
  };
}
