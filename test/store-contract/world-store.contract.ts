/** The WorldStore contract: what every implementation answers, on a fresh database per test. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandScope } from '../../src/core/commands/model.js';
import type { World } from '../../src/core/world/types.js';
import { DuplicateTokenError, type Store } from '../../src/store/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import {
  activityInstance,
  ALICE,
  APP_A,
  APP_B,
  application,
  BOB,
  CHANNEL_1,
  CHANNEL_1B,
  CHANNEL_2,
  command,
  guild,
  GUILD_1,
  GUILD_2,
  interaction,
  mutation,
  smallWorld,
  TOKEN_A,
  TOKEN_B,
  user,
} from './fixtures.js';

const GLOBAL_A: CommandScope = { applicationId: APP_A, guildId: null };

const byId = <T extends { id: string }>(rows: readonly T[]): T[] => [...rows].sort((a, b) => a.id.localeCompare(b.id));

/** A world with every list in one order, to compare two worlds whose order is not promised. */
function sorted(world: World): World {
  return {
    applications: byId(world.applications),
    users: byId(world.users),
    guilds: byId(world.guilds),
    oauth2_tokens: [...world.oauth2_tokens].sort((a, b) => a.access_token.localeCompare(b.access_token)),
  };
}

export function describeWorldStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: WorldStore`, () => {
    const t = freshDatabasePerTest(make);

    /** Rows of every other store that belong to `applicationId`, in GUILD_1. */
    async function giveRowsTo(applicationId: string, suffix: string): Promise<void> {
      const { commands, interactions } = t.stores;
      const commandId = `17000000000000000${suffix}`;
      await commands.mutateCommands({ applicationId, guildId: null }, () => ({
        mutation: mutation({ insert: [command(applicationId, null, commandId, `cmd-${suffix}`)] }),
        result: null,
      }));
      await commands.mutateCommandPermissions(applicationId, GUILD_1, commandId, () => [
        { id: ALICE, type: 2, permission: true },
      ]);
      await interactions.putInteraction(interaction(applicationId, `18000000000000000${suffix}`));
      await interactions.putActivityInstance(activityInstance(applicationId, `19000000000000000${suffix}`));
      await t.stores.world.putOAuth2Token({
        access_token: `token-${suffix}`,
        user_id: ALICE,
        application_id: applicationId,
        scopes: ['identify'],
        expires_at: null,
      });
    }

    async function rowsOf(applicationId: string, suffix: string): Promise<number[]> {
      const { commands, interactions, world } = t.stores;
      return [
        (await commands.listCommands({ applicationId, guildId: null })).length,
        (await commands.listCommandPermissions(applicationId, GUILD_1)).length,
        (await interactions.getInteraction(applicationId, `18000000000000000${suffix}`)) ? 1 : 0,
        (await interactions.listActivityInstances(applicationId)).length,
        (await world.findOAuth2Token(`token-${suffix}`)) ? 1 : 0,
      ];
    }

    it('exports the world it was given: no signing keys, only the pre-issued tokens', async () => {
      const world = smallWorld();
      await t.stores.world.replaceWorld(world);
      await t.stores.world.putOAuth2Token({
        access_token: 'issued-later',
        user_id: BOB,
        application_id: APP_B,
        scopes: ['identify'],
        expires_at: t.now + 60_000,
      });
      const exported = await t.stores.world.exportWorld();
      assert.deepEqual(sorted(exported), sorted(world));
      for (const app of exported.applications) assert.equal('keys' in app, false, 'keys never leave the store');
    });

    it('an application gets Ed25519 keys once and keeps them through updates and world reloads', async () => {
      const stored = await t.stores.world.putApplication(application(APP_A, TOKEN_A));
      assert.match(stored.keys.verifyKey, /^[0-9a-f]{64}$/);
      assert.match(stored.keys.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
      const renamed = await t.stores.world.putApplication(application(APP_A, TOKEN_A, 'renamed'));
      assert.deepEqual(renamed.keys, stored.keys);
      await t.stores.world.replaceWorld(smallWorld());
      const reloaded = await t.stores.world.getApplication(APP_A);
      assert.deepEqual(reloaded?.keys, stored.keys);
      const other = await t.stores.world.getApplication(APP_B);
      assert.notEqual(other?.keys.verifyKey, stored.keys.verifyKey, 'every application has its own key');
    });

    it('get, list and the bot token lookup see the latest application; only the exact token matches', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      assert.equal((await t.stores.world.findApplicationByBotToken(TOKEN_A))?.id, APP_A);
      assert.equal((await t.stores.world.findApplicationByBotToken(TOKEN_B))?.id, APP_B);
      for (const wrong of [TOKEN_A.toUpperCase(), `${TOKEN_A} `, TOKEN_A.slice(0, -1), '']) {
        assert.equal(await t.stores.world.findApplicationByBotToken(wrong), null, JSON.stringify(wrong));
      }
      await t.stores.world.putApplication(application(APP_A, 'rotated', 'after rotation'));
      assert.equal(await t.stores.world.findApplicationByBotToken(TOKEN_A), null, 'the old token is refused');
      assert.equal((await t.stores.world.findApplicationByBotToken('rotated'))?.name, 'after rotation');
      assert.equal((await t.stores.world.getApplication(APP_A))?.name, 'after rotation');
      assert.deepEqual(
        byId(await t.stores.world.listApplications()).map((a) => a.id),
        [APP_A, APP_B],
      );
      assert.equal(await t.stores.world.getApplication('1100000000000000999'), null);
    });

    it('deleting an application deletes every row it owns, and no other application’s', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      await giveRowsTo(APP_A, '001');
      await giveRowsTo(APP_B, '002');
      assert.deepEqual(await rowsOf(APP_A, '001'), [1, 1, 1, 1, 1]);
      assert.equal(await t.stores.world.deleteApplication(APP_A), true);
      assert.equal(await t.stores.world.deleteApplication(APP_A), false, 'already gone');
      assert.equal(await t.stores.world.getApplication(APP_A), null);
      assert.equal(await t.stores.world.findApplicationByBotToken(TOKEN_A), null);
      assert.deepEqual(await rowsOf(APP_A, '001'), [0, 0, 0, 0, 0]);
      assert.deepEqual(await rowsOf(APP_B, '002'), [1, 1, 1, 1, 1]);
    });

    /**
     * The application goes while one of its planners is under way on another connection (started
     * from inside the planner): whatever the planner writes goes with it, nothing half-kept.
     */
    async function removedDuringPlanner(remove: (other: Store) => Promise<unknown>): Promise<void> {
      await t.stores.world.replaceWorld(smallWorld());
      const existing = command(APP_A, null, '1500000000000000001', 'existing');
      await t.stores.commands.mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({ insert: [existing] }),
        result: null,
      }));
      const other = await t.db.connect();
      let removing: Promise<unknown> = Promise.resolve();
      await t.stores.commands.mutateCommands(GLOBAL_A, () => {
        removing = Promise.resolve().then(() => remove(other));
        return {
          mutation: mutation({
            update: [{ ...existing, version: '1500000000000000003' }],
            insert: [command(APP_A, null, '1500000000000000002', 'added')],
          }),
          result: null,
        };
      });
      await removing;
      assert.equal(await t.stores.world.getApplication(APP_A), null);
      assert.deepEqual(await t.stores.commands.listCommands(GLOBAL_A), [], 'the planner’s rows went too');
    }

    it('deleting an application while its planner is under way elsewhere: its commands all go', async () => {
      await removedDuringPlanner(async (other) => assert.equal(await other.world.deleteApplication(APP_A), true));
    });

    it('replacing the world without an application while its planner is under way: its commands all go', async () => {
      const next = smallWorld();
      next.applications = next.applications.filter((a) => a.id !== APP_A);
      next.guilds = next.guilds.map((g) => ({ ...g, installs: g.installs.filter((i) => i.application_id !== APP_A) }));
      next.oauth2_tokens = next.oauth2_tokens.filter((token) => token.application_id !== APP_A);
      await removedDuringPlanner((other) => other.world.replaceWorld(next));
    });

    it('replacing the world drops what it leaves out; applications it keeps keep their commands', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      await giveRowsTo(APP_A, '001');
      await giveRowsTo(APP_B, '002');
      const next = smallWorld();
      next.applications = next.applications.filter((a) => a.id === APP_A);
      next.users = next.users.filter((u) => u.id === ALICE);
      next.guilds = next.guilds.filter((g) => g.id === GUILD_1);
      await t.stores.world.replaceWorld(next);
      assert.deepEqual(sorted(await t.stores.world.exportWorld()), sorted(next));
      assert.equal(await t.stores.world.getUser(BOB), null);
      assert.equal(await t.stores.world.getGuild(GUILD_2), null);
      assert.equal(await t.stores.world.findGuildByChannel(CHANNEL_2), null);
      assert.equal(
        (await t.stores.commands.listCommands({ applicationId: APP_A, guildId: null })).length,
        1,
        'a kept application keeps its commands',
      );
      assert.deepEqual(await rowsOf(APP_B, '002'), [0, 0, 0, 0, 0]);
    });

    it('merging adds and overwrites what the world names, and keeps the rest', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const carol = user('1200000000000000003', 'carol-token');
      await t.stores.world.mergeWorld({
        applications: [application(APP_B, TOKEN_B, 'merged name')],
        users: [carol],
        guilds: [],
        oauth2_tokens: [],
      });
      assert.equal((await t.stores.world.getApplication(APP_B))?.name, 'merged name');
      assert.equal((await t.stores.world.getApplication(APP_A))?.name, `app ${APP_A}`);
      assert.deepEqual(await t.stores.world.getUser(carol.id), carol);
      assert.equal((await t.stores.world.getUser(ALICE))?.id, ALICE);
      assert.equal((await t.stores.world.listGuilds()).length, 2);
    });

    it('users: put, get, find by exact token, list, delete', async () => {
      const alice = user(ALICE, 'alice-token');
      await t.stores.world.putUser(alice);
      await t.stores.world.putUser(user(BOB, 'bob-token'));
      assert.deepEqual(await t.stores.world.getUser(ALICE), alice);
      assert.deepEqual(await t.stores.world.findUserByToken('alice-token'), alice);
      assert.equal(await t.stores.world.findUserByToken('ALICE-TOKEN'), null);
      assert.deepEqual(
        byId(await t.stores.world.listUsers()).map((u) => u.id),
        [ALICE, BOB],
      );
      await t.stores.world.putUser({ ...alice, token: 'new-token', username: 'alice2' });
      assert.equal(await t.stores.world.findUserByToken('alice-token'), null, 'the old token is refused');
      assert.equal((await t.stores.world.findUserByToken('new-token'))?.username, 'alice2');
      assert.equal((await t.stores.world.getUser(ALICE))?.username, 'alice2');
      assert.equal(await t.stores.world.deleteUser(ALICE), true);
      assert.equal(await t.stores.world.deleteUser(ALICE), false);
      assert.equal(await t.stores.world.getUser(ALICE), null);
      assert.equal(await t.stores.world.findUserByToken('new-token'), null);
    });

    it('two users, or two applications, never share a token: the second write is refused', async () => {
      const { world } = t.stores;
      await world.putUser(user(ALICE, 'shared-token'));
      await assert.rejects(world.putUser(user(BOB, 'shared-token')), DuplicateTokenError);
      assert.equal(await world.getUser(BOB), null);
      assert.equal((await world.findUserByToken('shared-token'))?.id, ALICE);
      // The holder itself may write its token again, and give it up for another to take.
      await world.putUser(user(ALICE, 'shared-token', 'alice2'));
      await world.putUser(user(ALICE, 'alice-new'));
      await world.putUser(user(BOB, 'shared-token'));
      assert.equal((await world.findUserByToken('shared-token'))?.id, BOB);

      await world.putApplication(application(APP_A, TOKEN_A));
      await assert.rejects(world.putApplication(application(APP_B, TOKEN_A)), (error: unknown) => {
        assert.ok(error instanceof DuplicateTokenError);
        assert.equal(error.holder, 'application');
        return true;
      });
      assert.equal(await world.getApplication(APP_B), null);
      await world.putApplication(application(APP_A, TOKEN_A, 'renamed'));
      assert.equal((await world.findApplicationByBotToken(TOKEN_A))?.id, APP_A);
    });

    it('guilds: put, get, find by channel as the channels change, delete with its permissions', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      assert.equal((await t.stores.world.findGuildByChannel(CHANNEL_1B))?.id, GUILD_1);
      assert.equal((await t.stores.world.findGuildByChannel(CHANNEL_2))?.id, GUILD_2);
      assert.equal(await t.stores.world.findGuildByChannel('1400000000000000999'), null);
      await t.stores.world.putGuild(guild(GUILD_1, [CHANNEL_1], 'renamed'));
      assert.equal((await t.stores.world.getGuild(GUILD_1))?.name, 'renamed');
      assert.equal(await t.stores.world.findGuildByChannel(CHANNEL_1B), null, 'a channel taken out of the guild');
      assert.equal((await t.stores.world.findGuildByChannel(CHANNEL_1))?.name, 'renamed');

      for (const [applicationId, guildId] of [
        [APP_A, GUILD_1],
        [APP_B, GUILD_1],
        [APP_A, GUILD_2],
      ] as const) {
        await t.stores.commands.mutateCommandPermissions(applicationId, guildId, applicationId, () => [
          { id: ALICE, type: 2, permission: false },
        ]);
      }
      assert.equal(await t.stores.world.deleteGuild(GUILD_1), true);
      assert.equal(await t.stores.world.deleteGuild(GUILD_1), false);
      assert.equal(await t.stores.world.getGuild(GUILD_1), null);
      assert.equal(await t.stores.world.findGuildByChannel(CHANNEL_1), null);
      assert.deepEqual(await t.stores.commands.listCommandPermissions(APP_A, GUILD_1), []);
      assert.deepEqual(await t.stores.commands.listCommandPermissions(APP_B, GUILD_1), []);
      assert.equal(
        (await t.stores.commands.listCommandPermissions(APP_A, GUILD_2)).length,
        1,
        'other guilds keep theirs',
      );
      assert.deepEqual(
        (await t.stores.world.listGuilds()).map((g) => g.id),
        [GUILD_2],
      );
    });

    it('users by ids: those that exist, each once, in the order asked; a user read once is re-read after a write', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const missing = '1200000000000000999';
      assert.deepEqual(
        (await t.stores.world.getUsers([BOB, missing, ALICE, BOB])).map((u) => u.id),
        [BOB, ALICE],
      );
      assert.deepEqual(await t.stores.world.getUsers([]), []);
      assert.equal((await t.stores.world.getUser(BOB))?.username, `user-${BOB}`);
      await t.stores.world.putUser(user(BOB, 'bob-token', 'bob renamed'));
      assert.equal((await t.stores.world.getUser(BOB))?.username, 'bob renamed');
      assert.equal((await t.stores.world.getUsers([BOB]))[0]?.username, 'bob renamed');
      assert.equal((await t.stores.world.getUser(ALICE))?.username, `user-${ALICE}`, 'other users unchanged');
    });

    it('the guilds of an application: those its bot is in, by id, following writes', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      const ids = async (applicationId: string) =>
        (await t.stores.world.guildsOfApplication(applicationId)).map((g) => g.id);
      assert.deepEqual(await ids(APP_A), [GUILD_1, GUILD_2]);
      assert.deepEqual(await ids('1100000000000000999'), [], 'an application with no install');
      // Commands without the bot scope, and the bot of another application, do not count.
      const withoutBot = guild(GUILD_2, [CHANNEL_2]);
      withoutBot.installs = [
        { application_id: APP_A, scopes: ['applications.commands'], permissions: null },
        { application_id: APP_B, scopes: ['applications.commands', 'bot'], permissions: null },
      ];
      await t.stores.world.putGuild(withoutBot);
      assert.deepEqual(await ids(APP_A), [GUILD_1]);
      assert.deepEqual(await ids(APP_B), [GUILD_1, GUILD_2]);
      const [first] = await t.stores.world.guildsOfApplication(APP_B);
      assert.deepEqual(first, await t.stores.world.getGuild(GUILD_1), 'the whole guild');
      await t.stores.world.deleteGuild(GUILD_1);
      assert.deepEqual(await ids(APP_B), [GUILD_2]);
    });

    it('guild members: put adds or replaces in place, delete removes one; the guilds of a member follow', async () => {
      await t.stores.world.replaceWorld(smallWorld());
      assert.deepEqual(await t.stores.members.guildIdsOfMember(ALICE), [GUILD_1, GUILD_2]);
      assert.deepEqual(await t.stores.members.guildIdsOfMember(BOB), []);
      const bob = { user_id: BOB, roles: [], nick: 'bobby', joined_at: '2026-02-01T00:00:00.000Z' };
      assert.equal(await t.stores.members.putGuildMember(GUILD_1, bob), true);
      assert.deepEqual(
        (await t.stores.world.getGuild(GUILD_1))?.members.map((m) => m.user_id),
        [ALICE, BOB],
      );
      assert.deepEqual(await t.stores.members.guildIdsOfMember(BOB), [GUILD_1]);
      const renamedAlice = { user_id: ALICE, roles: [GUILD_1], nick: 'al', joined_at: '2026-01-01T00:00:00.000Z' };
      assert.equal(await t.stores.members.putGuildMember(GUILD_1, renamedAlice), true);
      const members = (await t.stores.world.getGuild(GUILD_1))?.members;
      assert.deepEqual(members, [renamedAlice, bob], 'replaced where it stood');
      assert.equal((await t.stores.world.getGuild(GUILD_2))?.members[0]?.nick, null, 'other guilds unchanged');

      assert.equal(await t.stores.members.deleteGuildMember(GUILD_1, ALICE), true);
      assert.equal(await t.stores.members.deleteGuildMember(GUILD_1, ALICE), false, 'already gone');
      assert.deepEqual(await t.stores.members.guildIdsOfMember(ALICE), [GUILD_2]);
      assert.deepEqual((await t.stores.world.getGuild(GUILD_1))?.members, [bob]);

      const unknownGuild = '1300000000000000999';
      assert.equal(await t.stores.members.putGuildMember(unknownGuild, bob), false);
      assert.equal(await t.stores.members.deleteGuildMember(unknownGuild, BOB), false);
      assert.equal(await t.stores.world.getGuild(unknownGuild), null, 'no guild appears');

      await t.stores.world.putGuild(guild(GUILD_1, [CHANNEL_1]));
      assert.deepEqual(await t.stores.members.guildIdsOfMember(BOB), [], 'a guild written whole sets its members');
      await t.stores.world.deleteGuild(GUILD_2);
      assert.deepEqual(await t.stores.members.guildIdsOfMember(ALICE), [GUILD_1]);
    });

    it('OAuth2 tokens: found by the exact secret until they expire by the store’s clock', async () => {
      const token = {
        access_token: 'issued',
        user_id: null,
        application_id: APP_A,
        scopes: ['applications.commands.update'],
        expires_at: t.now + 1000,
      };
      await t.stores.world.putOAuth2Token(token);
      assert.deepEqual(await t.stores.world.findOAuth2Token('issued'), token);
      assert.equal(await t.stores.world.findOAuth2Token('ISSUED'), null);
      // An issued token is stored as its digest only: listed without its text.
      assert.deepEqual(await t.stores.world.listOAuth2Tokens(), [{ ...token, access_token: '' }]);
      t.now += 999;
      assert.deepEqual(await t.stores.world.findOAuth2Token('issued'), token);
      t.now += 1;
      assert.equal(await t.stores.world.findOAuth2Token('issued'), null, 'expired at expires_at');
      await t.stores.world.putOAuth2Token({ ...token, access_token: 'forever', expires_at: null });
      t.now += 365 * 86_400_000;
      assert.equal(
        (await t.stores.world.findOAuth2Token('forever'))?.expires_at,
        null,
        'pre-issued tokens never expire',
      );
      assert.equal(await t.stores.world.deleteOAuth2Token('forever'), true);
      assert.equal(await t.stores.world.deleteOAuth2Token('forever'), false);
      assert.equal(await t.stores.world.findOAuth2Token('forever'), null);
    });

    it('a second connection reads what the first committed', async () => {
      const other = await t.db.connect();
      assert.equal(await other.world.getApplication(APP_A), null);
      await t.stores.world.replaceWorld(smallWorld());
      assert.equal((await other.world.findApplicationByBotToken(TOKEN_A))?.id, APP_A);
      await t.stores.world.putGuild(guild(GUILD_1, [CHANNEL_1], 'renamed'));
      assert.equal((await other.world.getGuild(GUILD_1))?.name, 'renamed');
      await other.world.putUser(user(ALICE, 'changed-token'));
      assert.equal((await t.stores.world.findUserByToken('changed-token'))?.id, ALICE);
      assert.equal(await t.stores.world.findUserByToken('alice-token'), null);
    });
  });
}
