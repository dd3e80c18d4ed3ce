/**
 * Polls on messages (docs/v10-behaviour.md#polls): the `poll` of a new message (its rules, as
 * 50035 paths under `poll`), the stored poll and its v10 `poll` object, a voter's `answer_ids`,
 * the voters query, the MESSAGE_POLL_VOTE_* dispatches, and the poll result message (type 46)
 * posted once when a poll ends.
 */
import {
  EmbedType,
  MessageType,
  PollLayoutType,
  type APIEmbedField,
  type APIPartialEmoji,
  type APIPoll,
  type APIPollMedia,
  type GatewayMessagePollVoteDispatchData,
} from 'discord-api-types/v10';
import type { Issue, IssuePath } from '../../core/io/issue.js';
import { fieldOf, isAbsent, readBoolean, readInteger, readList, readRecord, readString } from '../../core/io/read.js';
import {
  reportAboveMax,
  reportBelowMin,
  reportDuplicateValue,
  reportNotOneOf,
  reportNotSnowflake,
  reportRequired,
  reportTooLong,
  reportTooShort,
  type Issues,
} from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { isSnowflake } from '../../core/snowflake.js';
import { checkLength } from '../../core/validation/text.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { WorldDispatch } from '../../core/world/dispatch.js';
import { readIntegerParam, readSnowflakeParam } from '../../core/world/page-query.js';

/** The longest question (v10: 300 characters). */
export const POLL_QUESTION_TEXT_MAX = 300;
/** The most answers a poll holds (v10: 10); at least one. */
export const POLL_ANSWERS_MAX = 10;
/** The longest answer text (v10: 55 characters). */
export const POLL_ANSWER_TEXT_MAX = 55;
/** The longest emoji name of an answer (v10: 32). */
export const POLL_EMOJI_NAME_MAX = 32;
/** The shortest poll, in hours. */
export const POLL_DURATION_HOURS_MIN = 1;
/** The longest poll, in hours (v10: 32 days). */
export const POLL_DURATION_HOURS_MAX = 768;
/** A poll's duration when the body gives none, in hours. */
export const POLL_DURATION_HOURS_DEFAULT = 24;
/** Voters one page of `GET …/polls/{m}/answers/{a}` holds at most. */
export const POLL_VOTERS_PAGE_MAX = 100;
/** Voters one page holds when `limit` is not given. */
export const POLL_VOTERS_PAGE_DEFAULT = 25;

const HOUR_MS = 3_600_000;

/** An answer's emoji as stored: a custom emoji by id (its name as sent), or a unicode one by name. */
export type StoredPollEmoji = { id: string; name: string | null; animated: boolean } | { id: null; name: string };

export interface StoredPollMedia {
  text: string;
  emoji?: StoredPollEmoji;
}

/** What a message stores of its poll (its document's `poll`); the votes are the polls store's. */
export interface StoredPoll {
  question: { text: string };
  /** Numbered 1..n in the order sent. */
  answers: { answer_id: number; poll_media: StoredPollMedia }[];
  /** ISO 8601: when the poll ends. */
  expiry: string;
  allow_multiselect: boolean;
  layout_type: PollLayoutType;
  /**
   * Not stored: the final results a MESSAGE_UPDATE carries when the poll ends (reads take the
   * polls store's, as their reader sees them).
   */
  results?: PollResults;
}

/** One answer's votes, as `results.answer_counts` shows them. */
export interface PollAnswerCount {
  readonly answerId: number;
  readonly count: number;
  /** The reader voted so. */
  readonly me: boolean;
}

/** A poll's results as one reader sees them. */
export interface PollResults {
  readonly finalized: boolean;
  readonly counts: readonly PollAnswerCount[];
}

/** The results of a poll nobody has voted in yet, still open. */
export const NO_RESULTS: PollResults = { finalized: false, counts: [] };

function readEmoji(raw: unknown, path: IssuePath, issues: Issues): StoredPollEmoji | undefined {
  const record = readRecord(raw, path, issues);
  if (!record) return undefined;
  const id = fieldOf(record, 'id');
  const name = fieldOf(record, 'name');
  const animated = fieldOf(record, 'animated');
  const before = issues.length;
  if (!isAbsent(id) && !isSnowflake(id)) reportNotSnowflake(issues, [...path, 'id'], id);
  const text = isAbsent(name) ? undefined : readString(name, [...path, 'name'], issues);
  if (text !== undefined) checkLength(text, 1, POLL_EMOJI_NAME_MAX, [...path, 'name'], issues);
  if (!isAbsent(animated)) readBoolean(animated, [...path, 'animated'], issues);
  if (isAbsent(id) && text === undefined && issues.length === before) reportRequired(issues, [...path, 'name']);
  if (issues.length > before) return undefined;
  if (typeof id === 'string') return { id, name: text ?? null, animated: animated === true };
  return { id: null, name: text as string };
}

function readMedia(raw: unknown, path: IssuePath, issues: Issues, maxText: number): StoredPollMedia | undefined {
  const record = readRecord(raw, path, issues);
  if (!record) return undefined;
  const rawText = fieldOf(record, 'text');
  let text: string | undefined;
  if (isAbsent(rawText)) reportRequired(issues, [...path, 'text']);
  else {
    text = readString(rawText, [...path, 'text'], issues);
    if (text !== undefined) checkLength(text, 1, maxText, [...path, 'text'], issues);
  }
  const rawEmoji = fieldOf(record, 'emoji');
  const emoji = isAbsent(rawEmoji) ? undefined : readEmoji(rawEmoji, [...path, 'emoji'], issues);
  if (text === undefined) return undefined;
  return emoji ? { text, emoji } : { text };
}

function readAnswers(raw: unknown, path: IssuePath, issues: Issues): StoredPoll['answers'] {
  const list = isAbsent(raw) ? (reportRequired(issues, path), undefined) : readList(raw, path, issues);
  if (!list) return [];
  if (list.length < 1) reportTooShort(issues, path, 1);
  if (list.length > POLL_ANSWERS_MAX) {
    reportTooLong(issues, path, POLL_ANSWERS_MAX);
    return [];
  }
  const answers: StoredPoll['answers'] = [];
  list.forEach((item, index) => {
    const answer = readRecord(item, [...path, index], issues);
    if (!answer) return;
    const media = fieldOf(answer, 'poll_media');
    const at = [...path, index, 'poll_media'];
    const read = isAbsent(media)
      ? (reportRequired(issues, at), undefined)
      : readMedia(media, at, issues, POLL_ANSWER_TEXT_MAX);
    if (read) answers.push({ answer_id: index + 1, poll_media: read });
  });
  return answers;
}

function readDuration(raw: unknown, path: IssuePath, issues: Issues): number {
  if (isAbsent(raw)) return POLL_DURATION_HOURS_DEFAULT;
  const hours = readInteger(raw, path, issues);
  if (hours === undefined) return POLL_DURATION_HOURS_DEFAULT;
  if (hours < POLL_DURATION_HOURS_MIN) reportBelowMin(issues, path, POLL_DURATION_HOURS_MIN);
  else if (hours > POLL_DURATION_HOURS_MAX) reportAboveMax(issues, path, POLL_DURATION_HOURS_MAX);
  return hours;
}

function readLayout(raw: unknown, path: IssuePath, issues: Issues): PollLayoutType {
  if (isAbsent(raw)) return PollLayoutType.Default;
  const layout = readInteger(raw, path, issues);
  if (layout !== undefined && layout !== PollLayoutType.Default) reportNotOneOf(issues, path, [PollLayoutType.Default]);
  return PollLayoutType.Default;
}

/** A poll request, checked: what a message stores once its creation time gives the expiry. */
export interface PollRequest {
  question: { text: string };
  answers: StoredPoll['answers'];
  durationHours: number;
  allow_multiselect: boolean;
  layout_type: PollLayoutType;
}

/**
 * The `poll` of a message body at `path` (v10's poll create request): a question of 1-300
 * characters (text only), 1-10 answers of 1-55 characters with an optional emoji (`{id}` or
 * `{name}`), a duration of 1-768 hours (24 by default), `allow_multiselect`, `layout_type` 1.
 */
export function readPollRequest(raw: unknown, path: IssuePath, issues: Issues): PollRequest | undefined {
  const record = readRecord(raw, path, issues);
  if (!record) return undefined;
  const before = issues.length;
  const rawQuestion = fieldOf(record, 'question');
  const question = isAbsent(rawQuestion)
    ? (reportRequired(issues, [...path, 'question']), undefined)
    : readMedia(rawQuestion, [...path, 'question'], issues, POLL_QUESTION_TEXT_MAX);
  const answers = readAnswers(fieldOf(record, 'answers'), [...path, 'answers'], issues);
  const durationHours = readDuration(fieldOf(record, 'duration'), [...path, 'duration'], issues);
  const multiselect = fieldOf(record, 'allow_multiselect');
  const allowMultiselect = isAbsent(multiselect)
    ? false
    : readBoolean(multiselect, [...path, 'allow_multiselect'], issues) === true;
  const layout = readLayout(fieldOf(record, 'layout_type'), [...path, 'layout_type'], issues);
  if (issues.length > before || !question) return undefined;
  return {
    // v10 keeps only the question's text.
    question: { text: question.text },
    answers,
    durationHours,
    allow_multiselect: allowMultiselect,
    layout_type: layout,
  };
}

/** The stored poll of a message created at `nowMs`: it ends `durationHours` later. */
export function storedPollOf(request: PollRequest, nowMs: number): StoredPoll {
  return {
    question: request.question,
    answers: request.answers,
    expiry: new Date(nowMs + request.durationHours * HOUR_MS).toISOString(),
    allow_multiselect: request.allow_multiselect,
    layout_type: request.layout_type,
  };
}

/** When a stored poll ends, in ms since the epoch. */
export function pollExpiresAt(poll: StoredPoll): number {
  return Date.parse(poll.expiry);
}

function wireEmoji(emoji: StoredPollEmoji): APIPartialEmoji {
  if (emoji.id === null) return { id: null, name: emoji.name };
  return { id: emoji.id, name: emoji.name, animated: emoji.animated };
}

function wireMedia(media: StoredPollMedia): APIPollMedia {
  return media.emoji ? { text: media.text, emoji: wireEmoji(media.emoji) } : { text: media.text };
}

/** A message's v10 `poll`, with the results as its reader sees them. */
export function toWirePoll(poll: StoredPoll, results: PollResults = NO_RESULTS): WirePayload<APIPoll> {
  return {
    question: { text: poll.question.text },
    answers: poll.answers.map((a) => ({ answer_id: a.answer_id, poll_media: wireMedia(a.poll_media) })),
    expiry: poll.expiry,
    allow_multiselect: poll.allow_multiselect,
    layout_type: poll.layout_type,
    results: {
      is_finalized: results.finalized,
      answer_counts: results.counts.map((c) => ({ id: c.answerId, count: c.count, me_voted: c.me })),
    },
  } satisfies APIPoll;
}

/**
 * A voter's `answer_ids` (`PUT …/answers/@me`): ids of the poll's answers (integers, or digit
 * strings as the client sends them), each once, one only unless the poll allows multiselect. An
 * empty list takes every vote back.
 */
export function readVoteBody(body: unknown, poll: StoredPoll): Result<number[]> {
  const issues: Issue[] = [];
  const record = readRecord(body, [], issues);
  if (!record) return fail(issues);
  const raw = fieldOf(record, 'answer_ids');
  const list = isAbsent(raw)
    ? (reportRequired(issues, ['answer_ids']), undefined)
    : readList(raw, ['answer_ids'], issues);
  if (!list) return fail(issues);
  const max = poll.allow_multiselect ? poll.answers.length : 1;
  if (list.length > max) {
    reportTooLong(issues, ['answer_ids'], max);
    return fail(issues);
  }
  const known = poll.answers.map((a) => a.answer_id);
  const ids: number[] = [];
  list.forEach((item, index) => {
    const id = typeof item === 'string' && /^\d{1,2}$/.test(item) ? Number(item) : item;
    if (typeof id !== 'number' || !known.includes(id)) reportNotOneOf(issues, ['answer_ids', index], known);
    else if (ids.includes(id)) reportDuplicateValue(issues, ['answer_ids', index], item);
    else ids.push(id);
  });
  return issues.length > 0 ? fail(issues) : ok(ids);
}

/** The answer of a voters path: one of the poll's answer ids, else null. */
export function readAnswerId(raw: string, poll: StoredPoll): number | null {
  if (!/^\d{1,2}$/.test(raw)) return null;
  const id = Number(raw);
  return poll.answers.some((a) => a.answer_id === id) ? id : null;
}

export interface VotersQuery {
  limit: number;
  after: string | undefined;
}

/** `limit` (1-100, default 25) and `after` (a user id); bad values are 50035. */
export function readVotersQuery(query: Readonly<Record<string, unknown>>): Result<VotersQuery> {
  const issues: Issue[] = [];
  const limit = readIntegerParam(
    query.limit,
    { name: 'limit', min: 1, max: POLL_VOTERS_PAGE_MAX, fallback: POLL_VOTERS_PAGE_DEFAULT },
    issues,
  );
  const after = readSnowflakeParam(query.after, 'after', issues);
  return issues.length > 0 ? fail(issues) : ok({ limit, after });
}

/** Where a poll is: its message, its channel, and the channel's guild (null in a DM). */
export interface PollPlace {
  guildId: string | null;
  channelId: string;
  messageId: string;
  /** A DM's two ends (user ids, a bot by its application id); [] in a guild. */
  recipientIds: readonly string[];
}

/** MESSAGE_POLL_VOTE_ADD or _REMOVE: one answer of one voter. */
export function pollVoteDispatch<K extends 'MESSAGE_POLL_VOTE_ADD' | 'MESSAGE_POLL_VOTE_REMOVE'>(
  t: K,
  place: PollPlace,
  userId: string,
  answerId: number,
): WorldDispatch<K> {
  const d: WirePayload<GatewayMessagePollVoteDispatchData> = {
    user_id: userId,
    channel_id: place.channelId,
    message_id: place.messageId,
    ...(place.guildId ? { guild_id: place.guildId } : {}),
    answer_id: answerId,
  } satisfies GatewayMessagePollVoteDispatchData;
  return { t, guildId: place.guildId, channelId: place.channelId, recipientIds: place.recipientIds, d };
}

/** The most votes any answer has (0 when nobody voted). */
function topVotes(counts: readonly PollAnswerCount[]): number {
  return Math.max(0, ...counts.map((c) => c.count));
}

/**
 * The winner of a poll: the one answer with the most votes, or none when nobody voted or the most
 * votes are shared (the result message then names no victor; docs/decisions.md, "Polls").
 */
export function victorOf(counts: readonly PollAnswerCount[]): PollAnswerCount | undefined {
  const top = topVotes(counts);
  const leaders = counts.filter((c) => c.count === top && top > 0);
  return leaders.length === 1 ? leaders[0] : undefined;
}

function field(name: string, value: string): APIEmbedField {
  return { name, value, inline: false };
}

/**
 * The embed of a poll result message (v10's `poll_result`): the question, the total votes, and the
 * victor's id, text, votes and emoji when there is one.
 */
export function pollResultEmbed(poll: StoredPoll, counts: readonly PollAnswerCount[]): Record<string, unknown> {
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  const victor = victorOf(counts);
  const answer = victor ? poll.answers.find((a) => a.answer_id === victor.answerId) : undefined;
  const fields = [
    field('poll_question_text', poll.question.text),
    field('victor_answer_votes', String(topVotes(counts))),
    field('total_votes', String(total)),
  ];
  if (answer) {
    fields.push(field('victor_answer_id', String(answer.answer_id)));
    fields.push(field('victor_answer_text', answer.poll_media.text));
    const emoji = answer.poll_media.emoji;
    if (emoji?.id) fields.push(field('victor_answer_emoji_id', emoji.id));
    if (emoji?.name) fields.push(field('victor_answer_emoji_name', emoji.name));
    if (emoji?.id) fields.push(field('victor_answer_emoji_animated', String(emoji.animated)));
  }
  return { type: EmbedType.PollResult, fields };
}

/** The type of the message posted when a poll ends. */
export const POLL_RESULT_MESSAGE_TYPE = MessageType.PollResult;
