/**
 * The Redis the tests run against (REDIS_URL; default redis://127.0.0.1:6379), and a fresh key
 * prefix per use so parallel runs never see each other's keys or channels.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisLink } from '../../src/events/redis-link.js';

export const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** The test Redis's URL with another database index. */
export function redisUrlWithDb(db: number): string {
  const url = new URL(redisUrl);
  url.pathname = `/${db}`;
  return url.toString();
}

/** A key prefix no other run uses. */
export function freshRedisPrefix(name: string): string {
  return `slashd-test:${name}:${randomBytes(6).toString('hex')}:`;
}

/** Both connections of a node; a test fails loudly (never skips) when Redis is not there. */
export async function connectLink(prefix: string, url = redisUrl): Promise<RedisLink> {
  try {
    return await RedisLink.connect(url, prefix);
  } catch (error) {
    throw new Error(`Redis is not reachable at ${redisUrl} (set REDIS_URL); these tests need it: ${String(error)}`, {
      cause: error,
    });
  }
}

/** Deletes every key under the prefix. */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
