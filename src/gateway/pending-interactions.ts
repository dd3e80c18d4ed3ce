/**
 * Interactions handed to a gateway session and not yet in its resume buffer, shared by the nodes
 * in Redis: what a node re-sends when the session it was handed to died with its node (after the
 * RESUME, or to the app's next session). An entry is written before the interaction is published,
 * leaves atomically with the append of its dispatch to the session's resume buffer (the append
 * script of `redis-resume-buffer.ts`, which checks the holder), and otherwise expires at its
 * deadline, counted as lost.
 *
 * Keys: a hash per app (`t:<id>` the session it is handed to, `d:<id>` its deadline, guild and
 * payload) and one sorted set of `<app> <id>` by deadline, for the nodes' watch.
 */
import type { Redis } from 'ioredis';
import type { SessionKeys } from './session-registry.js';

export interface PendingInteraction {
  id: string;
  /** The session it is handed to now. */
  sessionId: string;
  guildId: string | null;
  /** Epoch ms past which it is no longer delivered (the app's time to answer has passed). */
  deadline: number;
  /** When it was handed over (epoch ms). */
  handedAt: number;
  /** The INTERACTION_CREATE payload. */
  data: Record<string, unknown>;
}

export interface PendingInteractions {
  keep(applicationId: string, entry: PendingInteraction): Promise<void>;
  /** The app's entries not yet in a resume buffer. */
  of(applicationId: string): Promise<PendingInteraction[]>;
  /** Hands the entry to session `to` if it is still handed to `from` (one node wins). */
  move(applicationId: string, id: string, from: string, to: string): Promise<boolean>;
  forget(applicationId: string, id: string): Promise<void>;
  /** The apps with entries before their deadline. */
  waiting(now: number): Promise<string[]>;
  /** Entries past their deadline leave; how many of them were never delivered. */
  expire(now: number): Promise<number>;
}

/** How long an app's hash outlives the deadline of its newest entry (ms). */
const KEY_MARGIN_MS = 10_000;
/** Entries one watch looks at, at most. */
const WATCH_BATCH = 500;

/** KEYS: pending hash, deadlines. ARGV: id, from, to. */
const MOVE = `
if redis.call('HGET', KEYS[1], 't:' .. ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 't:' .. ARGV[1], ARGV[3])
return 1`;

/** KEYS: deadlines. ARGV: now, hash key prefix, batch. Returns how many left undelivered. */
const EXPIRE = `
local lost = 0
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))) do
  if redis.call('ZREM', KEYS[1], member) == 1 then
    local space = string.find(member, ' ', 1, true)
    local app = string.sub(member, 1, space - 1)
    local id = string.sub(member, space + 1)
    if redis.call('HDEL', ARGV[2] .. app, 't:' .. id, 'd:' .. id) > 0 then lost = lost + 1 end
  end
end
return lost`;

/** `<deadline> <handed at> <guild or -> <json>` */
function detailOf(entry: PendingInteraction): string {
  return `${entry.deadline} ${entry.handedAt} ${entry.guildId ?? '-'} ${JSON.stringify(entry.data)}`;
}

function readDetail(id: string, sessionId: string, detail: string): PendingInteraction | null {
  const [deadline, handedAt, guild] = detail.split(' ', 3);
  if (guild === undefined) return null;
  const json = detail.slice(deadline!.length + handedAt!.length + guild.length + 3);
  try {
    const data = JSON.parse(json) as Record<string, unknown>;
    const guildId = guild === '-' ? null : guild;
    return { id, sessionId, guildId, deadline: Number(deadline), handedAt: Number(handedAt), data };
  } catch {
    return null;
  }
}

export class RedisPendingInteractions implements PendingInteractions {
  constructor(
    private readonly redis: Redis,
    private readonly keys: SessionKeys,
  ) {}

  async keep(applicationId: string, entry: PendingInteraction): Promise<void> {
    const key = this.keys.pending(applicationId);
    await this.redis
      .multi()
      .hset(key, `t:${entry.id}`, entry.sessionId, `d:${entry.id}`, detailOf(entry))
      .pexpire(key, Math.max(0, entry.deadline - Date.now()) + KEY_MARGIN_MS)
      .zadd(this.keys.pendingDeadlines(), entry.deadline, `${applicationId} ${entry.id}`)
      .exec();
  }

  async of(applicationId: string): Promise<PendingInteraction[]> {
    const fields = await this.redis.hgetall(this.keys.pending(applicationId));
    const entries: PendingInteraction[] = [];
    for (const [field, sessionId] of Object.entries(fields)) {
      if (!field.startsWith('t:')) continue;
      const id = field.slice(2);
      const detail = fields[`d:${id}`];
      const entry = detail === undefined ? null : readDetail(id, sessionId, detail);
      if (entry) entries.push(entry);
    }
    return entries;
  }

  async move(applicationId: string, id: string, from: string, to: string): Promise<boolean> {
    return (await this.redis.eval(MOVE, 1, this.keys.pending(applicationId), id, from, to)) === 1;
  }

  async forget(applicationId: string, id: string): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.keys.pending(applicationId), `t:${id}`, `d:${id}`)
      .zrem(this.keys.pendingDeadlines(), `${applicationId} ${id}`)
      .exec();
  }

  async waiting(now: number): Promise<string[]> {
    const members = await this.redis.zrangebyscore(this.keys.pendingDeadlines(), now, '+inf', 'LIMIT', 0, WATCH_BATCH);
    return [...new Set(members.map((member) => member.slice(0, member.indexOf(' '))))];
  }

  async expire(now: number): Promise<number> {
    const lost = await this.redis.eval(
      EXPIRE,
      1,
      this.keys.pendingDeadlines(),
      now,
      this.keys.pending(''),
      WATCH_BATCH,
    );
    return Number(lost);
  }
}
