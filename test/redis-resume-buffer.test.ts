/**
 * The Redis resume buffer on the real Redis: bounded like the in-memory one, by events and by
 * characters of JSON, so that RESUME refuses (null) a sequence older than what is kept.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { RedisLink } from '../src/events/redis-link.js';
import { RedisResumeBuffer } from '../src/gateway/redis-resume-buffer.js';
import { InMemoryResumeBuffer, type BufferedDispatch, type ResumeBuffer } from '../src/gateway/resume-buffer.js';
import { SessionKeys } from '../src/gateway/session-registry.js';
import { connectLink, deletePrefix, freshRedisPrefix } from './helpers/redis.js';

const NODE = 'node-a';
const links: RedisLink[] = [];
const prefixes: string[] = [];

after(async () => {
  for (const l of links) await l.close();
  for (const prefix of prefixes) await deletePrefix(prefix);
});

/** A Redis buffer whose session is held by this node (as the registry would have written it). */
async function redisBuffer(capacity: number, maxChars: number): Promise<RedisResumeBuffer> {
  const prefix = freshRedisPrefix('resume');
  prefixes.push(prefix);
  const link = await connectLink(prefix);
  links.push(link);
  const keys = new SessionKeys(prefix);
  await link.commands.hset(keys.session('s1'), { node: NODE, seq: 0 });
  await link.commands.pexpire(keys.session('s1'), 60_000);
  return new RedisResumeBuffer(link.commands, keys, NODE, capacity, maxChars);
}

/** A dispatch whose JSON is `size` characters long (`é` and an astral character are one and two). */
function dispatch(s: number, size: number): BufferedDispatch {
  const filler = 'é😀'.repeat(Math.floor(size / 3)) + 'x'.repeat(size % 3);
  return { s, t: 'MESSAGE_CREATE', json: filler };
}

/** Appends the same dispatches to both buffers and asks both where each resume would start. */
async function sameAnswers(a: ResumeBuffer, b: ResumeBuffer, sizes: readonly number[]): Promise<void> {
  sizes.forEach((size, i) => {
    a.append('s1', dispatch(i + 1, size));
    b.append('s1', dispatch(i + 1, size));
  });
  for (let seq = 0; seq <= sizes.length; seq++) {
    const [fromA, fromB] = [await a.since('s1', seq), await b.since('s1', seq)];
    assert.deepEqual(fromA?.map((d) => d.s) ?? null, fromB?.map((d) => d.s) ?? null, `resume from seq ${seq}`);
  }
}

describe('RedisResumeBuffer', () => {
  test('keeps at most maxChars of JSON (the newest always): an older seq is refused', async () => {
    const buffer = await redisBuffer(1000, 100);
    for (let s = 1; s <= 5; s++) buffer.append('s1', dispatch(s, 40));
    // 5 × 40 characters: only the last two (80) fit in 100.
    assert.equal(await buffer.since('s1', 2), null, 'seq 2 is older than what is kept');
    assert.deepEqual(
      (await buffer.since('s1', 3))?.map((d) => d.s),
      [4, 5],
    );
    // One dispatch larger than the cap is still kept (alone).
    buffer.append('s1', dispatch(6, 300));
    assert.equal(await buffer.since('s1', 4), null);
    assert.deepEqual(
      (await buffer.since('s1', 5))?.map((d) => d.json.length),
      [300],
    );
    assert.equal(buffer.failedAppends, 0);
  });

  test('answers every resume as the in-memory buffer does (events and characters)', async () => {
    const sizes = [10, 50, 7, 90, 3, 3, 3, 60, 1, 120, 30, 30, 30, 2, 44];
    await sameAnswers(await redisBuffer(1000, 100), new InMemoryResumeBuffer(1000, 100), sizes);
    await sameAnswers(await redisBuffer(4, 10_000), new InMemoryResumeBuffer(4, 10_000), sizes);
  });

  test("a dispatch Redis never kept (a hole in the numbers) refuses a resume across it, and keeps the log's position", async () => {
    const buffer = await redisBuffer(1000, 10_000);
    buffer.append('s1', dispatch(1, 5), undefined, '100-0');
    buffer.append('s1', dispatch(2, 5), undefined, '101-0');
    // 3 was refused (Redis away): what the node numbered next is kept, after the hole.
    buffer.append('s1', dispatch(4, 5), undefined, '');
    assert.equal(await buffer.since('s1', 1), null, 'a resume from 1 would miss 3');
    assert.equal(await buffer.since('s1', 2), null, 'a resume from 2 too');
    assert.deepEqual(await buffer.since('s1', 4), []);
    const keys = new SessionKeys(prefixes.at(-1)!);
    const redis = links.at(-1)!.commands;
    assert.equal(await redis.hget(keys.session('s1'), 'pos'), '101-0', 'the last position given is kept');
  });
});
