/**
 * The pure thread rules: what the bodies may hold (50035 trees naming the field), who may edit a
 * thread, and which sessions get the thread member events (GUILD_MEMBERS, or being the member).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Intent } from '../../core/gateway/intents.js';
import { worldDispatchFor } from '../../core/gateway/world-filter.js';
import type { WorldDispatchName } from '../../core/world/dispatch.js';
import { MANAGE_THREADS, SEND_MESSAGES_IN_THREADS } from '../../core/permissions/bits.js';
import { readThreadCreate, readThreadEdit } from './rules/thread-requests.js';
import { editRefusal, newThread, postRefusal } from './rules/thread-rules.js';
import { DEMO_APP_ID, GENERAL, TEST_GUILD_ID, exampleWorld } from '../../../test/helpers/world.js';

const guild = exampleWorld().guilds[0]!;
const general = guild.channels.find((c) => c.id === GENERAL)!;
const NOW = '2026-03-01T00:00:00.000Z';
const OWNER = '1335036896870400003';

function thread(state: { archived?: boolean; locked?: boolean } = {}) {
  const made = newThread('1500000000000000001', general, 11, readOk({ name: 't' }), OWNER, NOW);
  return { ...made, thread: { ...made.thread!, ...state } };
}

function readOk(body: unknown) {
  const read = readThreadCreate(body, true);
  assert.ok(read.ok, JSON.stringify(read));
  return read.value;
}

describe('thread bodies', () => {
  test('a missing or too long name, an unknown duration and a bad type each name their field', () => {
    const read = readThreadCreate({ name: 'x'.repeat(101), auto_archive_duration: 30, type: 0 }, true);
    assert.ok(!read.ok);
    assert.deepEqual(read.issues.map((i) => i.path.join('.')).sort(), ['auto_archive_duration', 'name', 'type']);
    const missing = readThreadCreate({}, false);
    assert.ok(!missing.ok);
    assert.deepEqual(
      missing.issues.map((i) => i.path.join('.')),
      ['name'],
    );
    const edit = readThreadEdit({ archived: 'yes', rate_limit_per_user: 21601 });
    assert.ok(!edit.ok);
    assert.deepEqual(edit.issues.map((i) => i.path.join('.')).sort(), ['archived', 'rate_limit_per_user']);
    assert.deepEqual(readOk({ name: 'ok', type: 11, invitable: null }).type, 11);
  });
});

describe('who may edit and post', () => {
  test('locking needs MANAGE_THREADS; the owner renames; unarchiving needs only SEND_MESSAGES_IN_THREADS', () => {
    assert.equal(editRefusal(thread(), { locked: true }, SEND_MESSAGES_IN_THREADS, OWNER), 'missing-permission');
    assert.equal(editRefusal(thread(), { locked: true }, MANAGE_THREADS, 'someone'), null);
    assert.equal(editRefusal(thread(), { name: 'renamed' }, 0n, OWNER), null);
    assert.equal(editRefusal(thread(), { name: 'renamed' }, SEND_MESSAGES_IN_THREADS, 'someone'), 'missing-permission');
    assert.equal(editRefusal(thread({ archived: true }), { name: 'x' }, MANAGE_THREADS, OWNER), 'archived');
    assert.equal(
      editRefusal(thread({ archived: true }), { archived: false }, SEND_MESSAGES_IN_THREADS, 'someone'),
      null,
    );
    assert.equal(
      editRefusal(thread({ archived: true, locked: true }), { archived: false }, SEND_MESSAGES_IN_THREADS, OWNER),
      'missing-permission',
    );
    assert.equal(postRefusal(thread({ locked: true }), SEND_MESSAGES_IN_THREADS), 'locked');
    assert.equal(postRefusal(thread({ locked: true }), MANAGE_THREADS), null);
    assert.equal(postRefusal(thread({ archived: true }), MANAGE_THREADS), 'archived');
    assert.equal(postRefusal(general, 0n), null, 'not a thread');
  });
});

describe('thread member events', () => {
  const session = (intents: number) => ({ applicationId: DEMO_APP_ID, intents, shardId: 0, numShards: 1 });
  const event = (t: WorldDispatchName, concerned: string) => ({
    t,
    guildId: TEST_GUILD_ID,
    channelId: null,
    recipientIds: [concerned],
    d: { id: 'x' },
  });

  test('THREAD_MEMBERS_UPDATE: with GUILD_MEMBERS, or to the member concerned; THREAD_MEMBER_UPDATE only to it', () => {
    const guilds = Intent.Guilds;
    assert.notEqual(
      worldDispatchFor(event('THREAD_MEMBERS_UPDATE', OWNER), session(guilds | Intent.GuildMembers), guild),
      null,
    );
    assert.equal(worldDispatchFor(event('THREAD_MEMBERS_UPDATE', OWNER), session(guilds), guild), null);
    assert.notEqual(worldDispatchFor(event('THREAD_MEMBERS_UPDATE', DEMO_APP_ID), session(guilds), guild), null);
    assert.notEqual(worldDispatchFor(event('THREAD_MEMBER_UPDATE', DEMO_APP_ID), session(guilds), guild), null);
    assert.equal(
      worldDispatchFor(event('THREAD_MEMBER_UPDATE', OWNER), session(guilds | Intent.GuildMembers), guild),
      null,
    );
    assert.equal(worldDispatchFor(event('THREAD_MEMBER_UPDATE', DEMO_APP_ID), session(0), guild), null, 'GUILDS');
  });
});
