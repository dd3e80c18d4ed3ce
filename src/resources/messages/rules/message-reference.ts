/**
 * A reply's `message_reference` in a message body (v10): the message replied to, in the channel
 * the message is sent to, and what to do when it is not there (`fail_if_not_exists`, default true:
 * 50035 REPLIES_UNKNOWN_MESSAGE; false: sent as a plain message). Only replies (type 0) are served;
 * a forward (type 1) is refused at `message_reference.type`.
 */
import { MessageReferenceType } from 'discord-api-types/v10';
import { REPLIES_UNKNOWN_MESSAGE } from '../../../core/io/codes.js';
import { issue, type Issue } from '../../../core/io/issue.js';
import {
  fieldOf,
  isAbsent,
  isRecord,
  readBoolean,
  readInteger,
  readRecord,
  readRequired,
  readSnowflake,
} from '../../../core/io/read.js';
import { reportNotOneOf, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import type { StoredMessageReference } from './messages.js';

/** The one `message_reference.type` served: a reply. */
const REPLY_TYPE = MessageReferenceType.Default;

export interface ReplyRequest {
  message_id: string;
  /** The channel the body names, when it names one (a reply is to a message of the same channel). */
  channel_id?: string;
  fail_if_not_exists: boolean;
}

/** The body's reply, null when it is no reply, or the 50035 issues at `message_reference`. */
export function readMessageReference(body: unknown): Result<ReplyRequest | null> {
  if (!isRecord(body)) return ok(null);
  const raw = fieldOf(body, 'message_reference');
  if (isAbsent(raw)) return ok(null);
  const path = ['message_reference'];
  const issues: Issues = [];
  const record = readRecord(raw, path, issues);
  if (!record) return fail(issues);
  const type = fieldOf(record, 'type');
  if (!isAbsent(type) && readInteger(type, [...path, 'type'], issues) !== REPLY_TYPE) {
    reportNotOneOf(issues, [...path, 'type'], [REPLY_TYPE]);
  }
  const messageId = readRequired(fieldOf(record, 'message_id'), [...path, 'message_id'], issues, readSnowflake);
  const channelRaw = fieldOf(record, 'channel_id');
  const channelId = isAbsent(channelRaw) ? undefined : readSnowflake(channelRaw, [...path, 'channel_id'], issues);
  const failRaw = fieldOf(record, 'fail_if_not_exists');
  const failIfNotExists = isAbsent(failRaw) ? true : readBoolean(failRaw, [...path, 'fail_if_not_exists'], issues);
  if (issues.length > 0 || messageId === undefined) return fail(issues);
  return ok({
    message_id: messageId,
    ...(channelId !== undefined ? { channel_id: channelId } : {}),
    fail_if_not_exists: failIfNotExists !== false,
  });
}

/** The 50035 issue of a reply to a message that is not there. */
export function unknownReplyIssue(): Issue {
  return issue(['message_reference'], REPLIES_UNKNOWN_MESSAGE, 'Unknown message');
}

/** What a reply stores of the message it answers. */
export function storedReference(messageId: string, channelId: string, guildId: string | null): StoredMessageReference {
  return { message_id: messageId, channel_id: channelId, guild_id: guildId };
}
