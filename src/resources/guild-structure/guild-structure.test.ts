/**
 * The pure rules of role and channel changes (src/core/guild-structure): where a move puts what it
 * names and what it does not, the hierarchy of a reorder, what a deleted category and channel leave
 * behind, and what a category bounds in the overwrites one may set.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { botActor } from './rules/actor.js';
import { readChannelBody } from '../channels/rules/channel-bodies.js';
import { createChannel, deleteChannel, putOverwrite } from '../channels/rules/channels.js';
import { reorder } from './rules/reorder.js';
import { reorderRoles } from '../roles/rules.js';
import { ApiError } from '../../core/io/errors.js';
import type { Guild } from '../../core/world/types.js';
import {
  CATEGORY,
  DEMO_APP_ID,
  GENERAL,
  MUTED_ROLE,
  THREAD,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

const BOT_ROLE = '1345183757107200009';
/** MANAGE_ROLES | MANAGE_CHANNELS | VIEW_CHANNEL. */
const BOT_BITS = String((1n << 28n) | (1n << 4n) | (1n << 10n));

/** The test guild with the demo bot's own role between Moderator and Muted. */
function guild(): Guild {
  const g = exampleWorld().guilds.find((candidate) => candidate.id === TEST_GUILD_ID)!;
  g.roles.splice(3, 0, { id: BOT_ROLE, name: 'Demo Bot', permissions: BOT_BITS, bot_id: DEMO_APP_ID });
  return g;
}

function refusedWith(code: number) {
  return (error: unknown) => error instanceof ApiError && error.code === code;
}

describe('guild structure rules', () => {
  test('a move puts what it names at its target; an item moved up sits above the one it meets', () => {
    const ids = (items: string[]) => items.join('');
    const id = (x: string) => x;
    assert.equal(ids(reorder(['a', 'b', 'c'], id, new Map([['a', 2]]))), 'bca', 'moved up past both');
    assert.equal(ids(reorder(['a', 'b', 'c'], id, new Map([['c', 0]]))), 'cab', 'moved down below both');
    assert.equal(ids(reorder(['a', 'b', 'c', 'd'], id, new Map([['b', 2]]))), 'acbd');
    assert.equal(ids(reorder(['a', 'b', 'c'], id, new Map())), 'abc', 'nothing named, nothing moves');
  });

  test('a reorder moves only roles below the bot, to places below it; @everyone stays', () => {
    const g = guild();
    const actor = botActor(g, DEMO_APP_ID);
    const names = (roles: { name: string }[]) => roles.map((r) => r.name);
    // Muted is at 1, the bot at 2: Muted may not go to 2.
    assert.throws(() => reorderRoles(g, actor, [{ id: MUTED_ROLE, position: 2 }]), refusedWith(50013));
    assert.throws(() => reorderRoles(g, actor, [{ id: TEST_GUILD_ID, position: 1 }]), refusedWith(50028));
    const same = reorderRoles(g, actor, [
      { id: MUTED_ROLE, position: 1 },
      { id: BOT_ROLE, position: 2 },
    ]);
    assert.deepEqual(names(same), names(g.roles), 'unchanged positions are not checked');
  });

  test('deleting a category keeps its channels without it; deleting a channel takes its threads', () => {
    const g = guild();
    const actor = botActor(g, DEMO_APP_ID);
    const afterCategory = deleteChannel(g, actor, CATEGORY);
    assert.equal(
      afterCategory.find((c) => c.id === CATEGORY),
      undefined,
    );
    assert.equal(afterCategory.find((c) => c.id === GENERAL)?.parent_id, null);
    const afterGeneral = deleteChannel(g, actor, GENERAL);
    assert.equal(
      afterGeneral.find((c) => c.id === THREAD),
      undefined,
      'its thread goes with it',
    );
  });

  test('an overwrite may set only what the bot has in the category; MANAGE_ROLES only an administrator', () => {
    const g = guild();
    const category = g.channels.find((c) => c.id === CATEGORY)!;
    // The category takes VIEW_CHANNEL from @everyone, the bot's role included.
    category.permission_overwrites = [{ id: BOT_ROLE, type: 0, allow: '0', deny: String(1n << 11n) }];
    const actor = botActor(g, DEMO_APP_ID);
    const sendMessages = { id: '1335036896870400003', type: 1 as const, allow: String(1n << 11n), deny: '0' };
    assert.throws(() => putOverwrite(g, actor, GENERAL, sendMessages), refusedWith(50013), 'denied in the category');
    const manageRoles = { ...sendMessages, allow: String(1n << 28n) };
    assert.throws(
      () => createChannel(g, actor, '1', { name: 'x', permission_overwrites: [manageRoles] }),
      refusedWith(50013),
    );
    const view = { ...sendMessages, allow: String(1n << 10n) };
    assert.ok(putOverwrite(g, actor, GENERAL, view).find((c) => c.id === GENERAL)?.permission_overwrites.length);
  });

  test('a channel body names each bad field at its path', () => {
    const read = readChannelBody({ type: 13, topic: 'x'.repeat(1025), permission_overwrites: [{ id: '1' }] }, null);
    assert.equal(read.ok, false);
    const paths = read.ok ? [] : read.issues.map((i) => i.path.join('.'));
    assert.deepEqual(paths.sort(), ['name', 'permission_overwrites.0.type', 'topic', 'type'].sort());
  });
});
