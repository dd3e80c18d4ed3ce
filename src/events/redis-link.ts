/**
 * The Redis connections of one node: one for commands and publishing, one subscribed (a connection
 * in subscriber mode can run nothing else). Every key and channel of a deployment starts with its
 * prefix, so several deployments (or test runs) can share one Redis. Channels also name the
 * database index: pub/sub ignores it, so deployments on one prefix in two databases stay apart.
 */
import { Redis } from 'ioredis';

/** How long a connection attempt may take before it counts as failed (ms). */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** Longest pause between reconnection attempts after Redis went away (ms). */
export const REDIS_MAX_RETRY_DELAY_MS = 2_000;
/** Reconnections a queued command waits through before it fails (ioredis's per-request retries). */
export const REDIS_RETRIES_PER_REQUEST = 3;

function client(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: REDIS_RETRIES_PER_REQUEST,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_MAX_RETRY_DELAY_MS),
  });
  // Connection errors are retried by ioredis; the commands that fail reach their callers, and
  // /metrics shows the link's state (`slashd_redis_up`) and the writes lost.
  redis.on('error', () => {});
  return redis;
}

/** Redis could not be reached at start-up: one line for the operator, without the password. */
export class RedisUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(`cannot reach Redis at ${redactRedisUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'RedisUnreachableError';
  }
}

export class RedisLink {
  private closed: Promise<void> | null = null;

  private constructor(
    readonly commands: Redis,
    readonly subscriber: Redis,
    readonly prefix: string,
  ) {}

  /** Opens both connections; rejects (and closes them) if Redis cannot be reached. */
  static async connect(url: string, prefix: string): Promise<RedisLink> {
    const link = new RedisLink(client(url), client(url), prefix);
    try {
      await Promise.all([link.commands.connect(), link.subscriber.connect()]);
    } catch (error) {
      await link.close();
      throw new RedisUnreachableError(url, error);
    }
    return link;
  }

  /** A key name of this deployment (keys live in the URL's database). */
  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  /** A pub/sub channel name of this deployment: Redis shares channels across databases, so it names the index. */
  channel(...parts: string[]): string {
    return this.key(`db${this.commands.options.db ?? 0}`, ...parts);
  }

  /** Whether the command connection is ready (false while ioredis reconnects). */
  isUp(): boolean {
    return this.commands.status === 'ready';
  }

  async close(): Promise<void> {
    this.closed ??= (async () => {
      for (const redis of [this.commands, this.subscriber]) {
        if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
        else redis.disconnect();
      }
    })();
    await this.closed;
  }
}

/** The URL without its password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://(unparsable URL)';
  }
}
