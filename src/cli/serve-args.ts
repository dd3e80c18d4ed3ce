/** `slashd serve`'s options: from flags, then environment variables, then defaults. */
import type { TrustProxy } from '../http/server.js';
import { ENDPOINT_POLICY_MODES, type EndpointPolicyMode, type OutboundPolicy } from '../core/outbound-policy.js';
import { isPresetName, PRESET_NAMES, type PresetName, type WindowLimit } from '../core/rate-limits/presets.js';
import { parseAllowedHosts, parseAuthThrottle } from './security-args.js';
import { parseCommandLine, UsageError } from './usage.js';
import { parseTrustProxy } from './trust-proxy-arg.js';
import {
  DATABASE_OPTIONS,
  parseDatabaseArgs,
  parseRedisArgs,
  REDIS_OPTIONS,
  type DatabaseArgs,
  type RedisArgs,
} from './database-args.js';
import { isPostgresUrl } from '../store/postgres/url.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3210;
export { DEFAULT_DB } from './database-args.js';
/** Warnings and errors only: a quiet terminal unless something is wrong. */
export const DEFAULT_LOG_LEVEL = 'warn';
/** The levels `--log-level` takes (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** Limits reported in headers but generous: a bot sees v10's headers without being slowed (docs/rate-limits.md). */
export const DEFAULT_RATE_LIMITS: PresetName = 'sandbox';

export interface ServeArgs extends DatabaseArgs, RedisArgs {
  host: string;
  port: number;
  worldPath: string | undefined;
  demo: boolean;
  /** With `demo`: merge the demo world again, undoing what was changed of it since (else it is merged once). */
  resetDemo: boolean;
  /** Given by a flag or the environment; otherwise the database's stored token is used. */
  adminToken: string | undefined;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  /** `--log-format json` given: serve's own lines (the banner too) are JSON lines as well. */
  jsonOutput: boolean;
  /** Whole-request timeout in ms; the default when undefined. */
  requestTimeoutMs: number | undefined;
  /** How long a stop drains before it cuts the connections left, in ms; the default when undefined. */
  drainTimeoutMs: number | undefined;
  endpointPolicy: OutboundPolicy;
  /** The gateway URL announced to bots (behind a proxy: its wss:// address); default from --public-url or the bound address. */
  gatewayUrl: string | undefined;
  /** A scrape-only secret for GET /metrics (the admin token works too). */
  metricsToken: string | undefined;
  /** The read caches' byte budget; the default when undefined. */
  cacheBytes: number | undefined;
  /** The rate-limit preset: sandbox, v10 or off. */
  rateLimits: PresetName;
  /** Most command creates per scope and UTC day (v10's 200 when undefined); null: no limit. */
  dailyCommandCreates: number | null | undefined;
  /** The proxies whose X-Forwarded-For is believed; none when undefined. */
  trustProxy: TrustProxy | undefined;
  /** Snapshot the state once started, for `POST /admin/reset`; undefined: only for ':memory:'. */
  snapshotAtStart: boolean | undefined;
  /** The server's public URL (the OpenID Connect issuer); the listen address when undefined. */
  publicUrl: string | undefined;
  /** Host names answered besides addresses, localhost and the public and gateway URLs' hosts. */
  allowedHosts: string[] | undefined;
  /** Failed credentials per address and window before the address is refused; null: off. */
  authThrottle: WindowLimit | null;
}

/** `--public-url`: an absolute http(s) URL without query or fragment (the issuer of ID tokens). */
function publicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid public URL: ${raw}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new UsageError(`invalid public URL: ${raw}`);
  }
  return raw.replace(/\/+$/, '');
}

/** The largest `--cache-mb`: 1 TiB, far above any machine's memory, so a typo is caught. */
const MAX_CACHE_MB = 1024 * 1024;

function cacheBytes(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const mb = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(mb) || mb < 0 || mb > MAX_CACHE_MB) {
    throw new UsageError(`--cache-mb is a number of megabytes (0 to ${MAX_CACHE_MB}), not '${raw}'`);
  }
  return Math.floor(mb * 1024 * 1024);
}

/** `--daily-command-creates`: a positive whole number, or `off` for no daily limit. */
function dailyCommandCreates(raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'off') return null;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(limit) || limit < 1) {
    throw new UsageError(`--daily-command-creates is a number of creates (1 or more) or off, not '${raw}'`);
  }
  return limit;
}

function logFormat(raw: string | undefined, isTerminal: boolean): 'json' | 'pretty' {
  if (raw === undefined) return isTerminal ? 'pretty' : 'json';
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new UsageError(`--log-format is pretty or json, not '${raw}'`);
}

export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv): ServeArgs {
  const { values, positionals } = parseCommandLine(args, {
    host: { type: 'string' },
    port: { type: 'string' },
    ...DATABASE_OPTIONS,
    ...REDIS_OPTIONS,
    world: { type: 'string' },
    demo: { type: 'boolean' },
    'reset-demo': { type: 'boolean' },
    'admin-token': { type: 'string' },
    'log-level': { type: 'string' },
    'log-format': { type: 'string' },
    'request-timeout': { type: 'string' },
    'drain-timeout': { type: 'string' },
    'endpoint-policy': { type: 'string' },
    'allow-private-endpoints': { type: 'boolean' },
    'gateway-url': { type: 'string' },
    'metrics-token': { type: 'string' },
    'cache-mb': { type: 'string' },
    'rate-limits': { type: 'string' },
    'daily-command-creates': { type: 'string' },
    'trust-proxy': { type: 'string' },
    'snapshot-at-start': { type: 'boolean' },
    'public-url': { type: 'string' },
    'allowed-hosts': { type: 'string' },
    'auth-throttle': { type: 'string' },
  });
  const text = (name: string) => values[name] as string | undefined;
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const port = Number(text('port') ?? env.SLASHD_PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`invalid port: ${String(text('port') ?? env.SLASHD_PORT)}`);
  const logLevel = text('log-level') ?? env.SLASHD_LOG_LEVEL ?? DEFAULT_LOG_LEVEL;
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new UsageError(`--log-level is one of ${LOG_LEVELS.join(', ')}, not '${logLevel}'`);
  const requestTimeout = text('request-timeout') ?? env.SLASHD_REQUEST_TIMEOUT_MS;
  const requestTimeoutMs = requestTimeout === undefined ? undefined : Number(requestTimeout);
  if (requestTimeoutMs !== undefined && (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs <= 0)) {
    throw new UsageError(`invalid request timeout (ms): ${requestTimeout}`);
  }
  const drainTimeout = text('drain-timeout') ?? env.SLASHD_DRAIN_TIMEOUT_MS;
  const drainTimeoutMs = drainTimeout === undefined ? undefined : Number(drainTimeout);
  if (drainTimeoutMs !== undefined && (!Number.isInteger(drainTimeoutMs) || drainTimeoutMs < 0)) {
    throw new UsageError(`invalid drain timeout (ms): ${drainTimeout}`);
  }
  const mode = text('endpoint-policy') ?? env.SLASHD_ENDPOINT_POLICY ?? 'default';
  if (!(ENDPOINT_POLICY_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--endpoint-policy is one of ${ENDPOINT_POLICY_MODES.join(', ')}, not '${mode}'`);
  }
  const gatewayUrl = text('gateway-url') ?? env.SLASHD_GATEWAY_URL;
  if (gatewayUrl !== undefined && !/^wss?:\/\/[^\s/]+/.test(gatewayUrl)) {
    throw new UsageError(`--gateway-url is a ws:// or wss:// URL, not '${gatewayUrl}'`);
  }
  const rateLimits = text('rate-limits') ?? env.SLASHD_RATE_LIMITS ?? DEFAULT_RATE_LIMITS;
  if (!isPresetName(rateLimits)) {
    throw new UsageError(`--rate-limits is one of ${PRESET_NAMES.join(', ')}, not '${rateLimits}'`);
  }
  const allowPrivate = values['allow-private-endpoints'] === true || env.SLASHD_ALLOW_PRIVATE_ENDPOINTS === '1';
  const database = parseDatabaseArgs(values, env);
  const adminToken = text('admin-token') ?? env.SLASHD_ADMIN_TOKEN;
  // Nodes on one PostgreSQL share no folder to keep a generated token in: the operator gives it.
  if (isPostgresUrl(database.db) && !adminToken) {
    throw new UsageError('with a PostgreSQL database, give the admin token: --admin-token or SLASHD_ADMIN_TOKEN');
  }
  return {
    ...database,
    ...parseRedisArgs(values, env),
    requestTimeoutMs,
    drainTimeoutMs,
    gatewayUrl,
    cacheBytes: cacheBytes(text('cache-mb') ?? env.SLASHD_CACHE_MB),
    rateLimits,
    dailyCommandCreates: dailyCommandCreates(text('daily-command-creates') ?? env.SLASHD_DAILY_COMMAND_CREATES),
    trustProxy: parseTrustProxy(text('trust-proxy') ?? env.SLASHD_TRUST_PROXY),
    publicUrl: publicUrl(text('public-url') ?? env.SLASHD_PUBLIC_URL),
    allowedHosts: parseAllowedHosts(text('allowed-hosts') ?? env.SLASHD_ALLOWED_HOSTS),
    authThrottle: parseAuthThrottle(text('auth-throttle') ?? env.SLASHD_AUTH_THROTTLE),
    endpointPolicy: { mode: mode as EndpointPolicyMode, allowPrivate },
    host: text('host') ?? env.SLASHD_HOST ?? DEFAULT_HOST,
    port,
    worldPath: text('world') ?? env.SLASHD_WORLD,
    demo: values.demo === true || env.SLASHD_DEMO === '1',
    resetDemo: values['reset-demo'] === true,
    adminToken,
    logLevel,
    logFormat: logFormat(text('log-format'), process.stdout.isTTY === true),
    jsonOutput: text('log-format') === 'json',
    metricsToken: text('metrics-token') ?? env.SLASHD_METRICS_TOKEN,
    snapshotAtStart: values['snapshot-at-start'] === true || env.SLASHD_SNAPSHOT_AT_START === '1' ? true : undefined,
  };
}
