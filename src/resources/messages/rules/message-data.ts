/**
 * The message an app sends: an interaction response (types 4 and 5), a follow-up, or an edit of
 * either (docs/v10-behaviour.md#interactions). Only the fields below are kept; anything else is dropped, so what is
 * stored is what slashd understood.
 *
 * Decisions: a create (`partial` unset) treats null like an omitted field; an edit (`partial`) keeps
 * null, which clears the field. An edit may carry every flag a create may, but only SUPPRESS_EMBEDS
 * changes an existing message (v10's edit rule): the caller keeps EPHEMERAL as it was.
 */
import { apiError, ERRORS, invalidFormBody, type ApiError } from '../../../core/io/errors.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import type { Issue, IssuePath } from '../../../core/io/issue.js';
import {
  fieldOf,
  readBoolean,
  readInteger,
  readList,
  readRecord,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import { report, reportTooLong, type Issues } from '../../../core/io/report.js';
import { checkLength } from '../../../core/validation/text.js';
import { checkAllowedMentions } from './allowed-mentions.js';
import { MESSAGE_EMPTY, MESSAGE_FLAGS_INVALID } from '../../../core/io/codes.js';
import { readEmbeds } from './embeds.js';
import { MESSAGE_ATTACHMENTS_MAX, MESSAGE_CONTENT_LENGTH_MAX } from './limits.js';
import { readMessageComponents } from './message-components.js';
import {
  EPHEMERAL_FLAG,
  IS_COMPONENTS_V2_FLAG,
  SUPPRESS_EMBEDS_FLAG,
  SUPPRESS_NOTIFICATIONS_FLAG,
} from './messages.js';
import { checkComponentsV2Message, setsComponentsV2, type EditedMessageState } from './components-v2.js';
import { readPollRequest } from '../../polls/rules.js';
import { readStickerIds } from '../../expressions/rules/message-stickers.js';

/** The flags an interaction message may set. */
export const MESSAGE_FLAGS_ALLOWED =
  EPHEMERAL_FLAG | SUPPRESS_EMBEDS_FLAG | SUPPRESS_NOTIFICATIONS_FLAG | IS_COMPONENTS_V2_FLAG;
/** A deferred response only decides whether the answer to come is ephemeral. */
const DEFERRED_FLAGS_ALLOWED = EPHEMERAL_FLAG;

export interface MessageDataOptions {
  /** The data of a type 5 response: only EPHEMERAL, and nothing needs to be shown yet. */
  forDeferred?: boolean;
  /** A PATCH edit: every field optional, an empty edit allowed, null clears. */
  partial?: boolean;
  /** The message an edit changes, when the caller knows it: its components v2 rules depend on it. */
  editing?: EditedMessageState;
}

/** The options, and whether the message will have IS_COMPONENTS_V2 (its components are laid out so). */
type ReadOptions = MessageDataOptions & { componentsV2: boolean };

type FieldReader = (raw: unknown, path: IssuePath, issues: Issues, options: ReadOptions) => unknown;

function readContent(raw: unknown, path: IssuePath, issues: Issues): unknown {
  const text = readString(raw, path, issues);
  if (text !== undefined) checkLength(text, 0, MESSAGE_CONTENT_LENGTH_MAX, path, issues);
  return text;
}

function readFlags(raw: unknown, path: IssuePath, issues: Issues, options: ReadOptions): unknown {
  const flags = readInteger(raw, path, issues);
  if (flags === undefined) return undefined;
  const allowed = options.forDeferred ? DEFERRED_FLAGS_ALLOWED : MESSAGE_FLAGS_ALLOWED;
  // Bitwise operators see 32 bits only: the bound catches larger values before the mask is applied.
  if (flags < 0 || flags > allowed || (flags & ~allowed) !== 0) {
    report(issues, path, MESSAGE_FLAGS_INVALID, `Only the flags ${allowed} may be set.`);
  }
  return flags;
}

/** A list of objects, each with its own rules left to the client that renders it. */
function readObjectList(max: number): FieldReader {
  return (raw, path, issues) => {
    const list = readList(raw, path, issues);
    if (!list) return undefined;
    if (list.length > max) reportTooLong(issues, path, max);
    list.forEach((item, index) => readRecord(item, [...path, index], issues));
    return list;
  };
}

const FIELD_READERS: Readonly<Record<string, FieldReader>> = {
  content: readContent,
  embeds: readEmbeds,
  flags: readFlags,
  tts: readBoolean,
  allowed_mentions: (raw, path, issues) => {
    checkAllowedMentions(raw, path, issues);
    return raw;
  },
  components: (raw, path, issues, options) => readMessageComponents(raw, path, issues, options.componentsV2),
  attachments: readObjectList(MESSAGE_ATTACHMENTS_MAX),
  // A checked poll request (`PollRequest`): the message's expiry is its creation time's.
  poll: readPollRequest,
  sticker_ids: readStickerIds,
};

function isNonEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

/** Something to show: text, an embed, a component, an attachment, a sticker or a poll. */
function hasSomethingToShow(value: Record<string, unknown>): boolean {
  return (
    (typeof value.content === 'string' && value.content.length > 0) ||
    isNonEmptyList(value.embeds) ||
    isNonEmptyList(value.components) ||
    isNonEmptyList(value.attachments) ||
    isNonEmptyList(value.sticker_ids) ||
    (value.poll !== undefined && value.poll !== null)
  );
}

function readFields(
  record: JsonRecord,
  options: ReadOptions,
  path: IssuePath,
  issues: Issues,
): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(FIELD_READERS)) {
    const raw = fieldOf(record, key);
    if (raw === undefined) continue;
    if (raw === null) {
      if (options.partial) value[key] = null;
      continue;
    }
    const checked = read(raw, [...path, key], issues, options);
    if (checked !== undefined) value[key] = checked;
  }
  return value;
}

/**
 * The message data at `path`, with its issues appended. An empty message is reported at the root
 * with MESSAGE_EMPTY, and only when nothing else is wrong: see `isEmptyMessageFailure`.
 */
export function readMessageData(
  body: unknown,
  options: MessageDataOptions,
  path: IssuePath,
  issues: Issues,
): Record<string, unknown> {
  const record = readRecord(body, path, issues);
  if (!record) return {};
  const before = issues.length;
  const componentsV2 = setsComponentsV2(record) || options.editing?.componentsV2 === true;
  const value = readFields(record, { ...options, componentsV2 }, path, issues);
  checkComponentsV2Message(record, componentsV2, options.editing, path, issues);
  const mustShowSomething = !options.partial && !options.forDeferred;
  if (issues.length === before && mustShowSomething && !hasSomethingToShow(value)) reportEmptyMessage(issues);
  return value;
}

export function reportEmptyMessage(issues: Issues): void {
  report(issues, [], MESSAGE_EMPTY, ERRORS.CannotSendEmptyMessage.message);
}

/** Checks a message body (a follow-up, an edit, or a response's `data`). */
export function checkMessageData(body: unknown, options: MessageDataOptions): Result<Record<string, unknown>> {
  const issues: Issues = [];
  const value = readMessageData(body, options, [], issues);
  return issues.length > 0 ? fail(issues) : ok(value);
}

/**
 * True when the only thing wrong is an empty message: v10 answers that with JSON code 50006 rather
 * than a 50035 form error (the registry's CannotSendEmptyMessage).
 */
export function isEmptyMessageFailure(issues: readonly Issue[]): boolean {
  return issues.length === 1 && issues[0]?.code === MESSAGE_EMPTY;
}

/** What a refused message is answered with: 50006 when it is only empty, else the 50035 form error. */
export function messageFormError(issues: readonly Issue[]): ApiError {
  return isEmptyMessageFailure(issues) ? apiError('CannotSendEmptyMessage') : invalidFormBody(issues);
}
