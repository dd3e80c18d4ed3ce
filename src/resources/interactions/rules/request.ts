/**
 * The body of `POST /interactions` (a client invoking a command): read and checked for shape
 * only. Whether the command, the user and the options fit is decided by the permission engine and
 * the invocation check.
 */
import { InteractionType } from 'discord-api-types/v10';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, readOptional, readRecord, readRequired, readSnowflake } from '../../../core/io/read.js';
import { reportNotOneOf, reportTooLong, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';

/** Most characters of a client nonce. */
export const NONCE_MAX_LENGTH = 25;

export interface InvokeRequest {
  type: 2 | 4;
  application_id: string;
  guild_id: string | null;
  channel_id: string;
  data: Record<string, unknown> & { id: string; version: string | null };
  nonce: string | null;
}

/**
 * `type`: APPLICATION_COMMAND (2) or APPLICATION_COMMAND_AUTOCOMPLETE (4) here; MESSAGE_COMPONENT
 * (3) and MODAL_SUBMIT (5) are read by `component-request.ts`.
 */
const INVOKE_TYPES: readonly number[] = [
  InteractionType.ApplicationCommand,
  InteractionType.MessageComponent,
  InteractionType.ApplicationCommandAutocomplete,
  InteractionType.ModalSubmit,
];

function readInvokeType(value: unknown, path: IssuePath, issues: Issues): 2 | 4 | undefined {
  if (value === 2 || value === 4) return value;
  reportNotOneOf(issues, path, INVOKE_TYPES);
  return undefined;
}

/** A client nonce: a string of at most 25 characters, or a number (kept as its decimal text). */
export function readNonce(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if ((typeof value === 'string' && value.length <= NONCE_MAX_LENGTH) || typeof value === 'number')
    return String(value);
  reportTooLong(issues, path, NONCE_MAX_LENGTH);
  return undefined;
}

export function readInvokeRequest(body: unknown): Result<InvokeRequest> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  if (!record) return fail(issues);
  const type = readRequired(fieldOf(record, 'type'), ['type'], issues, readInvokeType);
  const applicationId = readRequired(fieldOf(record, 'application_id'), ['application_id'], issues, readSnowflake);
  const guildId = readOptional<string | null>(fieldOf(record, 'guild_id'), ['guild_id'], issues, readSnowflake, null);
  const channelId = readRequired(fieldOf(record, 'channel_id'), ['channel_id'], issues, readSnowflake);
  const nonce = readOptional<string | null>(fieldOf(record, 'nonce'), ['nonce'], issues, readNonce, null);
  const data = readRequired(fieldOf(record, 'data'), ['data'], issues, readRecord);
  const commandId = data && readRequired(fieldOf(data, 'id'), ['data', 'id'], issues, readSnowflake);
  const version = data && readRequired(fieldOf(data, 'version'), ['data', 'version'], issues, readSnowflake);
  if (issues.length > 0 || !type || !data || !applicationId || !channelId || !commandId || !version) {
    return fail(issues);
  }
  return ok({
    type,
    application_id: applicationId,
    guild_id: guildId,
    channel_id: channelId,
    data: { ...data, id: commandId, version },
    nonce,
  });
}
