/**
 * Issue 35, item 1: `PATCH /guilds/{g}/channels` (the reorder) checks each element as the channel's
 * own edit would. A bot that cannot see a channel cannot move it (50013, as `PATCH /channels/{id}`
 * answers), syncing overwrites (`lock_permissions`) needs MANAGE_ROLES in the channel and grants
 * only bits the bot holds, a bot cannot move a channel into a category it cannot see, and one
 * refused element leaves every channel as it was; on SQLite and PostgreSQL, through real HTTP.
 * An administrator bot, and a bot holding what a sync grants, still move and sync.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { Channel, Guild as WorldGuild, World } from '../../core/world/types.js';
import { installBot } from '../../../test/helpers/guild-admin.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { adminOk, startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  BOT,
  CAROL_TOKEN,
  CATEGORY,
  DEMO_APP_ID,
  GENERAL,
  HIDDEN,
  MODERATOR_ROLE,
  SECRET,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

/** #staff: hidden from @everyone (and so from the bot), seen by moderators. */
const STAFF = SECRET;
/** #mods: hidden from @everyone, seen by the bot through a member overwrite. */
const MODS = '1345183757107200016';
/** A category hidden from @everyone, the bot included. */
const LOCKED_CATEGORY = HIDDEN;
/** A category whose overwrites allow moderators MANAGE_MESSAGES (a bit the bot may lack). */
const GRANTING_CATEGORY = '1345183757107200021';

const { ViewChannel, SendMessages, ReadMessageHistory, ManageChannels, ManageRoles, ManageMessages, Administrator } =
  PermissionFlagsBits;
const BASE = ViewChannel | SendMessages | ReadMessageHistory;
const EVERYONE_DENY_VIEW = { id: TEST_GUILD_ID, type: 0 as const, allow: '0', deny: String(ViewChannel) };

function world(): World {
  const w = exampleWorld();
  const guild = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const text = (id: string, name: string, permission_overwrites: Channel['permission_overwrites']): Channel => ({
    id,
    type: 0,
    name,
    nsfw: false,
    parent_id: null,
    permission_overwrites,
  });
  guild.channels.push(
    text(STAFF, 'staff', [EVERYONE_DENY_VIEW, { id: MODERATOR_ROLE, type: 0, allow: String(ViewChannel), deny: '0' }]),
    text(MODS, 'mods', [EVERYONE_DENY_VIEW, { id: DEMO_APP_ID, type: 1, allow: String(ViewChannel), deny: '0' }]),
    { ...text(LOCKED_CATEGORY, 'locked', [EVERYONE_DENY_VIEW]), type: 4 },
    {
      ...text(GRANTING_CATEGORY, 'granting', [
        { id: MODERATOR_ROLE, type: 0, allow: String(ManageMessages), deny: '0' },
      ]),
      type: 4,
    },
  );
  return w;
}

for (const store of ['sqlite', 'postgres'] as const) {
  describe(`the channel reorder checks every element (${store})`, () => {
    let server: TestServer;
    const schema = freshSchemaName('r4_reorder');

    before(async () => {
      const options: ServerOptions =
        store === 'postgres'
          ? { world: world(), db: postgresConnectionString, config: { dbSchema: schema } }
          : { world: world() };
      server = await startServer(options);
    });
    after(async () => {
      await server.close();
      if (store === 'postgres') await dropSchema(schema);
    });

    const guild = async (): Promise<WorldGuild> =>
      (await adminOk(server, 'GET', `/guilds/${TEST_GUILD_ID}`)).body as WorldGuild;
    const channel = async (id: string): Promise<Channel> => (await guild()).channels.find((c) => c.id === id)!;
    const reorder = (body: unknown) =>
      server.request('PATCH', `/guilds/${TEST_GUILD_ID}/channels`, { auth: BOT, body });
    const botBits = (bits: bigint) => installBot(server, TEST_GUILD_ID, DEMO_APP_ID, BASE | bits);
    const carolReads = async (id: string) =>
      (await server.request('GET', `/channels/${id}/messages`, { auth: CAROL_TOKEN })).status;

    test('a bot that cannot see #staff cannot move it, synced or not, as its direct edit is refused', async () => {
      await botBits(ManageChannels);
      const before = await guild();
      const direct = await server.request('PATCH', `/channels/${STAFF}`, { auth: BOT, body: { parent_id: CATEGORY } });
      assert.equal(direct.status, 403, direct.text);
      assert.equal(direct.body.code, 50013);
      for (const body of [
        [{ id: STAFF, parent_id: CATEGORY, lock_permissions: true }],
        [{ id: STAFF, parent_id: CATEGORY }],
        [{ id: STAFF, position: 0 }],
      ]) {
        const moved = await reorder(body);
        assert.equal(moved.status, direct.status, `${JSON.stringify(body)}: ${moved.text}`);
        assert.equal(moved.body.code, direct.body.code);
      }
      // MANAGE_ROLES does not make a hidden channel movable either.
      await botBits(ManageChannels | ManageRoles);
      const synced = await reorder([{ id: STAFF, parent_id: CATEGORY, lock_permissions: true }]);
      assert.equal(synced.status, 403, synced.text);
      assert.equal(synced.body.code, 50013);
      assert.deepEqual((await guild()).channels, before.channels);
      assert.equal(await carolReads(STAFF), 403);
    });

    test('syncing overwrites needs MANAGE_ROLES; moving without a sync does not', async () => {
      await botBits(ManageChannels);
      const refused = await reorder([{ id: MODS, parent_id: CATEGORY, lock_permissions: true }]);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      assert.equal((await channel(MODS)).parent_id, null);
      const plain = await reorder([{ id: MODS, parent_id: CATEGORY }]);
      assert.equal(plain.status, 204, plain.text);
      const mods = await channel(MODS);
      assert.equal(mods.parent_id, CATEGORY);
      assert.equal(mods.permission_overwrites.length, 2, 'the overwrites stay');
      assert.equal(await carolReads(MODS), 403);
      // Back where it was, for the tests that follow.
      assert.equal((await reorder([{ id: MODS, parent_id: null }])).status, 204);
    });

    test('one refused element refuses the whole batch: nothing moves', async () => {
      await botBits(ManageChannels);
      const before = await guild();
      const batch = await reorder([
        { id: GENERAL, position: 7 },
        { id: MODS, parent_id: CATEGORY },
        { id: STAFF, position: 0 },
      ]);
      assert.equal(batch.status, 403, batch.text);
      assert.equal(batch.body.code, 50013);
      assert.deepEqual((await guild()).channels, before.channels);
    });

    test('a bot cannot move or create a channel into a category it cannot see, by reorder, edit or create', async () => {
      await botBits(ManageChannels | ManageRoles);
      const moved = await reorder([{ id: GENERAL, parent_id: LOCKED_CATEGORY }]);
      assert.equal(moved.status, 403, moved.text);
      assert.equal(moved.body.code, 50013);
      const edited = await server.request('PATCH', `/channels/${GENERAL}`, {
        auth: BOT,
        body: { parent_id: LOCKED_CATEGORY },
      });
      assert.equal(edited.status, 403, edited.text);
      assert.equal(edited.body.code, 50013);
      assert.equal((await channel(GENERAL)).parent_id, CATEGORY);
      const created = await server.request('POST', `/guilds/${TEST_GUILD_ID}/channels`, {
        auth: BOT,
        body: { name: 'blind', parent_id: LOCKED_CATEGORY },
      });
      assert.equal(created.status, 403, created.text);
      assert.equal(created.body.code, 50013);
      assert.ok(!(await guild()).channels.some((c) => c.name === 'blind'), 'nothing is created');
      const open = await server.request('POST', `/guilds/${TEST_GUILD_ID}/channels`, {
        auth: BOT,
        body: { name: 'seen', parent_id: CATEGORY },
      });
      assert.equal(open.status, 201, open.text);
    });

    test('a sync grants only bits the bot holds; with them it syncs', async () => {
      await botBits(ManageChannels | ManageRoles);
      const body = [{ id: MODS, parent_id: GRANTING_CATEGORY, lock_permissions: true }];
      const refused = await reorder(body);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      assert.equal((await channel(MODS)).permission_overwrites.length, 2);
      await botBits(ManageChannels | ManageRoles | ManageMessages);
      const synced = await reorder(body);
      assert.equal(synced.status, 204, synced.text);
      const mods = await channel(MODS);
      assert.equal(mods.parent_id, GRANTING_CATEGORY);
      assert.deepEqual(mods.permission_overwrites, (await channel(GRANTING_CATEGORY)).permission_overwrites);
    });

    test('an administrator bot still moves #staff into an open category and syncs it', async () => {
      await botBits(Administrator);
      const synced = await reorder([{ id: STAFF, parent_id: CATEGORY, lock_permissions: true }]);
      assert.equal(synced.status, 204, synced.text);
      const staff = await channel(STAFF);
      assert.equal(staff.parent_id, CATEGORY);
      assert.deepEqual(staff.permission_overwrites, []);
      assert.equal(await carolReads(STAFF), 200, 'the sync it was allowed took effect');
    });
  });
}
