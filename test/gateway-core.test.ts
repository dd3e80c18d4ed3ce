/**
 * The pure parts of the gateway: shard routing, intents (valid bits, privileged flags, which
 * dispatch needs which), MESSAGE_CONTENT stripping, reading client payloads, and the bounded
 * resume buffer.
 */
import assert from 'node:assert/strict';
import { ApplicationFlags } from 'discord-api-types/v10';
import { describe, test } from 'node:test';
import { readFrame, readIdentify, readMembersRequest, readResume } from '../src/core/gateway/commands.js';
import {
  Intent,
  intentsAllow,
  messageForIntents,
  privilegedIntentsAllowed,
  readIntents,
} from '../src/core/gateway/intents.js';
import { readShard, recommendedShards, shardingRequired, shardOf } from '../src/core/gateway/shards.js';
import { InMemoryResumeBuffer } from '../src/gateway/resume-buffer.js';
import { TEST_GUILD_ID } from './helpers/world.js';

const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('shards', () => {
  test('(guild_id >> 22) % num_shards; DMs and a single shard: 0', () => {
    const id = ((5n << 22n) + 123n).toString();
    assert.equal(shardOf(id, 2), 1);
    assert.equal(shardOf(id, 3), 2);
    assert.equal(shardOf(id, 1), 0);
    assert.equal(shardOf(null, 4), 0);
  });

  test('recommended shards: one per 1,000 guilds, at least one', () => {
    assert.deepEqual([0, 1, 1000, 1001, 2500].map(recommendedShards), [1, 1, 1, 2, 3]);
  });

  test('IDENTIFY shard: [id, count] with 0 <= id < count; absent is [0, 1]', () => {
    assert.deepEqual(readShard(undefined), [0, 1]);
    assert.deepEqual(readShard([1, 2]), [1, 2]);
    for (const bad of [[2, 2], [-1, 1], [0, 0], [0], [0, 1, 2], ['0', '1'], [0.5, 2], [0, 5000]]) {
      assert.equal(readShard(bad), null, JSON.stringify(bad));
    }
  });

  test('sharding required past the per-shard guild limit', () => {
    const ids = Array.from({ length: 3 }, (_, i) => (BigInt(i) << 22n).toString());
    assert.equal(shardingRequired(ids, 1, 0, 2), true);
    assert.equal(shardingRequired(ids, 2, 0, 2), false);
    assert.equal(shardingRequired(ids, 1, 0), false);
  });
});

describe('intents', () => {
  test('only v10 intent bits, as a non-negative integer', () => {
    assert.equal(readIntents(0), 0);
    assert.equal(readIntents(Intent.Guilds | Intent.MessageContent), 1 | (1 << 15));
    assert.equal(readIntents('513'), 513);
    for (const bad of [-1, 1.5, 1 << 17, 1 << 30, 'x', null, undefined, {}]) {
      assert.equal(readIntents(bad), null, String(bad));
    }
  });

  test('privileged intents need the full or the limited flag', () => {
    assert.equal(privilegedIntentsAllowed(Intent.Guilds | Intent.GuildMessages, 0), true);
    assert.equal(privilegedIntentsAllowed(Intent.GuildMembers, 0), false);
    assert.equal(privilegedIntentsAllowed(Intent.GuildMembers, ApplicationFlags.GatewayGuildMembersLimited), true);
    assert.equal(privilegedIntentsAllowed(Intent.GuildPresences, ApplicationFlags.GatewayPresence), true);
    assert.equal(privilegedIntentsAllowed(Intent.MessageContent, ApplicationFlags.GatewayGuildMembers), false);
    assert.equal(privilegedIntentsAllowed(Intent.MessageContent, ApplicationFlags.GatewayMessageContentLimited), true);
  });

  test('which dispatch needs which intent', () => {
    assert.equal(intentsAllow(Intent.Guilds, 'CHANNEL_CREATE', true), true);
    assert.equal(intentsAllow(Intent.GuildMessages, 'CHANNEL_CREATE', true), false);
    assert.equal(intentsAllow(Intent.GuildMessages, 'MESSAGE_CREATE', true), true);
    assert.equal(intentsAllow(Intent.GuildMessages, 'MESSAGE_CREATE', false), false);
    assert.equal(intentsAllow(Intent.DirectMessages, 'MESSAGE_DELETE', false), true);
    assert.equal(intentsAllow(Intent.Guilds, 'GUILD_MEMBER_ADD', true), false);
    assert.equal(intentsAllow(Intent.GuildMembers, 'GUILD_MEMBER_REMOVE', true), true);
    assert.equal(intentsAllow(Intent.GuildModeration, 'GUILD_BAN_ADD', true), true);
    assert.equal(intentsAllow(Intent.GuildModeration, 'GUILD_BAN_REMOVE', true), true);
    assert.equal(intentsAllow(Intent.Guilds | Intent.GuildMembers, 'GUILD_BAN_ADD', true), false);
    assert.equal(intentsAllow(-1 >>> 1, 'SOMETHING_UNKNOWN', true), false);
  });

  test('without MESSAGE_CONTENT: content, embeds, attachments, components, poll emptied', () => {
    const d = {
      id: '1',
      author: { id: 'u' },
      content: 'secret',
      embeds: [{}],
      attachments: [{}],
      components: [{}],
      poll: {},
      mentions: [],
    };
    const stripped = messageForIntents(d, Intent.GuildMessages, 'bot', false);
    assert.deepEqual(stripped, {
      id: '1',
      author: { id: 'u' },
      content: '',
      embeds: [],
      attachments: [],
      components: [],
      mentions: [],
    });
    assert.equal(d.content, 'secret', 'the original is untouched');
    assert.equal(messageForIntents(d, Intent.MessageContent, 'bot', false), d);
    assert.equal(messageForIntents(d, 0, 'bot', true), d, 'in a DM');
    assert.equal(messageForIntents({ ...d, mentions: [{ id: 'bot' }] }, 0, 'bot', false).content, 'secret');
    assert.equal(messageForIntents({ ...d, author: { id: 'bot' } }, 0, 'bot', false).content, 'secret');
  });

  test("without MESSAGE_CONTENT, a reply's referenced_message is judged on its own", () => {
    const referenced = { id: '1', author: { id: 'u' }, content: 'asked', mentions: [] };
    const reply = { id: '2', author: { id: 'bot' }, content: 'answer', mentions: [{ id: 'u' }] };
    const seen = messageForIntents({ ...reply, referenced_message: referenced }, 0, 'bot', false);
    assert.equal(seen.content, 'answer', 'its own message');
    assert.equal((seen.referenced_message as { content: string }).content, '', "another's, not mentioning it");
    const other = messageForIntents(
      { id: '3', author: { id: 'u' }, content: 'x', mentions: [], referenced_message: reply },
      0,
      'bot',
      false,
    );
    assert.equal(other.content, '');
    assert.equal((other.referenced_message as { content: string }).content, 'answer');
    const deleted = messageForIntents({ ...referenced, referenced_message: null }, 0, 'bot', false);
    assert.equal(deleted.referenced_message, null);
  });
});

describe('client payloads', () => {
  test('frames: JSON within 4096 bytes with a known op', () => {
    assert.deepEqual(readFrame(bytes({ op: 1, d: null })), { kind: 'read', value: { op: 1, d: null } });
    const codes = (value: unknown) => {
      const read = readFrame(bytes(value));
      return read.kind === 'read' ? 0 : read.close.code;
    };
    assert.equal(codes('{'), 4002);
    assert.equal(codes([1]), 4002);
    assert.equal(codes({ op: '1' }), 4002);
    assert.equal(codes({ op: 1, d: 'x'.repeat(4096) }), 4002);
    assert.equal(codes({ op: 99 }), 4001);
    assert.equal(codes({ op: 10 }), 4001, 'HELLO is the server’s');
    assert.equal(codes('{"op":1,"__proto__":{"x":1}}'), 4002);
  });

  test('IDENTIFY: token, intents, shard, large_threshold clamped to 50..250', () => {
    const read = readIdentify({ token: 'Bot t', intents: 1, shard: [0, 1], large_threshold: 1000, properties: {} });
    assert.ok(read.kind === 'read');
    assert.equal(read.value.token, 't');
    assert.equal(read.value.largeThreshold, 250);
    const code = (d: unknown) => {
      const r = readIdentify(d);
      return r.kind === 'read' ? 0 : r.close.code;
    };
    assert.equal(code(null), 4002);
    assert.equal(code({ intents: 1 }), 4004);
    assert.equal(code({ token: 't' }), 4013);
    assert.equal(code({ token: 't', intents: 1, shard: [1, 1] }), 4010);
    assert.equal(code({ token: 't', intents: 1, properties: 'x' }), 4002);
  });

  test('RESUME: seq null means 0; a negative seq is invalid', () => {
    const read = readResume({ token: 't', session_id: 's', seq: null });
    assert.ok(read.kind === 'read');
    assert.equal(read.value.seq, 0);
    const bad = readResume({ token: 't', session_id: 's', seq: -1 });
    assert.equal(bad.kind === 'read' ? 0 : bad.close.code, 4007);
  });

  test('REQUEST_GUILD_MEMBERS: a query is limited to 100; user_ids bounded; long nonces dropped', () => {
    const guild = TEST_GUILD_ID;
    const q = readMembersRequest({ guild_id: guild, query: 'a', limit: 500, nonce: 'x'.repeat(33) });
    assert.ok(q.kind === 'read');
    assert.equal(q.value.limit, 100);
    assert.equal(q.value.nonce, null);
    const ids = readMembersRequest({ guild_id: guild, user_ids: [guild], nonce: 'n' });
    assert.ok(ids.kind === 'read');
    assert.deepEqual(ids.value.userIds, [guild]);
    assert.equal(readMembersRequest({ guild_id: guild, user_ids: Array(101).fill(guild) }).kind, 'close');
    assert.equal(readMembersRequest({ guild_id: 'x' }).kind, 'close');
  });
});

describe('resume buffer', () => {
  test('keeps the last N dispatches; older seqs are gone (null)', async () => {
    const buffer = new InMemoryResumeBuffer(3);
    for (let s = 1; s <= 10; s++) buffer.append('a', { s, t: 'X', json: String(s) });
    assert.deepEqual(
      (await buffer.since('a', 7))!.map((d) => d.s),
      [8, 9, 10],
    );
    assert.deepEqual(await buffer.since('a', 10), []);
    assert.equal(await buffer.since('a', 6), null);
    buffer.drop('a');
    assert.deepEqual(await buffer.since('a', 0), []);
  });

  test('and at most so many characters of JSON, the newest always kept', async () => {
    const buffer = new InMemoryResumeBuffer(100, 10);
    buffer.append('a', { s: 1, t: 'X', json: '"aaaa"' });
    buffer.append('a', { s: 2, t: 'X', json: '"bbbb"' });
    assert.deepEqual(
      (await buffer.since('a', 1))!.map((d) => d.s),
      [2],
    );
    assert.equal(await buffer.since('a', 0), null, 'the first no longer fits');
    buffer.append('a', { s: 3, t: 'X', json: JSON.stringify('x'.repeat(50)) });
    assert.deepEqual(
      (await buffer.since('a', 2))!.map((d) => d.s),
      [3],
    );
  });
});
