/**
 * The `emoji` of a button or a select option: a custom emoji by `id` (a snowflake; its `name` is
 * only a label), or one unicode emoji as `name`. Which custom emojis exist is not checked: the
 * world defines none yet (docs/decisions.md#message-components-and-embeds).
 */
import { COMPONENT_INVALID_EMOJI } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readRecord, readSnowflake, type JsonRecord } from '../../../core/io/read.js';
import { report, type Issues } from '../../../core/io/report.js';
import { optionalFlag, optionalText, requiredText } from '../../interactions/rules/record-fields.js';
import { COMPONENT_EMOJI_NAME_LENGTH_MAX } from './limits.js';

/**
 * One element of an emoji (UTS #51's "possible emoji"): a flag (two regional indicators), a keycap,
 * or a pictograph with an optional skin tone, presentation selector or tag sequence. Checked by
 * shape: Unicode's RGI set as a regular expression (`\p{RGI_Emoji}`) costs ~70 µs a test in V8,
 * this ~0.1 µs, and a message may carry 125 emojis.
 */
const EMOJI_ELEMENT = String.raw`(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
/** One emoji: elements joined by zero-width joiners (👩🏽‍💻). */
const ONE_EMOJI = new RegExp(`^${EMOJI_ELEMENT}(?:\u200D${EMOJI_ELEMENT})*$`, 'u');

const NAME_BOUNDS = { min: 1, max: COMPONENT_EMOJI_NAME_LENGTH_MAX };

/** True when `name` is exactly one unicode emoji ("❤" as well as "❤️"). */
export function isUnicodeEmoji(name: string): boolean {
  return ONE_EMOJI.test(name);
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
