/**
 * Embeds of a message: at most 10, each within v10's per-field limits, and all their texts
 * together within 6000 characters. Fields slashd does not limit (urls, colors, images) pass as given.
 */
import type { IssuePath } from '../io/issue.js';
import { fieldOf, isAbsent, readList, readRecord, readString, type JsonRecord } from '../io/read.js';
import { report, reportRequired, reportTooLong, type Issues } from '../io/report.js';
import { checkLength, codePointLength } from '../validation/text.js';
import { MESSAGE_EMBEDS_TOO_LARGE } from '../io/codes.js';
import {
  EMBED_AUTHOR_NAME_LENGTH_MAX,
  EMBED_DESCRIPTION_LENGTH_MAX,
  EMBED_FIELD_NAME_LENGTH_MAX,
  EMBED_FIELD_VALUE_LENGTH_MAX,
  EMBED_FIELDS_MAX,
  EMBED_FOOTER_TEXT_LENGTH_MAX,
  EMBED_TITLE_LENGTH_MAX,
  EMBEDS_TOTAL_LENGTH_MAX,
  MESSAGE_EMBEDS_MAX,
} from './limits.js';

/** Reads a text field within `max` characters; returns how many characters it adds to the total. */
function readText(
  record: JsonRecord,
  key: string,
  max: number,
  required: boolean,
  path: IssuePath,
  issues: Issues,
): number {
  const raw = fieldOf(record, key);
  const fieldPath = [...path, key];
  if (isAbsent(raw)) {
    if (required) reportRequired(issues, fieldPath);
    return 0;
  }
  const text = readString(raw, fieldPath, issues);
  if (text === undefined) return 0;
  checkLength(text, 0, max, fieldPath, issues);
  return codePointLength(text);
}

/** A nested object (`footer`, `author`) whose one text field is required. */
function readPart(
  embed: JsonRecord,
  key: string,
  textKey: string,
  max: number,
  path: IssuePath,
  issues: Issues,
): number {
  const raw = fieldOf(embed, key);
  if (isAbsent(raw)) return 0;
  const part = readRecord(raw, [...path, key], issues);
  return part ? readText(part, textKey, max, true, [...path, key], issues) : 0;
}

function readField(raw: unknown, path: IssuePath, issues: Issues): number {
  const field = readRecord(raw, path, issues);
  if (!field) return 0;
  return (
    readText(field, 'name', EMBED_FIELD_NAME_LENGTH_MAX, true, path, issues) +
    readText(field, 'value', EMBED_FIELD_VALUE_LENGTH_MAX, true, path, issues)
  );
}

function readFields(embed: JsonRecord, path: IssuePath, issues: Issues): number {
  const raw = fieldOf(embed, 'fields');
  if (isAbsent(raw)) return 0;
  const fieldsPath = [...path, 'fields'];
  const list = readList(raw, fieldsPath, issues);
  if (!list) return 0;
  if (list.length > EMBED_FIELDS_MAX) reportTooLong(issues, fieldsPath, EMBED_FIELDS_MAX);
  return list.reduce<number>((total, field, index) => total + readField(field, [...fieldsPath, index], issues), 0);
}

/** One embed's issues; returns its characters toward the message total. */
function readEmbed(raw: unknown, path: IssuePath, issues: Issues): number {
  const embed = readRecord(raw, path, issues);
  if (!embed) return 0;
  return (
    readText(embed, 'title', EMBED_TITLE_LENGTH_MAX, false, path, issues) +
    readText(embed, 'description', EMBED_DESCRIPTION_LENGTH_MAX, false, path, issues) +
    readFields(embed, path, issues) +
    readPart(embed, 'footer', 'text', EMBED_FOOTER_TEXT_LENGTH_MAX, path, issues) +
    readPart(embed, 'author', 'name', EMBED_AUTHOR_NAME_LENGTH_MAX, path, issues)
  );
}

/** The embeds list, checked; undefined when it is not a list. */
export function readEmbeds(raw: unknown, path: IssuePath, issues: Issues): Record<string, unknown>[] | undefined {
  const list = readList(raw, path, issues);
  if (!list) return undefined;
  if (list.length > MESSAGE_EMBEDS_MAX) reportTooLong(issues, path, MESSAGE_EMBEDS_MAX);
  const total = list.reduce<number>((sum, embed, index) => sum + readEmbed(embed, [...path, index], issues), 0);
  if (total > EMBEDS_TOTAL_LENGTH_MAX) {
    report(issues, path, MESSAGE_EMBEDS_TOO_LARGE, `Embed size exceeds maximum size of ${EMBEDS_TOTAL_LENGTH_MAX}`);
  }
  return list.filter(
    (embed): embed is Record<string, unknown> => typeof embed === 'object' && embed !== null && !Array.isArray(embed),
  );
}
