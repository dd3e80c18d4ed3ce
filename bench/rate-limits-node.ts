/**
 * slashd as a child process for the rate-limit benchmark: started like `slashd serve` (a world
 * file, a fresh SQLite file or a PostgreSQL database and schema) with rate limits off, counted in memory, or counted in Redis under a
 * given key prefix. The limits are v10's buckets with limits no benchmark reaches, so every
 * request pays for the check and none is refused. It answers the line "cpu" on its stdin with
 * "cpu <µs>", the process's CPU time so far (user + system).
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createSlashd } from '../src/app.js';
import { DEFAULT_LOG_LEVEL } from '../src/cli/serve-args.js';
import { V10_PRESET, type RateLimitPreset } from '../src/core/rate-limits/presets.js';
import { parseWorld } from '../src/core/world/parse.js';
import type { RateLimitConfig } from '../src/rate-limits/config.js';

const UNREACHED = 1_000_000_000;

/** v10's buckets and windows; limits a benchmark never reaches. */
export const BENCH_PRESET: RateLimitPreset = {
  name: 'bench',
  global: { limit: UNREACHED, windowMs: V10_PRESET.global.windowMs },
  groups: Object.fromEntries(
    Object.entries(V10_PRESET.groups).map(([group, { windowMs }]) => [group, { limit: UNREACHED, windowMs }]),
  ) as RateLimitPreset['groups'],
};

const USAGE = 'usage: rate-limits-node <world.json> <db> <db-schema|-> off|memory|redis|redis-exact [redis-url prefix]';

function rateLimits(
  mode: string | undefined,
  redisUrl: string | undefined,
  prefix: string | undefined,
): RateLimitConfig {
  if (mode === 'off') return { preset: 'off' };
  if (mode === 'memory') return { preset: BENCH_PRESET };
  if (mode === 'redis' && redisUrl && prefix) return { preset: BENCH_PRESET, redis: redisUrl, redisPrefix: prefix };
  // Every request counted in Redis, as at v10's small limits (no leases).
  if (mode === 'redis-exact' && redisUrl && prefix) {
    return { preset: BENCH_PRESET, redis: redisUrl, redisPrefix: prefix, leaseShare: 0 };
  }
  throw new Error(USAGE);
}

async function main(): Promise<void> {
  const [worldPath, dbPath, dbSchema, mode, redisUrl, prefix] = process.argv.slice(2);
  if (!worldPath || !dbPath || !dbSchema) throw new Error(USAGE);
  const parsed = parseWorld(JSON.parse(readFileSync(worldPath, 'utf8')));
  if (!parsed.ok) throw new Error(`world invalid: ${JSON.stringify(parsed.issues).slice(0, 500)}`);
  const slashd = await createSlashd({
    db: dbPath,
    dbSchema: dbSchema === '-' ? undefined : dbSchema,
    world: parsed.value,
    adminToken: 'bench',
    logLevel: DEFAULT_LOG_LEVEL,
    rateLimits: rateLimits(mode, redisUrl, prefix),
  });
  const url = await slashd.listen({ host: '127.0.0.1', port: 0 });
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    console.log(`cpu ${user + system}`);
  });
  console.log(`listening on ${url}`);
  process.on('SIGTERM', () => {
    void slashd.close().then(() => process.exit(0));
  });
}

if (process.argv[1]?.endsWith('rate-limits-node.js')) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
