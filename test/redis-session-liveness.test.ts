/**
 * Liveness of gateway sessions and pending interactions in the real Redis (issue 26): a session
 * whose node stops heartbeating is no longer live and is kept for the resume window only; an
 * interaction handed to a session stops being pending in the same step as its dispatch is kept in
 * the session's buffer, moves to another session once (compare-and-set), and counts as lost once
 * when its deadline passes while still pending.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { RESUME_WINDOW_MS } from '../src/core/gateway/protocol.js';
import type { RedisLink } from '../src/events/redis-link.js';
import { RedisPendingInteractions, type PendingInteraction } from '../src/gateway/pending-interactions.js';
import { RedisResumeBuffer } from '../src/gateway/redis-resume-buffer.js';
import { NODE_DEAD_AFTER_MS, RedisSessionRegistry, type SessionRecord } from '../src/gateway/session-registry.js';
import { connectLink, deletePrefix, freshRedisPrefix } from './helpers/redis.js';

const APP = '1100000000000000001';
const links: RedisLink[] = [];
const prefixes: string[] = [];

after(async () => {
  for (const l of links) await l.close();
  for (const prefix of prefixes) await deletePrefix(prefix);
});

async function freshLink(): Promise<{ link: RedisLink; prefix: string }> {
  const prefix = freshRedisPrefix('liveness');
  prefixes.push(prefix);
  const link = await connectLink(prefix);
  links.push(link);
  return { link, prefix };
}

function session(id: string) {
  return { id, applicationId: APP, intents: 1, shardId: 0, numShards: 1, largeThreshold: 50 };
}

function entry(id: string, sessionId: string, deadline: number): PendingInteraction {
  return { id, sessionId, guildId: null, deadline, handedAt: deadline - 3_000, data: { id, type: 2 } };
}

describe('session liveness in Redis', () => {
  test('a node that stops beating: its session is not live, detached, kept for the resume window only', async () => {
    const { link, prefix } = await freshLink();
    const nodeA = new RedisSessionRegistry(link.commands, prefix);
    const nodeB = new RedisSessionRegistry(link.commands, prefix);
    await nodeA.beat();
    await nodeB.beat();
    await nodeA.register(session('s1'));
    await nodeB.register(session('s2'));
    const first = await nodeB.sessionsOf(APP);
    const byId = (records: SessionRecord[], id: string) => records.find((r) => r.id === id)!;
    assert.equal(byId(first, 's1').nodeAlive, true);
    assert.equal(byId(first, 's1').attached, true);
    assert.ok(byId(first, 's2').since >= byId(first, 's1').since, 'started later');

    // Node A stops beating (a kill -9); node B goes on. Polled: Redis's clock decides.
    const deadline = Date.now() + NODE_DEAD_AFTER_MS + 10_000;
    let records = first;
    while (byId(records, 's1').nodeAlive) {
      assert.ok(Date.now() < deadline, 'node A taken for dead in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await nodeB.beat();
      records = await nodeB.sessionsOf(APP);
    }
    assert.equal(byId(records, 's1').attached, false, 'marked detached');
    assert.equal(byId(records, 's2').nodeAlive, true);
    assert.equal(byId(records, 's2').attached, true);
    const ttl = await link.commands.pttl(nodeA.keys.session('s1'));
    assert.ok(ttl > 0 && ttl <= RESUME_WINDOW_MS, `kept for the resume window only (${ttl} ms)`);

    // Node A beats again (it was only slow): its refresh marks the session attached again.
    await nodeA.beat();
    await nodeA.keepAlive([{ ...session('s1'), seq: 0 }]);
    const back = byId(await nodeB.sessionsOf(APP), 's1');
    assert.equal(back.nodeAlive, true);
    assert.equal(back.attached, true);
  });
});

describe('pending interactions in Redis', () => {
  test('settled with the append to the holder’s buffer, moved once, lost once at the deadline', async () => {
    const { link, prefix } = await freshLink();
    const registry = new RedisSessionRegistry(link.commands, prefix);
    await registry.register(session('s1'));
    const pending = new RedisPendingInteractions(link.commands, registry.keys);
    const buffer = new RedisResumeBuffer(link.commands, registry.keys, registry.node);
    const now = Date.now();
    await pending.keep(APP, entry('i1', 's1', now + 3_000));
    await pending.keep(APP, entry('i2', 's1', now + 3_000));
    assert.deepEqual((await pending.of(APP)).map((e) => e.id).sort(), ['i1', 'i2']);
    assert.deepEqual(await pending.waiting(now), [APP]);

    buffer.append(
      's1',
      { s: 1, t: 'INTERACTION_CREATE', json: '{"id":"i1"}' },
      { applicationId: APP, interactionId: 'i1' },
    );
    assert.deepEqual(
      (await buffer.since('s1', 0))?.map((d) => d.t),
      ['INTERACTION_CREATE'],
    );
    assert.deepEqual(
      (await pending.of(APP)).map((e) => e.id),
      ['i2'],
      'kept in the buffer: no longer pending',
    );

    // Another node's buffer (not the holder) keeps nothing and settles nothing.
    const stranger = new RedisResumeBuffer(link.commands, registry.keys, 'another-node');
    stranger.append(
      's1',
      { s: 2, t: 'INTERACTION_CREATE', json: '{"id":"i2"}' },
      { applicationId: APP, interactionId: 'i2' },
    );
    assert.equal((await buffer.since('s1', 0))?.length, 1);
    const [left] = await pending.of(APP);
    assert.equal(left?.id, 'i2');
    assert.deepEqual(left?.data, { id: 'i2', type: 2 });

    assert.equal(await pending.move(APP, 'i2', 'not-s1', 's2'), false, 'not from where it is');
    assert.equal(await pending.move(APP, 'i2', 's1', 's2'), true);
    assert.equal(await pending.move(APP, 'i2', 's1', 's3'), false, 'one move wins');
    assert.equal((await pending.of(APP))[0]?.sessionId, 's2');

    assert.equal(await pending.expire(now + 2_999), 0, 'not before its deadline');
    assert.equal(await pending.expire(now + 3_000), 1, 'still pending at its deadline: lost');
    assert.equal(await pending.expire(now + 3_000), 0, 'counted once');
    assert.deepEqual(await pending.of(APP), []);
    assert.deepEqual(await pending.waiting(now), []);
  });
});
