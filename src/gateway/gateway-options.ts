/** What a gateway is built with: its options and their defaults, the world it reads, its parts. */
import type { IncomingMessage } from 'node:http';
import type { APIGuildScheduledEvent } from 'discord-api-types/v10';
import { IDENTIFY_TIMEOUT_MS, UNIDENTIFIED_PER_ADDRESS, UNIDENTIFIED_TOTAL } from '../core/gateway/limits.js';
import { HEARTBEAT_INTERVAL_MS, MAX_GUILDS_PER_SHARD, RESUME_BUFFER_CHARS } from '../core/gateway/protocol.js';
import type { EventBus } from '../events/bus.js';
import type { FaultTable } from '../faults/fault-table.js';
import type { GatewayMetrics } from '../metrics/metrics.js';
import type { Guild } from '../core/world/types.js';
import type { WirePayload } from '../core/wire-payload.js';
import type { GuildMemberStore, InteractionStore, WorldStore } from '../store/store.js';
import type { PendingInteractions } from './pending-interactions.js';
import type { ResumeBuffer } from './resume-buffer.js';
import type { SessionRegistry } from './session-registry.js';
import type { SessionStartCounter } from './session-starts.js';

/**
 * Identified connections (past IDENTIFY or RESUME) one node holds at most; past it, upgrades are
 * refused with HTTP 503. Sockets not yet identified have bounds of their own (core/gateway/limits.ts).
 */
export const DEFAULT_MAX_SESSIONS = 50_000;
/**
 * Unsent bytes a connection may hold when its next payload is sent before it is closed as a slow
 * consumer (4000, resumable): one payload larger than this still goes to a client that reads.
 */
export const DEFAULT_SEND_BUFFER_BYTES = 4 * 1024 * 1024;

export interface GatewayOptions {
  /** The ws:// or wss:// URL announced to clients (`--gateway-url`); by default from `setOrigin` (gateway-url.ts). */
  publicUrl: string | null;
  /** Identified connections the node holds at most (DEFAULT_MAX_SESSIONS). */
  maxSessions: number;
  /** How long a socket may stay without IDENTIFY or RESUME before it closes with 4003 (ms). */
  identifyTimeoutMs: number;
  /** Sockets not yet identified one client address (an IPv6 /64) may hold; more get HTTP 429. */
  maxUnidentifiedPerAddress: number;
  /** Sockets not yet identified the node holds, all addresses together; more get HTTP 503. */
  maxUnidentified: number;
  sendBufferBytes: number;
  heartbeatIntervalMs: number;
  /**
   * Whether an interaction for an app without an interactions endpoint fails at once when no
   * session of the app is connected (v10). Off, it waits on the bus for its 3 s deadline.
   */
  failWithoutSession: boolean;
  /** Guilds one shard may hold before IDENTIFY closes with 4011 (v10: 2,500). */
  maxGuildsPerShard: number;
  /** JSON text the resume buffer (in memory, or Redis's with many nodes) keeps per session. */
  resumeBufferChars: number;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  publicUrl: null,
  maxSessions: DEFAULT_MAX_SESSIONS,
  identifyTimeoutMs: IDENTIFY_TIMEOUT_MS,
  maxUnidentifiedPerAddress: UNIDENTIFIED_PER_ADDRESS,
  maxUnidentified: UNIDENTIFIED_TOTAL,
  sendBufferBytes: DEFAULT_SEND_BUFFER_BYTES,
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  failWithoutSession: true,
  maxGuildsPerShard: MAX_GUILDS_PER_SHARD,
  resumeBufferChars: RESUME_BUFFER_CHARS,
};

/** The world reads the gateway makes: the bot's token (constant-time lookup), guilds, users. */
export type GatewayWorld = Pick<
  WorldStore,
  'findApplicationByBotToken' | 'getApplication' | 'getGuild' | 'guildsOfApplication' | 'getUsers'
>;

/** The guild read with the members named (the dispatcher reads a guild with none). */
export type GatewayMembers = Pick<GuildMemberStore, 'getGuildWithMembers'>;

export interface GatewayDeps {
  store: GatewayWorld;
  members: GatewayMembers;
  bus: EventBus;
  now: () => number;
  options?: Partial<GatewayOptions> | undefined;
  resumeBuffer?: ResumeBuffer | undefined;
  metrics?: GatewayMetrics | undefined;
  /** Sessions shared with other nodes (a RESUME on any node); without it, sessions are this node's. */
  registry?: SessionRegistry | undefined;
  /** Where `session_start_limit` is counted; by default in this process. */
  sessionStarts?: SessionStartCounter | undefined;
  /** Injected faults (`/admin/faults`): RECONNECT, INVALID_SESSION or a close instead of a dispatch. */
  faults?: FaultTable | undefined;
  /** The client's address of an upgrade (behind trusted proxies, from X-Forwarded-For); by default the socket's. */
  clientAddress?: ((request: IncomingMessage) => string) | undefined;
  /** With `registry`: interactions handed to sessions, re-sent if a session dies with its node. */
  pending?: PendingInteractions | undefined;
  /** Whether an interaction still waits for its first answer: a re-send is for those only. */
  interactionStates?: Pick<InteractionStore, 'getInteractionState'> | undefined;
  /** The channels' message counters GUILD_CREATE carries; without it, the world file's messages alone. */
  channelCounters?: Pick<InteractionStore, 'channelCounters'> | undefined;
  /** The guild's scheduled events a bot sees, as GUILD_CREATE carries them; none when absent. */
  guildScheduledEvents?: GuildScheduledEvents | undefined;
  /** Told of every dispatch a session of an app is sent (`slashd test`'s record of events); none when absent. */
  observeDispatch?: DispatchObserver | undefined;
}

/** The scheduled events of `guild` that the bot of `applicationId` sees, as v10 objects, ascending by id. */
type WireScheduledEvent = WirePayload<APIGuildScheduledEvent>;

export type GuildScheduledEvents = (guild: Guild, applicationId: string) => Promise<readonly WireScheduledEvent[]>;

/** Told of each dispatch: the app whose session it is for, its type and its data as JSON text. */
export type DispatchObserver = (applicationId: string, t: string, json: string) => void;
