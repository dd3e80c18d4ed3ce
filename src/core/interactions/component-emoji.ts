/**
 * The `emoji` of a button or a select option: a custom emoji by `id` (a snowflake; its `name` is
 * only a label), or one unicode emoji as `name`. Which custom emojis exist is not checked: the
 * world defines none yet (docs/decisions.md#message-components-and-embeds).
 */
import { COMPONENT_INVALID_EMOJI } from '../io/codes.js';
import type { IssuePath } from '../io/issue.js';
import { fieldOf, isAbsent, readRecord, readSnowflake, type JsonRecord } from '../io/read.js';
import { report, type Issues } from '../io/report.js';
import { optionalFlag, optionalText, requiredText } from './record-fields.js';
import { COMPONENT_EMOJI_NAME_LENGTH_MAX } from './limits.js';

/** One emoji of Unicode's recommended set (sequences, keycaps, flags and skin tones included). */
const ONE_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
/** Asks a character to be shown as an emoji: clients accept "❤" for "❤️". */
const EMOJI_PRESENTATION = '\uFE0F';

const NAME_BOUNDS = { min: 1, max: COMPONENT_EMOJI_NAME_LENGTH_MAX };

/** True when `name` is exactly one unicode emoji. */
export function isUnicodeEmoji(name: string): boolean {
  return ONE_EMOJI.test(name) || ONE_EMOJI.test(name + EMOJI_PRESENTATION);
}

function checkUnicodeEmoji(emoji: JsonRecord, path: IssuePath, issues: Issues): void {
  const name = requiredText(emoji, 'name', NAME_BOUNDS, path, issues);
  if (name !== undefined && !isUnicodeEmoji(name)) {
    report(issues, [...path, 'name'], COMPONENT_INVALID_EMOJI, 'Invalid emoji');
  }
}

/** Checks a component emoji at `path`. */
export function checkComponentEmoji(raw: unknown, path: IssuePath, issues: Issues): void {
  const emoji = readRecord(raw, path, issues);
  if (!emoji) return;
  const id = fieldOf(emoji, 'id');
  if (isAbsent(id)) checkUnicodeEmoji(emoji, path, issues);
  else {
    readSnowflake(id, [...path, 'id'], issues);
    optionalText(emoji, 'name', NAME_BOUNDS, path, issues);
  }
  optionalFlag(emoji, 'animated', path, issues);
}
