/**
 * The body of `POST /interactions` (a client invoking a command): read and checked for shape
 * only. Whether the command, the user and the options fit is decided by the permission engine and
 * the invocation check.
 */
import { issue, type Issue } from '../io/issue.js';
import { isSnowflake } from '../snowflake.js';

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function snowflakeField(issues: Issue[], value: unknown, path: (string | number)[], required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) issues.push(issue(path, 'BASE_TYPE_REQUIRED', 'This field is required'));
    return null;
  }
  if (isSnowflake(value)) return value;
  issues.push(issue(path, 'NUMBER_TYPE_COERCE', `Value "${String(value)}" is not snowflake.`));
  return null;
}

export function readInvokeRequest(body: unknown): { ok: true; value: InvokeRequest } | { ok: false; issues: Issue[] } {
  const issues: Issue[] = [];
  if (!isObject(body)) {
    return { ok: false, issues: [issue([], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType')] };
  }
  if (body.type !== 2 && body.type !== 4) {
    issues.push(
      issue(
        ['type'],
        body.type === undefined ? 'BASE_TYPE_REQUIRED' : 'BASE_TYPE_CHOICES',
        body.type === undefined ? 'This field is required' : 'Value must be one of {2, 4}.',
      ),
    );
  }
  const applicationId = snowflakeField(issues, body.application_id, ['application_id'], true);
  const guildId = snowflakeField(issues, body.guild_id, ['guild_id'], false);
  const channelId = snowflakeField(issues, body.channel_id, ['channel_id'], true);
  let nonce: string | null = null;
  if (body.nonce !== undefined && body.nonce !== null) {
    if ((typeof body.nonce === 'string' && body.nonce.length <= NONCE_MAX_LENGTH) || typeof body.nonce === 'number') {
      nonce = String(body.nonce);
    } else {
      issues.push(issue(['nonce'], 'BASE_TYPE_MAX_LENGTH', `Must be ${NONCE_MAX_LENGTH} or fewer in length.`));
    }
  }
  const data = body.data;
  let commandId: string | null = null;
  let version: string | null = null;
  if (!isObject(data)) {
    issues.push(
      issue(
        ['data'],
        data === undefined ? 'BASE_TYPE_REQUIRED' : 'DICT_TYPE_CONVERT',
        data === undefined ? 'This field is required' : 'Only dictionaries may be used in a DictType',
      ),
    );
  } else {
    commandId = snowflakeField(issues, data.id, ['data', 'id'], true);
    version = snowflakeField(issues, data.version, ['data', 'version'], true);
  }
  if (issues.length > 0 || !isObject(data) || !applicationId || !channelId || !commandId) return { ok: false, issues };
  return {
    ok: true,
    value: {
      type: body.type as 2 | 4,
      application_id: applicationId,
      guild_id: guildId,
      channel_id: channelId,
      data: { ...data, id: commandId, version },
      nonce,
    },
  };
}
