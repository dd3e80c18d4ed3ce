/**
 * Reading what a client sends (pure): the frame, IDENTIFY, RESUME and REQUEST_GUILD_MEMBERS.
 * A refusal is the v10 close code to close with.
 */
import { isRecord } from '../io/read.js';
import { isSnowflake } from '../snowflake.js';
import { decodePayload, type GatewayEncoding } from './encoding.js';
import { readIntents } from './intents.js';
import {
  CLIENT_OPS,
  Close,
  LARGE_THRESHOLD_DEFAULT,
  LARGE_THRESHOLD_MAX,
  LARGE_THRESHOLD_MIN,
  MAX_CLIENT_PAYLOAD_BYTES,
  MEMBER_QUERY_LIMIT_MAX,
  MEMBER_USER_IDS_MAX,
  NONCE_MAX_LENGTH,
  type CloseCode,
} from './protocol.js';
import { readShard } from './shards.js';

/**
 * What reading a client payload decides: the payload, or the close code that ends the connection.
 * Not a `Result`: a refusal here is a close code, never a list of field issues.
 */
export type Read<T> =
  { readonly kind: 'read'; readonly value: T } | { readonly kind: 'close'; readonly close: CloseCode };

const accept = <T>(value: T): Read<T> => ({ kind: 'read', value });
const refuse = <T>(close: CloseCode): Read<T> => ({ kind: 'close', close });

export interface ClientFrame {
  op: number;
  d: unknown;
}

/**
 * A client payload: at most 4096 bytes of JSON (or ETF, when the connection chose it) with a known
 * `op` (else 4002 / 4001).
 */
export function readFrame(bytes: Buffer, encoding: GatewayEncoding = 'json'): Read<ClientFrame> {
  if (bytes.length > MAX_CLIENT_PAYLOAD_BYTES) return refuse(Close.DecodeError);
  const parsed = decodePayload(encoding, bytes);
  if (!isRecord(parsed)) return refuse(Close.DecodeError);
  const { op, d } = parsed;
  if (typeof op !== 'number' || !Number.isInteger(op)) return refuse(Close.DecodeError);
  if (!CLIENT_OPS.has(op)) return refuse(Close.UnknownOpcode);
  return accept({ op, d });
}

export interface Identify {
  token: string;
  intents: number;
  shard: [number, number];
  largeThreshold: number;
  properties: Record<string, unknown>;
}

/** `Bot ` before the token is tolerated (some libraries send it). */
function readToken(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) return null;
  return value.startsWith('Bot ') ? value.slice(4) : value;
}

/** IDENTIFY's `d`: a malformed one is a decode error; bad intents 4013; a bad shard 4010. */
export function readIdentify(d: unknown): Read<Identify> {
  if (!isRecord(d)) return refuse(Close.DecodeError);
  const token = readToken(d.token);
  if (token === null) return refuse(Close.AuthenticationFailed);
  if (d.properties !== undefined && !isRecord(d.properties)) return refuse(Close.DecodeError);
  if (d.intents === undefined || d.intents === null) return refuse(Close.InvalidIntents);
  const intents = readIntents(d.intents);
  if (intents === null) return refuse(Close.InvalidIntents);
  const shard = readShard(d.shard);
  if (shard === null) return refuse(Close.InvalidShard);
  let largeThreshold = LARGE_THRESHOLD_DEFAULT;
  if (d.large_threshold !== undefined && d.large_threshold !== null) {
    if (typeof d.large_threshold !== 'number' || !Number.isInteger(d.large_threshold)) return refuse(Close.DecodeError);
    largeThreshold = Math.min(LARGE_THRESHOLD_MAX, Math.max(LARGE_THRESHOLD_MIN, d.large_threshold));
  }
  return accept({ token, intents, shard, largeThreshold, properties: isRecord(d.properties) ? d.properties : {} });
}

export interface Resume {
  token: string;
  sessionId: string;
  seq: number;
}

/** RESUME's `d`: `seq` may be null (nothing received yet), read as 0. */
export function readResume(d: unknown): Read<Resume> {
  if (!isRecord(d)) return refuse(Close.DecodeError);
  const token = readToken(d.token);
  if (token === null) return refuse(Close.AuthenticationFailed);
  if (typeof d.session_id !== 'string' || d.session_id.length > 128) return refuse(Close.DecodeError);
  const seq = d.seq === null || d.seq === undefined ? 0 : d.seq;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return refuse(Close.InvalidSeq);
  return accept({ token, sessionId: d.session_id, seq });
}

export interface MembersRequest {
  guildId: string;
  /** A username/nickname prefix ('' for all); null when `user_ids` is given instead. */
  query: string | null;
  userIds: string[] | null;
  /** 0 means no limit (only with an empty query, as in v10). */
  limit: number;
  nonce: string | null;
}

/** REQUEST_GUILD_MEMBERS's `d` (v10): guild_id, then `query` + `limit`, or `user_ids`. */
export function readMembersRequest(d: unknown): Read<MembersRequest> {
  if (!isRecord(d)) return refuse(Close.DecodeError);
  const guildId: unknown = Array.isArray(d.guild_id) ? (d.guild_id as unknown[])[0] : d.guild_id;
  if (typeof guildId !== 'string' || !isSnowflake(guildId)) return refuse(Close.DecodeError);
  let nonce: string | null = null;
  if (d.nonce !== undefined && d.nonce !== null) {
    if (typeof d.nonce !== 'string') return refuse(Close.DecodeError);
    // v10 drops a nonce longer than 32 bytes rather than refusing the request.
    nonce = Buffer.byteLength(d.nonce) <= NONCE_MAX_LENGTH ? d.nonce : null;
  }
  if (d.user_ids !== undefined && d.user_ids !== null) {
    const ids: unknown[] = Array.isArray(d.user_ids) ? (d.user_ids as unknown[]) : [d.user_ids];
    if (ids.length > MEMBER_USER_IDS_MAX || !ids.every((id) => typeof id === 'string' && isSnowflake(id))) {
      return refuse(Close.DecodeError);
    }
    return accept({ guildId, query: null, userIds: ids, limit: 0, nonce });
  }
  const query = d.query ?? '';
  if (typeof query !== 'string' || query.length > 100) return refuse(Close.DecodeError);
  const limit = d.limit ?? 0;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) return refuse(Close.DecodeError);
  return accept({
    guildId,
    query,
    userIds: null,
    limit: query === '' ? limit : Math.min(limit || MEMBER_QUERY_LIMIT_MAX, MEMBER_QUERY_LIMIT_MAX),
    nonce,
  });
}
