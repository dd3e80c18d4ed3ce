/**
 * Gateway sessions shared by the nodes of a deployment: what a node needs to take a session over
 * on RESUME (its app, shard, intents, last sequence number), which node holds it, and the live
 * sessions of each app (for interaction presence on any node). Backed by Redis: one hash per
 * session, one set of session ids per app, under the deployment's prefix.
 *
 * A session is held by one node at a time (`node`); only the holder appends to its resume buffer
 * (`redis-resume-buffer.ts` checks it in the same script), so a node that lost a session to a
 * RESUME elsewhere cannot write into it any more.
 *
 * Redis may come back empty (restarted without persistence, or flushed): each node writes again
 * the sessions it holds attached that Redis no longer has, as soon as its link is up again
 * (`restore`) and at each refresh, so interactions find the bots' sessions within seconds.
 *
 * Each node also heartbeats (`beat`, a sorted set of nodes scored by Redis's clock): a session whose
 * node stopped beating for NODE_DEAD_AFTER_MS is no longer live, is marked detached and keeps its
 * keys for the resume window only, so a crashed node's sessions stop receiving interactions within
 * seconds and can still be resumed on another node.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RESUME_WINDOW_MS } from '../core/gateway/protocol.js';
import type { SessionInit } from './session.js';

/** How long an attached session's keys live without a refresh (ms): a crashed node's sessions go. */
export const ATTACHED_SESSION_TTL_MS = 5 * 60 * 1000;
/** How often a node refreshes the keys of the sessions it holds (ms). */
export const SESSION_KEEPALIVE_MS = 60 * 1000;
/** How often a node tells Redis it is alive (ms). */
export const NODE_HEARTBEAT_MS = 500;
/**
 * How long a node may go without a heartbeat before its sessions count as dead (ms): three missed
 * beats, so that a busy event loop is not taken for a crash, and still well inside the 3 s an
 * interaction has for its first answer.
 */
export const NODE_DEAD_AFTER_MS = 1_500;
/** A node silent this long leaves the set of nodes altogether (ms). */
const NODE_FORGOTTEN_AFTER_MS = RESUME_WINDOW_MS;

/** A session this node holds: what it was started with, and its last sequence number (a `Session` is one). */
export interface HeldSession extends SessionInit {
  readonly seq: number;
}

export interface SessionRecord extends SessionInit {
  /** The last sequence number kept in the resume buffer. */
  seq: number;
  /** The node holding the session. */
  node: string;
  attached: boolean;
  /** Whether the holding node's heartbeat is current (a crashed node's sessions are not live). */
  nodeAlive: boolean;
  /** When the session was started (epoch ms of the node that started it): the newest gets interactions. */
  since: number;
  /** The dispatch log's position its holder had handled for it (session.ts `logPos`); null if unknown. */
  pos: string | null;
}

export interface SessionRegistry {
  /** This node's name in the registry. */
  readonly node: string;
  /** A new session, attached to this node. */
  register(init: SessionInit): Promise<void>;
  /** Takes the app's session over for this node (still detached); null when it is unknown or expired. */
  claim(sessionId: string, applicationId: string): Promise<SessionRecord | null>;
  /** Attached: kept while refreshed. Detached: kept for the resume window. Only by its holder. */
  setAttached(sessionId: string, attached: boolean): Promise<void>;
  /** Forgets the session (and its resume buffer), if this node still holds it. */
  end(sessionId: string, applicationId: string): Promise<void>;
  /**
   * The app's sessions on every node (attached, or resumable), with whether their node is alive;
   * attached sessions of a node found dead are marked detached, kept for the resume window.
   */
  sessionsOf(applicationId: string): Promise<SessionRecord[]>;
  /** Refreshes the keys of sessions this node holds attached, writing again those Redis lost. */
  keepAlive(sessions: readonly HeldSession[]): Promise<void>;
  /** This node is alive (every NODE_HEARTBEAT_MS). */
  beat(): Promise<void>;
}

/** Where the registry says it wrote lost sessions again (the server's pino logger fits). */
export interface RegistryLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The Redis keys of a deployment's gateway sessions. */
export class SessionKeys {
  constructor(private readonly prefix: string) {}
  session(id: string): string {
    return `${this.prefix}gw:s:${id}`;
  }
  buffer(id: string): string {
    return `${this.prefix}gw:b:${id}`;
  }
  app(applicationId: string): string {
    return `${this.prefix}gw:a:${applicationId}`;
  }
  /** The nodes, scored by their last heartbeat (Redis's clock, ms). */
  nodes(): string {
    return `${this.prefix}gw:nodes`;
  }
  /** An app's interactions handed to a session and not yet in its resume buffer (pending-interactions.ts). */
  pending(applicationId: string): string {
    return `${this.prefix}gw:p:${applicationId}`;
  }
  /** Every app's pending interactions (`<app> <id>`), scored by their deadline. */
  pendingDeadlines(): string {
    return `${this.prefix}gw:pd`;
  }
}

const FIELDS = ['app', 'shard', 'shards', 'intents', 'large', 'seq', 'node', 'attached', 'since', 'pos'] as const;

/** Redis's clock in ms, in a script. */
const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: nodes. ARGV: node, forgotten after (ms). */
const BEAT = `${REDIS_NOW}
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
return 1`;

/**
 * KEYS: app set, nodes. ARGV: session key prefix, buffer key prefix, dead after (ms), resume
 * window (ms). Each session of the app with whether its node beats; those gone leave the set, and
 * attached ones of a dead node become detached, kept for the resume window.
 */
const SESSIONS_OF = `${REDIS_NOW}
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. id
  local v = redis.call('HMGET', key, ${FIELDS.map((f) => `'${f}'`).join(', ')})
  if not v[1] or not v[7] then
    redis.call('SREM', KEYS[1], id)
  else
    local beat = redis.call('ZSCORE', KEYS[2], v[7])
    local alive = beat and (now - tonumber(beat) <= tonumber(ARGV[3]))
    if not alive and v[8] == '1' then
      redis.call('HSET', key, 'attached', '0')
      redis.call('PEXPIRE', key, ARGV[4])
      redis.call('PEXPIRE', ARGV[2] .. id, ARGV[4])
      v[8] = '0'
    end
    local row = { id }
    for i = 1, ${FIELDS.length} do row[i + 1] = v[i] or '' end
    row[${FIELDS.length + 2}] = alive and '1' or '0'
    table.insert(out, row)
  end
end
return out`;

/**
 * KEYS: session, buffer. ARGV: node, app, ttl. The holder becomes this node; the session counts
 * as attached once its RESUME has gone through (`setAttached`).
 */
const CLAIM = `
if redis.call('HGET', KEYS[1], 'app') ~= ARGV[2] then return nil end
redis.call('HSET', KEYS[1], 'node', ARGV[1], 'attached', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return redis.call('HMGET', KEYS[1], ${FIELDS.map((f) => `'${f}'`).join(', ')})`;

/** KEYS: session, buffer. ARGV: node, attached ('1' or '0'), ttl. */
const SET_ATTACHED = `
if redis.call('HGET', KEYS[1], 'node') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'attached', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/** KEYS: session, buffer, app set. ARGV: node, session id. */
const END = `
if redis.call('HGET', KEYS[1], 'node') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[2])
return 1`;

/**
 * KEYS: session, buffer, app set. ARGV: node, ttl, session id, then the session's app, shard,
 * shards, intents, large threshold, sequence number, start time and dispatch log position ('' if none). Refreshes a session this node holds; one
 * Redis lost is written again, attached to this node; one another node took over is left alone.
 * Returns 0 (another node's), 1 (refreshed) or 2 (written again).
 */
const KEEP = `
local holder = redis.call('HGET', KEYS[1], 'node')
if holder and holder ~= ARGV[1] then return 0 end
if not holder then
  redis.call('HSET', KEYS[1], 'app', ARGV[4], 'shard', ARGV[5], 'shards', ARGV[6], 'intents', ARGV[7],
    'large', ARGV[8], 'seq', ARGV[9], 'node', ARGV[1], 'attached', '1', 'since', ARGV[10])
else
  -- Marked detached while this node was taken for dead (a stalled event loop): attached again.
  redis.call('HSET', KEYS[1], 'attached', '1')
end
if ARGV[11] ~= '' then redis.call('HSET', KEYS[1], 'pos', ARGV[11]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
if holder then return 1 end
return 2`;

/** The sequence number of a session handed to `register` (a `Session`), 0 if it carries none. */
function seqOf(init: SessionInit): number {
  const seq = (init as Partial<HeldSession>).seq;
  return typeof seq === 'number' ? seq : 0;
}

/** The dispatch log's position of a session handed to `register` (a `Session`), if it has one. */
function logPosOf(init: SessionInit): string | null {
  const pos = (init as { logPos?: unknown }).logPos;
  return typeof pos === 'string' ? pos : null;
}

/** A record's fields in FIELDS order; `nodeAlive` when known (a claim is by a live node). */
function toRecord(id: string, values: readonly (string | null)[], nodeAlive = true): SessionRecord | null {
  const [app, shard, shards, intents, large, seq, node, attached, since, pos] = values;
  if (!app || !node) return null;
  return {
    id,
    applicationId: app,
    shardId: Number(shard),
    numShards: Number(shards),
    intents: Number(intents),
    largeThreshold: Number(large),
    seq: Number(seq || 0),
    node,
    attached: attached === '1',
    nodeAlive,
    since: Number(since || 0),
    pos: pos || null,
  };
}

export class RedisSessionRegistry implements SessionRegistry {
  readonly node = randomBytes(9).toString('base64url');
  readonly keys: SessionKeys;
  /** The sessions this node holds attached, as last told: what it writes again if Redis lost them. */
  private readonly held = new Map<string, SessionInit>();
  /** Sessions claimed by a RESUME here, until they are attached. */
  private readonly claimed = new Map<string, SessionInit>();
  /** When each session this node holds was started: written again with it if Redis lost it. */
  private readonly started = new Map<string, number>();

  /** `log`: where the registry logs the sessions it wrote again. */
  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly log: RegistryLog | null = null,
  ) {
    this.keys = new SessionKeys(prefix);
  }

  /**
   * Writes again the sessions this node holds that Redis no longer has; the number written. Run
   * when the node's Redis link comes back (`RedisLink.onUp`, wired in src/app.ts): a Redis that
   * restarted empty lost them.
   */
  async restore(): Promise<number> {
    try {
      const written = await this.keep([...this.held.values()]);
      if (written > 0) this.log?.info({ sessions: written }, 'gateway sessions written again to Redis');
      return written;
    } catch (error) {
      // Redis went away again: the next reconnection, or the next refresh, tries again.
      this.log?.warn({ err: error }, 'gateway sessions could not be written again to Redis');
      return 0;
    }
  }

  async beat(): Promise<void> {
    await this.redis.eval(BEAT, 1, this.keys.nodes(), this.node, NODE_FORGOTTEN_AFTER_MS);
  }

  async register(init: SessionInit): Promise<void> {
    this.held.set(init.id, init);
    this.started.set(init.id, Date.now());
    const key = this.keys.session(init.id);
    const app = this.keys.app(init.applicationId);
    await this.redis
      .multi()
      .hset(key, {
        app: init.applicationId,
        shard: init.shardId,
        shards: init.numShards,
        intents: init.intents,
        large: init.largeThreshold,
        seq: 0,
        node: this.node,
        attached: 1,
        since: this.started.get(init.id)!,
        ...(logPosOf(init) ? { pos: logPosOf(init)! } : {}),
      })
      .pexpire(key, ATTACHED_SESSION_TTL_MS)
      .sadd(app, init.id)
      .pexpire(app, ATTACHED_SESSION_TTL_MS)
      .exec();
  }

  async claim(sessionId: string, applicationId: string): Promise<SessionRecord | null> {
    const values = (await this.redis.eval(
      CLAIM,
      2,
      this.keys.session(sessionId),
      this.keys.buffer(sessionId),
      this.node,
      applicationId,
      RESUME_WINDOW_MS,
    )) as (string | null)[] | null;
    const record = values ? toRecord(sessionId, values) : null;
    if (record) {
      this.claimed.set(sessionId, record);
      this.started.set(sessionId, record.since);
    }
    return record;
  }

  async setAttached(sessionId: string, attached: boolean): Promise<void> {
    const known = this.held.get(sessionId) ?? this.claimed.get(sessionId);
    this.claimed.delete(sessionId);
    if (attached && known) this.held.set(sessionId, known);
    else this.held.delete(sessionId);
    if (!attached) this.started.delete(sessionId);
    await this.redis.eval(
      SET_ATTACHED,
      2,
      this.keys.session(sessionId),
      this.keys.buffer(sessionId),
      this.node,
      attached ? '1' : '0',
      attached ? ATTACHED_SESSION_TTL_MS : RESUME_WINDOW_MS,
    );
  }

  async end(sessionId: string, applicationId: string): Promise<void> {
    this.held.delete(sessionId);
    this.claimed.delete(sessionId);
    this.started.delete(sessionId);
    await this.redis.eval(
      END,
      3,
      this.keys.session(sessionId),
      this.keys.buffer(sessionId),
      this.keys.app(applicationId),
      this.node,
      sessionId,
    );
  }

  async sessionsOf(applicationId: string): Promise<SessionRecord[]> {
    const rows = (await this.redis.eval(
      SESSIONS_OF,
      2,
      this.keys.app(applicationId),
      this.keys.nodes(),
      this.keys.session(''),
      this.keys.buffer(''),
      NODE_DEAD_AFTER_MS,
      RESUME_WINDOW_MS,
    )) as string[][];
    const records: SessionRecord[] = [];
    for (const [id, ...values] of rows) {
      const record = toRecord(id!, values.slice(0, FIELDS.length), values[FIELDS.length] === '1');
      if (record) records.push(record);
    }
    return records;
  }

  async keepAlive(sessions: readonly HeldSession[]): Promise<void> {
    this.held.clear();
    for (const session of sessions) this.held.set(session.id, session);
    const written = await this.keep(sessions);
    if (written > 0) this.log?.info({ sessions: written }, 'gateway sessions written again to Redis');
  }

  /** Refreshes `sessions`, writing again those Redis lost; the number written again. */
  private async keep(sessions: readonly SessionInit[]): Promise<number> {
    if (sessions.length === 0) return 0;
    const pipeline = this.redis.pipeline();
    for (const session of sessions) {
      pipeline.eval(
        KEEP,
        3,
        this.keys.session(session.id),
        this.keys.buffer(session.id),
        this.keys.app(session.applicationId),
        this.node,
        ATTACHED_SESSION_TTL_MS,
        session.id,
        session.applicationId,
        session.shardId,
        session.numShards,
        session.intents,
        session.largeThreshold,
        seqOf(session),
        this.started.get(session.id) ?? Date.now(),
        logPosOf(session) ?? '',
      );
    }
    const replies = (await pipeline.exec()) ?? [];
    const failed = replies.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
    return replies.filter(([, written]) => written === 2).length;
  }
}
