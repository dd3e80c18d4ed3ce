/**
 * The world diff (src/core/world/diff.ts): each kind of admin change to the world yields exactly
 * the v10 dispatches that keep a bot's cache true, with v10 payload shapes (checked against the
 * OpenAPI schemas of the objects they carry), and apps joining and leaving guilds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WorldEvent } from '../src/core/world/dispatch.js';
import { diffWorlds } from '../src/core/world/diff.js';
import type { World } from '../src/core/world/types.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import {
  ALICE_ID,
  ANNOUNCEMENTS,
  BOB_ID,
  DEMO_APP_ID,
  GENERAL,
  HELLO_MESSAGE,
  MODERATOR_ROLE as MODERATOR,
  MUTED_ROLE,
  OTHER_APP_ID,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
  THREAD,
  exampleWorld,
} from './helpers/world.js';
import type { Json } from './helpers/json.js';

function changed(edit: (world: World) => void): WorldEvent[] {
  const before = exampleWorld();
  const after = exampleWorld();
  edit(after);
  return diffWorlds(before, after);
}

function dispatches(events: WorldEvent[]): { t: string; guildId: string | null; channelId: string | null; d: Json }[] {
  return events.flatMap((e) => (e.kind === 'dispatch' ? [e.event] : []));
}

function only(events: WorldEvent[], t: string): Json {
  const found = dispatches(events);
  assert.deepEqual(
    found.map((e) => e.t),
    [t],
  );
  return found[0]!;
}

const guild = (world: World, id = TEST_GUILD_ID) => world.guilds.find((g) => g.id === id)!;

describe('world diff', () => {
  test('no change, no event', () => {
    assert.deepEqual(
      changed(() => undefined),
      [],
    );
  });

  test('a renamed guild: GUILD_UPDATE with the full guild object', () => {
    const event = only(
      changed((w) => {
        guild(w).name = 'Renamed';
      }),
      'GUILD_UPDATE',
    );
    assert.equal(event.guildId, TEST_GUILD_ID);
    assert.equal(event.channelId, null);
    assert.equal(event.d.name, 'Renamed');
    assertMatchesSchema('GuildResponse', event.d);
  });

  test('roles: GUILD_ROLE_CREATE / UPDATE {guild_id, role}, GUILD_ROLE_DELETE {guild_id, role_id}', () => {
    // A new role is listed last, just above @everyone: every other role moves up one position.
    const events = dispatches(
      changed((w) => {
        guild(w).roles.push({ id: '1345183757107200099', name: 'New', permissions: '0' });
      }),
    );
    assert.deepEqual(
      events.map((e) => e.t),
      ['GUILD_ROLE_UPDATE', 'GUILD_ROLE_UPDATE', 'GUILD_ROLE_UPDATE', 'GUILD_ROLE_CREATE'],
    );
    const created = events.at(-1)!;
    assert.equal(created.d.guild_id, TEST_GUILD_ID);
    assert.equal(created.d.role.id, '1345183757107200099');
    assert.equal(created.d.role.position, 1);
    assert.equal(events[0]!.d.role.position, 4);
    assertMatchesSchema('GuildRoleResponse', created.d.role);

    const updated = only(
      changed((w) => {
        guild(w).roles.find((r) => r.id === MODERATOR)!.permissions = '0';
      }),
      'GUILD_ROLE_UPDATE',
    );
    assert.deepEqual(
      [updated.d.guild_id, updated.d.role.id, updated.d.role.permissions],
      [TEST_GUILD_ID, MODERATOR, '0'],
    );

    const deleted = dispatches(
      changed((w) => {
        guild(w).roles = guild(w).roles.filter((r) => r.id !== MUTED_ROLE);
      }),
    );
    // The roles above the deleted one move down one position each.
    assert.deepEqual(
      deleted.map((e) => e.t),
      ['GUILD_ROLE_DELETE', 'GUILD_ROLE_UPDATE', 'GUILD_ROLE_UPDATE'],
    );
    assert.deepEqual(deleted[0]!.d, { guild_id: TEST_GUILD_ID, role_id: MUTED_ROLE });
  });

  test('reordering roles updates each role whose position changed', () => {
    const events = dispatches(
      changed((w) => {
        const roles = guild(w).roles;
        [roles[1], roles[2]] = [roles[2]!, roles[1]!];
      }),
    );
    assert.deepEqual(
      events.map((e) => e.t),
      ['GUILD_ROLE_UPDATE', 'GUILD_ROLE_UPDATE'],
    );
  });

  test('channels: CHANNEL_CREATE / UPDATE / DELETE with the channel object', () => {
    const created = only(
      changed((w) => {
        guild(w).channels.push({
          id: '1345183757107200050',
          type: 0,
          name: 'new',
          nsfw: false,
          parent_id: null,
          permission_overwrites: [],
        });
      }),
      'CHANNEL_CREATE',
    );
    assert.equal(created.channelId, '1345183757107200050');
    assertMatchesSchema('GuildChannelResponse', created.d);

    const updated = only(
      changed((w) => {
        guild(w).channels.find((c) => c.id === GENERAL)!.name = 'renamed';
      }),
      'CHANNEL_UPDATE',
    );
    assert.equal(updated.d.name, 'renamed');
    assert.equal(updated.d.guild_id, TEST_GUILD_ID);

    const deleted = only(
      changed((w) => {
        guild(w).channels = guild(w).channels.filter((c) => c.id !== ANNOUNCEMENTS);
      }),
      'CHANNEL_DELETE',
    );
    assert.equal(deleted.d.id, ANNOUNCEMENTS);
    assertMatchesSchema('GuildChannelResponse', deleted.d);
  });

  test('threads: THREAD_CREATE (newly_created), THREAD_UPDATE, THREAD_DELETE {id, guild_id, parent_id, type}', () => {
    const created = only(
      changed((w) => {
        guild(w).channels.push({
          id: '1345183757107200051',
          type: 11,
          name: 't',
          nsfw: false,
          parent_id: GENERAL,
          permission_overwrites: [],
        });
      }),
      'THREAD_CREATE',
    );
    assert.equal(created.d.newly_created, true);
    const { newly_created: _n, ...thread } = created.d;
    assertMatchesSchema('ThreadResponse', thread);

    const updated = only(
      changed((w) => {
        guild(w).channels.find((c) => c.id === THREAD)!.name = 'renamed';
      }),
      'THREAD_UPDATE',
    );
    assertMatchesSchema('ThreadResponse', updated.d);

    const deleted = only(
      changed((w) => {
        guild(w).channels = guild(w).channels.filter((c) => c.id !== THREAD);
      }),
      'THREAD_DELETE',
    );
    assert.deepEqual(deleted.d, { id: THREAD, guild_id: TEST_GUILD_ID, parent_id: GENERAL, type: 11 });
  });

  test('members: GUILD_MEMBER_ADD (member + guild_id), UPDATE, REMOVE {guild_id, user}', () => {
    const added = only(
      changed((w) => {
        guild(w, SECOND_GUILD_ID).members.push({
          user_id: BOB_ID,
          roles: [],
          nick: null,
          joined_at: '2025-04-01T00:00:00.000Z',
        });
      }),
      'GUILD_MEMBER_ADD',
    );
    assert.equal(added.guildId, SECOND_GUILD_ID);
    assert.equal(added.d.guild_id, SECOND_GUILD_ID);
    assert.equal(added.d.user.username, 'bob');
    const { guild_id: _g, ...member } = added.d;
    assertMatchesSchema('GuildMemberResponse', member);

    const updated = only(
      changed((w) => {
        guild(w).members.find((m) => m.user_id === BOB_ID)!.nick = 'Robert';
      }),
      'GUILD_MEMBER_UPDATE',
    );
    assert.deepEqual([updated.d.guild_id, updated.d.nick, updated.d.roles], [TEST_GUILD_ID, 'Robert', [MODERATOR]]);

    const removed = only(
      changed((w) => {
        guild(w).members = guild(w).members.filter((m) => m.user_id !== BOB_ID);
      }),
      'GUILD_MEMBER_REMOVE',
    );
    assert.equal(removed.d.guild_id, TEST_GUILD_ID);
    assert.equal(removed.d.user.id, BOB_ID);
    assertMatchesSchema('UserResponse', removed.d.user);
  });

  test('a renamed user: GUILD_MEMBER_UPDATE in each guild they are in', () => {
    const events = dispatches(
      changed((w) => {
        w.users.find((u) => u.id === ALICE_ID)!.username = 'alicia';
      }),
    );
    assert.deepEqual(
      events.map((e) => [e.t, e.guildId]),
      [['GUILD_MEMBER_UPDATE', TEST_GUILD_ID]],
    );
    assert.equal(events[0]!.d.user.username, 'alicia');
  });

  test('world messages: MESSAGE_CREATE (guild_id, member), MESSAGE_UPDATE, MESSAGE_DELETE {id, channel_id, guild_id}', () => {
    const created = only(
      changed((w) => {
        guild(w).messages.push({ id: '1345183757107200101', channel_id: GENERAL, author_id: BOB_ID, content: 'new' });
      }),
      'MESSAGE_CREATE',
    );
    assert.equal(created.channelId, GENERAL);
    assert.equal(created.d.guild_id, TEST_GUILD_ID);
    assert.equal(created.d.member.nick, 'Bobby');
    assert.equal(created.d.member.user, undefined);
    const { guild_id: _g, member: _m, ...message } = created.d;
    assertMatchesSchema('MessageResponse', message);

    const updated = only(
      changed((w) => {
        guild(w).messages[0]!.content = 'edited';
      }),
      'MESSAGE_UPDATE',
    );
    assert.equal(updated.d.content, 'edited');

    const deleted = only(
      changed((w) => {
        guild(w).messages = [];
      }),
      'MESSAGE_DELETE',
    );
    assert.deepEqual(deleted.d, { id: HELLO_MESSAGE, channel_id: GENERAL, guild_id: TEST_GUILD_ID });
  });

  test('an app installed with the bot scope: APPLICATION_GUILD installed, and its bot joins as a member', () => {
    const events = changed((w) => {
      guild(w).installs.push({ application_id: OTHER_APP_ID, scopes: ['bot'], permissions: '0' });
    });
    assert.deepEqual(events.at(-1), {
      kind: 'application_guild',
      event: { applicationId: OTHER_APP_ID, guildId: TEST_GUILD_ID, installed: true },
    });
    const add = only(events, 'GUILD_MEMBER_ADD');
    assert.equal(add.d.user.id, OTHER_APP_ID);
    assert.equal(add.d.user.bot, true);
  });

  test('an install with applications.commands alone puts no bot in the guild', () => {
    assert.deepEqual(
      changed((w) => {
        guild(w).installs.push({ application_id: OTHER_APP_ID, scopes: ['applications.commands'], permissions: null });
      }),
      [],
    );
  });

  test('an app removed from a guild: APPLICATION_GUILD removed first, then its member leaves', () => {
    const events = changed((w) => {
      guild(w).installs = guild(w).installs.filter((i) => i.application_id !== DEMO_APP_ID);
    });
    assert.deepEqual(events[0], {
      kind: 'application_guild',
      event: { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID, installed: false },
    });
    assert.equal(only(events, 'GUILD_MEMBER_REMOVE').d.user.id, DEMO_APP_ID);
  });

  test('a deleted application leaves every guild it was in', () => {
    const events = changed((w) => {
      w.applications = w.applications.filter((a) => a.id !== OTHER_APP_ID);
    });
    assert.deepEqual(events[0], {
      kind: 'application_guild',
      event: { applicationId: OTHER_APP_ID, guildId: SECOND_GUILD_ID, installed: false },
    });
  });

  test('a guild created or deleted in the world: APPLICATION_GUILD for its bots, no finer event', () => {
    const removed = changed((w) => {
      w.guilds = w.guilds.filter((g) => g.id !== SECOND_GUILD_ID);
    });
    assert.deepEqual(removed, [
      { kind: 'application_guild', event: { applicationId: OTHER_APP_ID, guildId: SECOND_GUILD_ID, installed: false } },
    ]);
    const before = exampleWorld();
    before.guilds = before.guilds.filter((g) => g.id !== SECOND_GUILD_ID);
    assert.deepEqual(diffWorlds(before, exampleWorld()), [
      { kind: 'application_guild', event: { applicationId: OTHER_APP_ID, guildId: SECOND_GUILD_ID, installed: true } },
    ]);
  });
});
