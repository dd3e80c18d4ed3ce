/**
 * The database and Redis options `slashd serve` and `slashd migrate` share: flags first, then
 * environment variables, then defaults.
 */
import { DEFAULT_DB_SCHEMA, DEFAULT_REDIS_PREFIX } from '../app.js';
import { UsageError } from './usage.js';

export const DEFAULT_DB = './data/slashd.sqlite';

export const DATABASE_OPTIONS = {
  db: { type: 'string' },
  'db-schema': { type: 'string' },
  'db-pool-max': { type: 'string' },
  'db-statement-timeout': { type: 'string' },
} as const;

export const REDIS_OPTIONS = {
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
} as const;

export interface DatabaseArgs {
  /** A SQLite path, ':memory:', or a postgres:// URL. */
  db: string;
  dbSchema: string;
  dbPoolMax: number | undefined;
  dbStatementTimeoutMs: number | undefined;
}

export interface RedisArgs {
  redisUrl: string | undefined;
  redisPrefix: string;
}

type Values = Record<string, string | boolean | undefined>;

function positiveInteger(raw: string | undefined, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`invalid ${what}: ${raw}`);
  return value;
}

export function parseDatabaseArgs(values: Values, env: NodeJS.ProcessEnv): DatabaseArgs {
  const text = (name: string) => values[name] as string | undefined;
  const db = text('db') ?? env.SLASHD_DB ?? DEFAULT_DB;
  const dbSchema = text('db-schema') ?? env.SLASHD_DB_SCHEMA ?? DEFAULT_DB_SCHEMA;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(dbSchema)) {
    throw new UsageError(`--db-schema is a lower-case identifier (a-z, 0-9, _), not '${dbSchema}'`);
  }
  return {
    db,
    dbSchema,
    dbPoolMax: positiveInteger(text('db-pool-max') ?? env.SLASHD_DB_POOL_MAX, 'database pool size'),
    dbStatementTimeoutMs: positiveInteger(
      text('db-statement-timeout') ?? env.SLASHD_DB_STATEMENT_TIMEOUT_MS,
      'statement timeout (ms)',
    ),
  };
}

export function parseRedisArgs(values: Values, env: NodeJS.ProcessEnv): RedisArgs {
  const text = (name: string) => values[name] as string | undefined;
  const redisUrl = text('redis') ?? env.SLASHD_REDIS_URL;
  if (redisUrl !== undefined && !/^rediss?:\/\/\S+$/.test(redisUrl)) {
    throw new UsageError(`--redis is a redis:// or rediss:// URL, not '${redisUrl}'`);
  }
  const redisPrefix = text('redis-prefix') ?? env.SLASHD_REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX;
  if (!/^[\w:.-]{1,64}$/.test(redisPrefix)) {
    throw new UsageError(`--redis-prefix is up to 64 letters, digits, '_', ':', '.' or '-', not '${redisPrefix}'`);
  }
  return { redisUrl, redisPrefix };
}
