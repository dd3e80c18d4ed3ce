/** The v10 gateway's numbers: opcodes, close codes and the limits slashd applies to a connection. */
import { GatewayCloseCodes, GatewayOpcodes } from 'discord-api-types/v10';

/** Gateway opcodes (v10): discord-api-types' `GatewayOpcodes`, by the name the gateway code uses. */
export const Op = GatewayOpcodes;

/** Opcodes a client may send; anything else closes with 4001. */
export const CLIENT_OPS: ReadonlySet<number> = new Set([
  Op.Heartbeat,
  Op.Identify,
  Op.PresenceUpdate,
  Op.VoiceStateUpdate,
  Op.Resume,
  Op.RequestGuildMembers,
  Op.RequestSoundboardSounds,
]);

/** v10 close codes (discord-api-types' `GatewayCloseCodes`), each with the reason text v10 sends. */
export const Close = {
  UnknownError: { code: GatewayCloseCodes.UnknownError, reason: 'Unknown error.' },
  UnknownOpcode: { code: GatewayCloseCodes.UnknownOpcode, reason: 'Unknown opcode.' },
  DecodeError: { code: GatewayCloseCodes.DecodeError, reason: 'Error while decoding payload.' },
  NotAuthenticated: { code: GatewayCloseCodes.NotAuthenticated, reason: 'Not authenticated.' },
  AuthenticationFailed: { code: GatewayCloseCodes.AuthenticationFailed, reason: 'Authentication failed.' },
  AlreadyAuthenticated: { code: GatewayCloseCodes.AlreadyAuthenticated, reason: 'Already authenticated.' },
  InvalidSeq: { code: GatewayCloseCodes.InvalidSeq, reason: 'Invalid seq.' },
  RateLimited: { code: GatewayCloseCodes.RateLimited, reason: 'Rate limited.' },
  SessionTimedOut: { code: GatewayCloseCodes.SessionTimedOut, reason: 'Session timed out.' },
  InvalidShard: { code: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard.' },
  ShardingRequired: { code: GatewayCloseCodes.ShardingRequired, reason: 'Sharding required.' },
  InvalidApiVersion: { code: GatewayCloseCodes.InvalidAPIVersion, reason: 'Invalid API version.' },
  InvalidIntents: { code: GatewayCloseCodes.InvalidIntents, reason: 'Invalid intent(s).' },
  DisallowedIntents: { code: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s).' },
} as const;

export type CloseCode = (typeof Close)[keyof typeof Close];

/** Gateway versions served (the HTTP API serves v9 as v10 too); an absent `v` means 10. */
export const GATEWAY_VERSIONS: ReadonlySet<string> = new Set(['9', '10']);

/** The heartbeat interval HELLO announces, in ms (v10's usual value). */
export const HEARTBEAT_INTERVAL_MS = 41_250;

/**
 * A connection that has not sent a heartbeat for this many intervals is closed with 4009: one
 * interval plus the client's first jitter and network slack.
 */
export const HEARTBEAT_TIMEOUT_FACTOR = 1.5;

/** Client payloads above this many bytes close the connection with 4002 (v10's limit). */
export const MAX_CLIENT_PAYLOAD_BYTES = 4096;

/** Commands a connection may send per window before 4008 (v10: 120 per 60 s). */
export const COMMANDS_PER_WINDOW = 120;
export const COMMAND_WINDOW_MS = 60_000;

/** Sessions one bot may start per day (v10's default `session_start_limit.total`). */
export const SESSION_STARTS_PER_DAY = 1000;
export const SESSION_START_WINDOW_MS = 24 * 60 * 60 * 1000;

/** How many identifies may start at once per bot (v10's `max_concurrency` for ordinary bots). */
export const MAX_CONCURRENCY = 1;

/** Guilds per shard above which IDENTIFY without enough shards closes with 4011 (v10: 2,500). */
export const MAX_GUILDS_PER_SHARD = 2500;

/** Guilds per shard `/gateway/bot` recommends (v10 recommends one shard per 1,000 guilds). */
export const RECOMMENDED_GUILDS_PER_SHARD = 1000;

/** Most shards a bot may ask for (a bound on IDENTIFY's `shard[1]`). */
export const MAX_SHARDS = 4096;

/** `large_threshold` bounds and default (v10: 50..250, default 50). */
export const LARGE_THRESHOLD_MIN = 50;
export const LARGE_THRESHOLD_MAX = 250;
export const LARGE_THRESHOLD_DEFAULT = 50;

/** How long a dropped session may be resumed, in ms. */
export const RESUME_WINDOW_MS = 3 * 60 * 1000;

/** Dispatches kept per session for a resume; an older `seq` gets INVALID_SESSION (d: false). */
export const RESUME_BUFFER_EVENTS = 1000;
/** And at most this much JSON text per session (the newest dispatch is always kept). */
export const RESUME_BUFFER_CHARS = 1024 * 1024;

/** Members per GUILD_MEMBERS_CHUNK and the most one request may ask for. */
export const MEMBERS_PER_CHUNK = 1000;
/** REQUEST_GUILD_MEMBERS `limit` for a query is at most 100 in v10. */
export const MEMBER_QUERY_LIMIT_MAX = 100;
/** `user_ids` per request (v10: 100). */
export const MEMBER_USER_IDS_MAX = 100;
/** `nonce` length (v10: 32 bytes). */
export const NONCE_MAX_LENGTH = 32;
