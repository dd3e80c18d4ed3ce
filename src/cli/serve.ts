/** `slashd serve`: options from flags, then environment variables, then defaults. */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ChannelType } from 'discord-api-types/v10';
import { createSlashd, type Slashd } from '../app.js';
import type { TrustProxy } from '../http/server.js';
import { ENDPOINT_POLICY_MODES, type EndpointPolicyMode, type OutboundPolicy } from '../core/outbound-policy.js';
import { isPresetName, PRESET_NAMES, type PresetName, type WindowLimit } from '../core/rate-limits/presets.js';
import { parseAllowedHosts, parseAuthThrottle } from './security-args.js';
import { DatabaseOpenError } from '../store/sqlite/connection.js';
import { DEMO_WORLD } from '../world/demo-world.js';
import { loadWorldFile, readWorld } from '../world/world-file.js';
import { adminTokenPath, loadOrCreateAdminToken } from './admin-token.js';
import { DEFAULT_URL } from './client.js';
import { EXIT_FAILED, EXIT_OK, parseCommandLine, reportUsageError, UsageError, type Output } from './usage.js';
import { deliveryRoutes } from '../services/delivery-routes.js';
import { applicationLines, worldLines } from './world-text.js';
import { listenFailureMessage } from './listen-failure.js';
import { parseTrustProxy } from './trust-proxy-arg.js';
import {
  DATABASE_OPTIONS,
  DEFAULT_DB,
  parseDatabaseArgs,
  parseRedisArgs,
  REDIS_OPTIONS,
  type DatabaseArgs,
  type RedisArgs,
} from './database-args.js';
import { isPostgresUrl, redactPostgresUrl } from '../store/postgres/url.js';
import { PostgresOpenError } from '../store/postgres/postgres-store.js';
import { redactRedisUrl, RedisUnreachableError } from '../events/redis-link.js';
import { SchemaTooNewError } from '../store/schema-version.js';
import { jsonLines } from './json-output.js';

export type { Output } from './usage.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3210;
export { DEFAULT_DB } from './database-args.js';
/** Warnings and errors only: a quiet terminal unless something is wrong. */
export const DEFAULT_LOG_LEVEL = 'warn';
/** The levels `--log-level` takes (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** Limits reported in headers but generous: a bot sees v10's headers without being slowed (docs/rate-limits.md). */
export const DEFAULT_RATE_LIMITS: PresetName = 'sandbox';

/** A failure to create the database's folder or open its file: reported as one line, exit code 1. */
export function isDatabaseSetupError(error: unknown, db: string): error is Error {
  if (error instanceof SchemaTooNewError) return true;
  if (isPostgresUrl(db)) return error instanceof PostgresOpenError;
  return (
    error instanceof DatabaseOpenError || (error instanceof Error && 'syscall' in error && error.syscall === 'mkdir')
  );
}

/** One line for an operator whose database cannot be used. */
export function databaseSetupMessage(error: Error, db: string): string {
  if (error instanceof SchemaTooNewError) return `slashd refuses to start: ${error.message}`;
  if (isPostgresUrl(db)) return `cannot use the PostgreSQL database at ${redactPostgresUrl(db)}: ${error.message}`;
  return error instanceof DatabaseOpenError
    ? error.message
    : `cannot open the SQLite database at ${db}: ${error.message}`;
}

interface ServeArgs extends DatabaseArgs, RedisArgs {
  host: string;
  port: number;
  worldPath: string | undefined;
  demo: boolean;
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
    adminToken,
    logLevel,
    logFormat: logFormat(text('log-format'), process.stdout.isTTY === true),
    jsonOutput: text('log-format') === 'json',
    metricsToken: text('metrics-token') ?? env.SLASHD_METRICS_TOKEN,
    snapshotAtStart: values['snapshot-at-start'] === true || env.SLASHD_SNAPSHOT_AT_START === '1' ? true : undefined,
  };
}

/** Shell quoting for a printed command line: single quotes unless the word is plain. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Whether `slashd invoke` finds this server's admin token without being told (the default database). */
function tokenFoundByDefault(args: ServeArgs): boolean {
  const path = adminTokenPath(args.db);
  const defaultPath = adminTokenPath(DEFAULT_DB);
  return (
    args.adminToken === undefined && path !== null && defaultPath !== null && resolve(path) === resolve(defaultPath)
  );
}

/**
 * The next step after `npm start`: the example app, then a `slashd invoke` line that works against
 * the demo world as printed (the URL and admin token are only spelled out when not the defaults).
 */
export function nextStepLines(url: string, adminToken: string, args: ServeArgs): string[] {
  const guild = DEMO_WORLD.guilds[0];
  const user = DEMO_WORLD.users.find((u) => u.id === guild.owner_id)!;
  const channel = guild.channels.find((c) => c.type === (ChannelType.GuildText as number))!;
  const urlWords = url === DEFAULT_URL ? [] : ['--url', url];
  const tokenWords = tokenFoundByDefault(args) ? [] : ['--admin-token', adminToken];
  const app = ['node', 'examples/hello-app.js', ...urlWords];
  const invoke = [
    'node',
    'bin/slashd.js',
    'invoke',
    '--as',
    user.username,
    '--channel',
    channel.name,
    ...urlWords,
    ...tokenWords,
    '/hello name:world',
  ];
  const bot = DEMO_WORLD.applications[0];
  return [
    'next steps:',
    '  1. in another terminal, start the example app: it registers /hello for "Demo Bot" and answers it',
    `     $ ${app.map(shellWord).join(' ')}`,
    `  2. invoke /hello as ${user.username} in #${channel.name}, and read the app's answer:`,
    `     $ ${invoke.map(shellWord).join(' ')}`,
    '  3. stop the example with Ctrl-C (it clears the interactions endpoint it set), then log in your own bot',
    '     with the bot token above: it gets the interactions over the gateway (README: "Your own bot on the gateway")',
    "  your own HTTP-interactions app: give it the application's verify_key (GET /api/v10/applications/@me), then",
    `  PATCH ${url}/api/v10/applications/@me {"interactions_endpoint_url": "<your URL>"} with "Authorization: Bot ${bot.bot_token}";`,
    '  acting as a user with curl or slashd invoke: docs/invoking.md',
  ];
}

async function printBanner(slashd: Slashd, url: string, args: ServeArgs, out: Output): Promise<void> {
  out.log(`slashd listening on ${url}`);
  out.log(`  API base:    ${url}/api/v10`);
  out.log(`  health:      ${url}/healthz, ${url}/readyz`);
  out.log(`  metrics:     ${url}/metrics (Authorization: Bearer <metrics or admin token>)`);
  out.log(`  gateway:     ${slashd.gateway.url(undefined)}`);
  out.log(
    `  console:     ${url}/console${args.demo ? ' (sandbox sign-in: pick a user of the demo world)' : ' (sign in with a user token)'}`,
  );
  if (isPostgresUrl(args.db)) {
    out.log(`  database:    PostgreSQL ${redactPostgresUrl(args.db)}, schema ${args.dbSchema}`);
  }
  if (args.redisUrl !== undefined) {
    out.log(`  redis:       ${redactRedisUrl(args.redisUrl)}, prefix ${args.redisPrefix} (shared with other nodes)`);
  }
  if (args.adminToken === undefined) {
    const kept = adminTokenPath(args.db);
    out.log(
      `  admin token: ${slashd.adminToken}${kept ? ` (kept in ${kept})` : ' (in-memory database: a new one each start)'}`,
    );
  }
  // Per app, where its interactions go: a bot that gets none is most often an endpoint left set.
  const world = await slashd.store.world.exportWorld();
  const routes = await deliveryRoutes(world.applications, slashd.gateway);
  if (!args.demo) {
    out.log('applications:');
    // Not the demo: bot tokens are secrets and stay out of the output (`slashd world` shows them to the admin).
    for (const line of applicationLines(world.applications, routes, { tokens: false })) out.log(line);
    out.log('  `slashd world` lists the users, guilds and channels of this world');
    return;
  }
  for (const line of worldLines(world, routes)) out.log(line);
  for (const line of nextStepLines(url, slashd.adminToken, args)) out.log(line);
}

/** Resolves once a signal (SIGTERM, SIGINT) has drained and closed the node; `cancel` stops listening for one. */
function untilStopped(slashd: Slashd, out: Output): { stopped: Promise<void>; cancel: () => void } {
  let cancel = () => {};
  const stopped = new Promise<void>((done) => {
    const stop = () => {
      cancel();
      out.log('slashd draining: finishing requests, gateway clients told to reconnect');
      slashd.close().then(done, done);
    };
    cancel = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  return { stopped, cancel };
}

async function serve(args: ServeArgs, plain: Output): Promise<number> {
  const out = args.jsonOutput ? jsonLines(plain) : plain;
  const demoWorld = args.demo ? readWorld(DEMO_WORLD, 'the demo world') : null;
  const world = args.worldPath ? loadWorldFile(args.worldPath) : null;
  let slashd: Slashd;
  try {
    const postgres = isPostgresUrl(args.db);
    if (!postgres && args.db !== ':memory:') mkdirSync(dirname(args.db), { recursive: true });
    slashd = await createSlashd({
      db: args.db,
      dbSchema: args.dbSchema,
      dbPoolMax: args.dbPoolMax,
      dbStatementTimeoutMs: args.dbStatementTimeoutMs,
      redisUrl: args.redisUrl,
      redisPrefix: args.redisPrefix,
      world,
      mergeWorld: demoWorld,
      adminToken: args.adminToken ?? loadOrCreateAdminToken(args.db),
      logLevel: args.logLevel,
      logFormat: args.logFormat,
      timeouts: args.requestTimeoutMs === undefined ? undefined : { requestTimeoutMs: args.requestTimeoutMs },
      drainTimeoutMs: args.drainTimeoutMs,
      endpointPolicy: args.endpointPolicy,
      gateway: args.gatewayUrl === undefined ? undefined : { publicUrl: args.gatewayUrl },
      metricsToken: args.metricsToken,
      cacheBytes: args.cacheBytes,
      rateLimits: { preset: args.rateLimits, failedCredentials: args.authThrottle },
      dailyCommandCreates: args.dailyCommandCreates,
      trustProxy: args.trustProxy,
      snapshotAtStart: args.snapshotAtStart,
      publicUrl: args.publicUrl,
      allowedHosts: args.allowedHosts,
      sandboxSignIn: args.demo,
    });
  } catch (error) {
    if (error instanceof RedisUnreachableError) {
      out.error(error.message);
      return 1;
    }
    // An operator's mistake (a bad --db) is a sentence naming the path, not a stack trace.
    if (!isDatabaseSetupError(error, args.db)) throw error;
    out.error(databaseSetupMessage(error, args.db));
    return 1;
  }
  // Listening for signals before anything is printed: a stop asked for right after the banner is graceful too.
  const { stopped, cancel } = untilStopped(slashd, out);
  let url: string;
  try {
    url = await slashd.listen({ host: args.host, port: args.port });
  } catch (error) {
    // Whatever is open (PostgreSQL's pool, Redis, the node lease) is closed: the process ends.
    cancel();
    await slashd.close();
    out.error(listenFailureMessage(args.host, args.port, error));
    return EXIT_FAILED;
  }
  await printBanner(slashd, url, args, out);
  await stopped;
  out.log('slashd stopped');
  return EXIT_OK;
}

export async function runServe(argv: string[], out: Output, env = process.env): Promise<number> {
  let args: ServeArgs;
  try {
    args = parseServeArgs(argv, env);
  } catch (error) {
    if (error instanceof UsageError) return reportUsageError('serve', error, out);
    throw error;
  }
  return serve(args, out);
}
