/** `slashd serve`: starts a node with the options read, prints the banner, and drains it on SIGTERM or SIGINT. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSlashd, type Slashd } from '../app.js';
import { SERVED_DEMO_WORLD } from '../world/demo-world.js';
import { readWorld, worldFileSource } from '../world/world-file.js';
import { slashdVersion } from './version.js';
import { loadOrCreateAdminToken } from './admin-token.js';
import { EXIT_FAILED, EXIT_OK, reportUsageError, UsageError, type Output } from './usage.js';
import { listenFailureMessage } from './listen-failure.js';
import { isPostgresUrl } from '../store/postgres/url.js';
import { migrationLines, type MigrationReport } from '../store/schema-version.js';
import { RedisUnreachableError } from '../events/redis-link.js';
import { jsonLines } from './json-output.js';
import { databaseSetupMessage, isDatabaseSetupError } from './database-setup-error.js';
import { parseServeArgs, type ServeArgs } from './serve-args.js';
import { printBanner } from './serve-banner.js';

export type { Output } from './usage.js';

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

/** Each migration the start applied, one line each (the same lines as `slashd migrate`); nothing when none was. */
function printMigrations(slashd: Slashd, args: ServeArgs, out: Output): void {
  // An in-memory database is new at every start: its whole list would say nothing.
  if (args.db === ':memory:') return;
  const report = (slashd.store as { migration?: MigrationReport }).migration;
  if (!report || (report.applied.length === 0 && (report.dated ?? []).length === 0)) return;
  const where = isPostgresUrl(args.db) ? `PostgreSQL schema ${args.dbSchema}` : `SQLite database ${args.db}`;
  for (const line of migrationLines(report)) out.log(`${where}: ${line}`);
}

async function serve(args: ServeArgs, plain: Output): Promise<number> {
  const out = args.jsonOutput ? jsonLines(plain) : plain;
  const demoWorld = args.demo ? readWorld(SERVED_DEMO_WORLD, 'the demo world') : null;
  const worldFile = args.worldPath ? worldFileSource(args.worldPath, slashdVersion()) : null;
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
      worldFile,
      // The demo is merged once; a restart keeps what was changed since, unless --reset-demo.
      ...(args.resetDemo ? { mergeWorld: demoWorld } : { seedWorld: demoWorld }),
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
  printMigrations(slashd, args, out);
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
