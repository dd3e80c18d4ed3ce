/**
 * The GuildStructureStore contract (`Store.guildStructure`): a guild's roles and channels change in
 * one transaction over the stored document, never rewriting its members; a role gone leaves every
 * member that had it, a channel gone takes its messages, pins, reactions and files; every read, on
 * this store and on another opened on the same database, sees the change at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Channel, Guild, Member, Role } from '../../src/core/world/types.js';
import type { GuildStructure } from '../../src/resources/guild-structure/store.js';
import { ALICE, APP_A, BOB, CHANNEL_1, CHANNEL_1B, GUILD_1, GUILD_2, message, smallWorld } from './fixtures.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';

const ROLE_MOD = '1700000000000000001';
const ROLE_HELPER = '1700000000000000002';
const NEW_CHANNEL = '1400000000000000099';
const MESSAGE_1 = '1500000000000000001';
const MESSAGE_1B = '1500000000000000002';
const FILE = '1600000000000000001';

function member(userId: string, roles: string[]): Member {
  return { user_id: userId, roles, nick: null, joined_at: '2026-01-02T00:00:00.000Z' };
}

function role(id: string, name: string): Role {
  return { id, name, permissions: '0' };
}

function textChannel(id: string, name: string): Channel {
  return { id, type: 0, name, nsfw: false, parent_id: null, permission_overwrites: [] };
}

/** The guild's structure with `change` applied to copies of its lists. */
function restructure(guild: Guild, change: (structure: GuildStructure) => void): GuildStructure {
  const structure = { roles: [...guild.roles], channels: [...guild.channels] };
  change(structure);
  return structure;
}

export function describeGuildStructureContract(name: string, make: MakeStores): void {
  describe(`${name}: guild roles and channels`, () => {
    const t = freshDatabasePerTest(make);

    /** GUILD_1 with the roles Mod and Helper; Alice has both, Bob has Helper. */
    async function withRoles(): Promise<void> {
      const world = smallWorld();
      const g = world.guilds[0]!;
      g.roles.unshift(role(ROLE_MOD, 'Mod'), role(ROLE_HELPER, 'Helper'));
      g.members = [member(ALICE, [ROLE_MOD, ROLE_HELPER]), member(BOB, [ROLE_HELPER])];
      await t.stores.world.replaceWorld(world);
    }

    it('a new role and channel are read at once here and elsewhere; the members are not rewritten', async () => {
      await withRoles();
      const other = await t.db.connect();
      // Both stores have read the guild before the change.
      for (const store of [t.stores, other]) await store.members.getGuildWithMembers(GUILD_1, [ALICE]);
      await other.members.putGuildMember(GUILD_1, { ...member(BOB, [ROLE_HELPER]), nick: 'bobby' });
      const change = await t.stores.guildStructure.changeGuildStructure(GUILD_1, (guild) => ({
        structure: restructure(guild, (s) => {
          s.roles.splice(s.roles.length - 1, 0, role('1700000000000000003', 'New'));
          s.channels.push(textChannel(NEW_CHANNEL, 'new'));
        }),
        result: guild.members.length,
      }));
      assert.equal(change?.result, 0, 'the planner sees the document, no member');
      assert.deepEqual(
        change?.after.roles.map((r) => r.name),
        ['Mod', 'Helper', 'New', '@everyone'],
      );
      assert.equal(change?.before.channels.length, 2);
      for (const store of [t.stores, other]) {
        const guild = await store.members.getGuildWithMembers(GUILD_1, [ALICE, BOB]);
        assert.deepEqual(
          guild?.roles.map((r) => r.name),
          ['Mod', 'Helper', 'New', '@everyone'],
        );
        assert.deepEqual(guild?.members, [
          member(ALICE, [ROLE_MOD, ROLE_HELPER]),
          { ...member(BOB, [ROLE_HELPER]), nick: 'bobby' },
        ]);
        assert.equal((await store.members.findGuildByChannelWithMembers(NEW_CHANNEL, []))?.id, GUILD_1);
        assert.equal((await store.world.getGuild(GUILD_2))?.roles.length, 1, 'another guild is untouched');
      }
    });

    it('a role gone is taken from the members who had it, and only from them', async () => {
      await withRoles();
      const other = await t.db.connect();
      await other.world.getGuild(GUILD_1);
      const entry = {
        id: '1800000000000000001',
        guild_id: GUILD_1,
        user_id: APP_A,
        target_id: ROLE_HELPER,
        action_type: 32,
        reason: 'tidy',
      };
      await t.stores.guildStructure.changeGuildStructure(GUILD_1, (guild) => ({
        structure: restructure(guild, (s) => {
          s.roles = s.roles.filter((r) => r.id !== ROLE_HELPER);
        }),
        result: null,
        audit: [entry],
      }));
      const query = { userId: null, actionType: null, before: null, after: null, limit: 10 };
      assert.deepEqual(await other.auditLog.listAuditEntries(GUILD_1, query), [entry], 'its entry, written with it');
      for (const store of [t.stores, other]) {
        const guild = await store.world.getGuild(GUILD_1);
        assert.deepEqual(guild?.members, [member(ALICE, [ROLE_MOD]), member(BOB, [])]);
        assert.deepEqual((await store.members.getGuildWithMembers(GUILD_1, [BOB]))?.members, [member(BOB, [])]);
      }
    });

    it('a channel gone takes its messages, pins, reactions and files; other channels keep theirs', async () => {
      await withRoles();
      const { interactions, reactions, attachments } = t.stores;
      await interactions.putMessage(message(CHANNEL_1, MESSAGE_1, 'going'));
      await interactions.putMessage(message(CHANNEL_1B, MESSAGE_1B, 'staying'));
      for (const [channel, id] of [
        [CHANNEL_1, MESSAGE_1],
        [CHANNEL_1B, MESSAGE_1B],
      ] as const) {
        await interactions.pinMessage(channel, id, '2026-01-15T12:00:00.000Z', 50);
        await reactions.addReaction(channel, id, '👍', ALICE, 1, 20);
        await attachments.putFiles({ ownerId: APP_A, channelId: channel, messageId: id }, [
          {
            id: FILE,
            size: 3,
            attachment: { id: FILE, filename: 'a.txt', size: 3 },
            chunks: () => [Buffer.from('abc')],
          },
        ]);
      }
      await t.stores.guildStructure.changeGuildStructure(GUILD_1, (guild) => ({
        structure: restructure(guild, (s) => {
          s.channels = s.channels.filter((c) => c.id !== CHANNEL_1);
        }),
        result: null,
      }));
      assert.equal(await interactions.getMessage(CHANNEL_1, MESSAGE_1), null);
      assert.deepEqual(await interactions.listPins(CHANNEL_1, 50), []);
      assert.deepEqual(await reactions.countReactions(CHANNEL_1, MESSAGE_1, ALICE), []);
      assert.equal(await attachments.findFile(CHANNEL_1, FILE), null);
      assert.equal(await attachments.storedBytes(APP_A), 3, 'the other channel’s file still counts');
      assert.equal((await interactions.getMessage(CHANNEL_1B, MESSAGE_1B))?.content, 'staying');
      assert.equal((await interactions.listPins(CHANNEL_1B, 50)).length, 1);
      assert.equal((await reactions.countReactions(CHANNEL_1B, MESSAGE_1B, ALICE)).length, 1);
      assert.equal(await t.stores.members.findGuildByChannelWithMembers(CHANNEL_1, []), null);
    });

    it('a planner that throws writes nothing; an unknown guild runs no planner', async () => {
      await withRoles();
      await assert.rejects(
        t.stores.guildStructure.changeGuildStructure(GUILD_1, () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.equal((await t.stores.world.getGuild(GUILD_1))?.roles.length, 3);
      let ran = false;
      const none = await t.stores.guildStructure.changeGuildStructure('1300000000000000999', (guild) => {
        ran = true;
        return { structure: { roles: guild.roles, channels: guild.channels }, result: null };
      });
      assert.equal(none, null);
      assert.equal(ran, false);
    });

    it('changes of one guild from two stores at once both land: each planner sees the other’s result', async () => {
      await withRoles();
      const other = await t.db.connect();
      const add = (store: typeof t.stores, id: string) =>
        store.guildStructure.changeGuildStructure(GUILD_1, (guild) => ({
          structure: restructure(guild, (s) => s.channels.push(textChannel(id, `c-${id}`))),
          result: null,
        }));
      await Promise.all([add(t.stores, '1400000000000000091'), add(other, '1400000000000000092')]);
      const channels = (await t.stores.world.getGuild(GUILD_1))?.channels.map((c) => c.id) ?? [];
      assert.ok(channels.includes('1400000000000000091') && channels.includes('1400000000000000092'), channels.join());
    });
  });
}
