/**
 * The Redis connections of one node: one for commands and publishing, one subscribed (a connection
 * in subscriber mode can run nothing else). Every key and channel of a deployment starts with its
 * prefix, so several deployments (or test runs) can share one Redis. Channels also name the
 * database index: pub/sub ignores it, so deployments on one prefix in two databases stay apart.
 *
 * Every call is bounded: a command unanswered within its timeout fails, nothing is queued while
 * Redis is away (a command then fails at once), and a connection that hears nothing after a
 * command is dropped and made again, so a Redis or network that stalls without closing is noticed
 * like one that closes. Both connections are pinged every second; the link is up while both are
 * ready and answering, and the subscribed one has its channels back after a reconnection; each
 * change of that is reported once (`observe`: a log line, metrics), and `onUp` listeners run when
 * it comes back (the gateway writes again what a Redis that restarted empty lost).
 */
import { Redis } from 'ioredis';
import {
  DependencyState,
  DependencyUnavailableError,
  NO_DEPENDENCY_OBSERVER,
  type CallOutcome,
  type DependencyObserver,
} from '../core/dependencies.js';
import type { GatewayPresence } from '../core/gateway/presence.js';

/** How long a connection attempt may take before it counts as failed (ms). */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** Longest pause between reconnection attempts after Redis went away (ms). */
export const REDIS_MAX_RETRY_DELAY_MS = 2_000;
/** A command unanswered this long fails (ms); Redis answers in well under a millisecond. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;
/** A connection that received nothing this long after sending a command is dropped and made again (ms). */
export const REDIS_SOCKET_TIMEOUT_MS = 5_000;
/** How often each connection is pinged, so that a stall is noticed without traffic (ms). */
export const REDIS_HEALTH_CHECK_MS = 1_000;

/** The bounds of a node's Redis connections; each defaults to its constant above. */
export interface RedisTimeouts {
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  socketTimeoutMs: number;
  healthCheckMs: number;
}

export const DEFAULT_REDIS_TIMEOUTS: RedisTimeouts = {
  connectTimeoutMs: REDIS_CONNECT_TIMEOUT_MS,
  commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS,
  socketTimeoutMs: REDIS_SOCKET_TIMEOUT_MS,
  healthCheckMs: REDIS_HEALTH_CHECK_MS,
};

/** ioredis's messages for a command that could not be sent or lost its connection. */
const UNAVAILABLE_MESSAGES = [
  "Stream isn't writeable",
  'Connection is closed',
  'Socket timeout',
  'Reached the max retries per request limit',
];

/** How a failed Redis call ended. */
export function redisOutcome(error: unknown): CallOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('Command timed out')) return 'timeout';
  if (UNAVAILABLE_MESSAGES.some((text) => message.startsWith(text))) return 'unavailable';
  return 'error';
}

function client(url: string, timeouts: RedisTimeouts): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeouts.connectTimeoutMs,
    commandTimeout: timeouts.commandTimeoutMs,
    socketTimeout: timeouts.socketTimeoutMs,
    // Nothing waits for Redis to come back: a command fails at once while it is away, and its
    // caller answers 503 or goes on without (rate limits, presence on this node).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A command in flight when the connection dropped fails; sent again later, a publish would
    // deliver stale work.
    autoResendUnfulfilledCommands: false,
    // The bus subscribes again itself, and handles a failure (`redis-bus.ts`).
    autoResubscribe: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_MAX_RETRY_DELAY_MS),
  });
  // Connection errors are retried by ioredis; the link reports each change of state once.
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

/**
 * One connection's health: ready (ioredis's status), answering (its last command did not time
 * out), and for the subscribed one, whether it has subscribed again since it reconnected.
 */
interface Health {
  answering: boolean;
  pinging: boolean;
  /** It has had subscriptions: after a reconnection, it is up once a SUBSCRIBE succeeded again. */
  subscribes: boolean;
  resubscribed: boolean;
}

export class RedisLink {
  private closed: Promise<void> | null = null;
  private observer: DependencyObserver = NO_DEPENDENCY_OBSERVER;
  /** Up while both connections are ready and answering; each change reported once. */
  private readonly state = new DependencyState(() => this.observer);
  private readonly health = new Map<Redis, Health>();
  private readonly pinger: NodeJS.Timeout;
  private readonly upListeners: (() => void)[] = [];

  private constructor(
    readonly commands: Redis,
    readonly subscriber: Redis,
    readonly prefix: string,
    timeouts: RedisTimeouts,
  ) {
    for (const redis of [commands, subscriber]) {
      const health: Health = { answering: true, pinging: false, subscribes: false, resubscribed: true };
      this.health.set(redis, health);
      observeCommands(redis, (command, outcome, seconds, detail) => {
        if (command === 'subscribe' && outcome === 'ok') health.subscribes = health.resubscribed = true;
        this.settled(redis, outcome, seconds, detail);
      });
      // Subscriptions are lost with the connection: from its close until a SUBSCRIBE succeeds again.
      // (Reset at 'ready' instead, a check between ioredis's status turning 'ready' and the event
      // saw the old flag: the link went up, down "reconnected", and up again: issue 39.)
      redis.on('ready', () => this.check('reconnected'));
      redis.on('close', () => {
        if (health.subscribes) health.resubscribed = false;
        this.check('connection closed');
      });
    }
    this.pinger = setInterval(() => this.pingIdle(), timeouts.healthCheckMs);
    this.pinger.unref();
  }

  /** Opens both connections; rejects (and closes them) if Redis cannot be reached. */
  static async connect(url: string, prefix: string, timeouts: Partial<RedisTimeouts> = {}): Promise<RedisLink> {
    const bounds = { ...DEFAULT_REDIS_TIMEOUTS, ...timeouts };
    const link = new RedisLink(client(url, bounds), client(url, bounds), prefix, bounds);
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

  /** Where calls and changes of the link's state are reported (metrics, logs). */
  observe(observer: DependencyObserver): void {
    this.observer = observer;
  }

  /** Whether both connections are ready and answering (false while ioredis reconnects, or Redis stalls). */
  isUp(): boolean {
    return this.healthy();
  }

  /** Runs `listener` each time the link comes back up after being down. */
  onUp(listener: () => void): void {
    this.upListeners.push(listener);
  }

  /** Asks Redis on the command connection; rejects within the command timeout (for /readyz). */
  async ping(): Promise<void> {
    await this.commands.ping();
  }

  private settled(redis: Redis, outcome: CallOutcome, seconds: number, detail: string): void {
    this.observer.call(outcome, seconds);
    const health = this.health.get(redis)!;
    // An answer, even an error, means the connection is alive; no answer in time, or a connection
    // that can no longer be written (before ioredis has seen it close), means it is not.
    health.answering = outcome === 'ok' || outcome === 'error';
    this.check(detail);
  }

  /** Works out the link's state after an event; `detail` says what happened. */
  private check(detail: string): void {
    if (this.closed) return;
    const up = this.healthy();
    if (this.state.set(up, up ? 'answering' : detail) && up) for (const listener of this.upListeners) listener();
  }

  /** Both connections ready (their status now, which changes before its event), answering and subscribed again. */
  private healthy(): boolean {
    let up = true;
    for (const [redis, health] of this.health) {
      // A connection made again starts answering; a command timing out on it says otherwise.
      if (redis.status !== 'ready') health.answering = true;
      up &&= redis.status === 'ready' && health.answering && health.resubscribed;
    }
    return up;
  }

  /** A ping on each idle connection; one at a time per connection, so a stall does not pile them up. */
  private pingIdle(): void {
    for (const [redis, health] of this.health) {
      if (redis.status !== 'ready' || health.pinging) continue;
      health.pinging = true;
      redis
        .ping()
        .catch(() => undefined)
        .finally(() => {
          health.pinging = false;
        });
    }
  }

  async close(): Promise<void> {
    this.closed ??= (async () => {
      clearInterval(this.pinger);
      for (const redis of [this.commands, this.subscriber]) {
        if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
        else redis.disconnect();
      }
    })();
    await this.closed;
  }
}

/** Reports every command sent on `redis` (pipelines and scripts included) once it is answered or fails. */
function observeCommands(
  redis: Redis,
  settled: (command: string, outcome: CallOutcome, seconds: number, detail: string) => void,
): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (...args: Parameters<Redis['sendCommand']>) => {
    const [command] = args;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const result = send(...args);
    command.promise.then(
      () => settled(command.name, 'ok', seconds(), ''),
      (error: unknown) =>
        settled(command.name, redisOutcome(error), seconds(), error instanceof Error ? error.message : String(error)),
    );
    return result;
  };
}

/**
 * `presence` while Redis is away: which node holds an app's session is only known there, so an
 * interaction for a gateway app fails at once with a 503 instead of being sent where no session
 * may be.
 */
export function presenceNeedingRedis(presence: GatewayPresence, link: RedisLink): GatewayPresence {
  return {
    async sessionFor(applicationId, guildId) {
      if (!link.isUp()) throw new DependencyUnavailableError('redis', 'the gateway sessions are not reachable');
      return presence.sessionFor(applicationId, guildId);
    },
    handOver(applicationId, sessionId, interaction) {
      return presence.handOver(applicationId, sessionId, interaction);
    },
    reachable: () => link.isUp() && presence.reachable(),
  };
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
