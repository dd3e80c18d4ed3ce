/**
 * Embeds of a message: at most 10, each within v10's per-field limits, all their texts together
 * within 6000 characters, colors RGB, timestamps ISO 8601, and every URL of a scheme v10 takes
 * there: http(s) for links, and `attachment://` too for images and icons (./urls.ts).
 */
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readList, readRecord, readString, type JsonRecord } from '../../../core/io/read.js';
import { report, reportRequired, reportTooLong, type Issues } from '../../../core/io/report.js';
import { checkLength, codePointLength } from '../../../core/validation/text.js';
import { DATE_TIME_TYPE_PARSE, MAX_EMBED_SIZE_EXCEEDED } from '../../../core/io/codes.js';
import { optionalFlag, optionalInteger, optionalText } from '../../interactions/rules/record-fields.js';
import { IMAGE_SCHEMES, readUrl, WEB_SCHEMES } from './urls.js';
import {
  EMBED_AUTHOR_NAME_LENGTH_MAX,
  EMBED_COLOR_MAX,
  EMBED_DESCRIPTION_LENGTH_MAX,
  EMBED_FIELD_NAME_LENGTH_MAX,
  EMBED_FIELD_VALUE_LENGTH_MAX,
  EMBED_FIELDS_MAX,
  EMBED_FOOTER_TEXT_LENGTH_MAX,
  EMBED_PROVIDER_NAME_LENGTH_MAX,
  EMBED_TITLE_LENGTH_MAX,
  EMBED_URL_LENGTH_MAX,
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

/** An optional URL field whose scheme is one of `schemes`. */
function readUrlField(record: JsonRecord, key: string, schemes: readonly string[], path: IssuePath, issues: Issues) {
  const raw = fieldOf(record, key);
  if (!isAbsent(raw)) readUrl(raw, schemes, EMBED_URL_LENGTH_MAX, [...path, key], issues);
}

/** The rules of one nested object of an embed; returns its characters toward the total. */
type PartReader = (part: JsonRecord, path: IssuePath, issues: Issues) => number;

function readPart(embed: JsonRecord, key: string, read: PartReader, path: IssuePath, issues: Issues): number {
  const raw = fieldOf(embed, key);
  if (isAbsent(raw)) return 0;
  const part = readRecord(raw, [...path, key], issues);
  return part ? read(part, [...path, key], issues) : 0;
}

const readFooter: PartReader = (footer, path, issues) => {
  readUrlField(footer, 'icon_url', IMAGE_SCHEMES, path, issues);
  return readText(footer, 'text', EMBED_FOOTER_TEXT_LENGTH_MAX, true, path, issues);
};

const readAuthor: PartReader = (author, path, issues) => {
  readUrlField(author, 'url', WEB_SCHEMES, path, issues);
  readUrlField(author, 'icon_url', IMAGE_SCHEMES, path, issues);
  return readText(author, 'name', EMBED_AUTHOR_NAME_LENGTH_MAX, true, path, issues);
};

/** An image or a thumbnail: a picture on the web or a file of the message. */
const readImage: PartReader = (image, path, issues) => {
  readUrlField(image, 'url', IMAGE_SCHEMES, path, issues);
  return 0;
};

const readVideo: PartReader = (video, path, issues) => {
  readUrlField(video, 'url', WEB_SCHEMES, path, issues);
  return 0;
};

const readProvider: PartReader = (provider, path, issues) => {
  optionalText(provider, 'name', { min: 0, max: EMBED_PROVIDER_NAME_LENGTH_MAX }, path, issues);
  readUrlField(provider, 'url', WEB_SCHEMES, path, issues);
  return 0;
};

function readField(raw: unknown, path: IssuePath, issues: Issues): number {
  const field = readRecord(raw, path, issues);
  if (!field) return 0;
  optionalFlag(field, 'inline', path, issues);
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

/** A date, optionally with a time and a zone: what JavaScript's toISOString and Python's isoformat write. */
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** True when `text` is an ISO 8601 time of a day that exists. */
export function isIsoTimestamp(text: string): boolean {
  const match = ISO_8601.exec(text);
  if (!match) return false;
  const [year = 0, month = 0, day = 0, hours = 0, minutes = 0, seconds = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hours < 24 && minutes < 60 && seconds < 60;
}

function readTimestamp(embed: JsonRecord, path: IssuePath, issues: Issues): void {
  const raw = fieldOf(embed, 'timestamp');
  if (isAbsent(raw)) return;
  const fieldPath = [...path, 'timestamp'];
  const text = readString(raw, fieldPath, issues);
  if (text !== undefined && !isIsoTimestamp(text)) {
    report(issues, fieldPath, DATE_TIME_TYPE_PARSE, `Could not parse ${text.slice(0, 64)}. Should be ISO8601.`);
  }
}

/** One embed's issues; returns its characters toward the message total. */
function readEmbed(raw: unknown, path: IssuePath, issues: Issues): number {
  const embed = readRecord(raw, path, issues);
  if (!embed) return 0;
  readUrlField(embed, 'url', WEB_SCHEMES, path, issues);
  readTimestamp(embed, path, issues);
  optionalInteger(embed, 'color', 0, EMBED_COLOR_MAX, path, issues);
  readPart(embed, 'image', readImage, path, issues);
  readPart(embed, 'thumbnail', readImage, path, issues);
  readPart(embed, 'video', readVideo, path, issues);
  readPart(embed, 'provider', readProvider, path, issues);
  return (
    readText(embed, 'title', EMBED_TITLE_LENGTH_MAX, false, path, issues) +
    readText(embed, 'description', EMBED_DESCRIPTION_LENGTH_MAX, false, path, issues) +
    readFields(embed, path, issues) +
    readPart(embed, 'footer', readFooter, path, issues) +
    readPart(embed, 'author', readAuthor, path, issues)
  );
}

/** The embeds list, checked; undefined when it is not a list. */
export function readEmbeds(raw: unknown, path: IssuePath, issues: Issues): Record<string, unknown>[] | undefined {
  const list = readList(raw, path, issues);
  if (!list) return undefined;
  if (list.length > MESSAGE_EMBEDS_MAX) reportTooLong(issues, path, MESSAGE_EMBEDS_MAX);
  const total = list.reduce<number>((sum, embed, index) => sum + readEmbed(embed, [...path, index], issues), 0);
  if (total > EMBEDS_TOTAL_LENGTH_MAX) {
    report(issues, path, MAX_EMBED_SIZE_EXCEEDED, `Embed size exceeds maximum size of ${EMBEDS_TOTAL_LENGTH_MAX}`);
  }
  return list.filter(
    (embed): embed is Record<string, unknown> => typeof embed === 'object' && embed !== null && !Array.isArray(embed),
  );
}
