/**
 * Joining and leaving without an invite, over real HTTP on SQLite and PostgreSQL with a bot
 * watching the gateway: a bot adds a user with their `guilds.join` token (`PUT
 * /guilds/{g}/members/{u}`: 201 with the member, 204 after; 50013 without CREATE_INSTANT_INVITE,
 * 50025 for another app's or user's token, 50026 without the scope, 50035 for a bad body), a user
 * reads their member (`guilds.members.read`) and leaves (GUILD_MEMBER_REMOVE; the owner may not),
 * and a bot leaves (its guild gone from its reads).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_ID,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  MUTED_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** CREATE_INSTANT_INVITE, MANAGE_NICKNAMES and MANAGE_ROLES. */
const JOIN_BITS = (1n << 0n) | (1n << 27n) | (1n << 28n);

/** The gateway world with ERIN's tokens of the demo app: `guilds.join`, `guilds.members.read`, and one with neither. */
function joiningWorld(): World {
  const world = gatewayWorld();
  world.oauth2_tokens.push(
    { access_token: 'erin-join', user_id: ERIN_ID, application_id: DEMO_APP_ID, scopes: ['identify', 'guilds.join'] },
    { access_token: 'erin-read', user_id: ERIN_ID, application_id: DEMO_APP_ID, scopes: ['guilds.members.read'] },
    { access_token: 'erin-other', user_id: ERIN_ID, application_id: OTHER_APP_ID, scopes: ['guilds.join'] },
    { access_token: 'bob-join', user_id: BOB_ID, application_id: DEMO_APP_ID, scopes: ['guilds.join'] },
  );
  return world;
}

function describeJoining(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: joining and leaving guilds`, () => {
    let server: TestServer;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => `${p.t} ${p.d?.user?.id ?? ''}`);

    before(async () => {
      server = withSchemaChecks(await startServer({ ...options(), world: joiningWorld() }));
      watcher = await watchingBot(
        server,
        DEMO_BOT_TOKEN,
        [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
        raw,
      );
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    function add(body: unknown, userId = ERIN_ID) {
      return server.request('PUT', `/guilds/${TEST_GUILD_ID}/members/${userId}`, { auth: BOT, body });
    }
    function code(response: { body: any }): number {
      return response.body.code as number;
    }

    test('PUT refused: no CREATE_INSTANT_INVITE (50013), a token not of this app and user (50025), no guilds.join (50026), a bad body (50035)', async () => {
      assert.equal(code(await add({ access_token: 'erin-join' })), 50013);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, JOIN_BITS);
      assert.equal(code(await add({ access_token: 'erin-other' })), 50025, 'another app’s token');
      assert.equal(code(await add({ access_token: 'bob-join' })), 50025, 'another user’s token');
      assert.equal(code(await add({ access_token: 'nothing' })), 50025);
      assert.equal(code(await add({ access_token: 'erin-read' })), 50026);
      assert.equal(code(await add({ access_token: 'erin-join', roles: [MUTED_ROLE] })), 50013, 'a role above the bot');
      const bad = await add({ nick: 'n'.repeat(33), roles: ['x'] });
      assert.equal(bad.status, 400, bad.text);
      assert.deepEqual(Object.keys(bad.body.errors).sort(), ['access_token', 'nick', 'roles']);
      const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, { auth: BOT });
      assert.equal(member.status, 404, 'nobody added');
    });

    test('PUT with guilds.join: 201 with the member and GUILD_MEMBER_ADD; again: 204', async () => {
      const body = { access_token: 'erin-join', nick: 'erin!', roles: [TEST_GUILD_ID] };
      assertMatchesSchema('BotAddGuildMemberRequest', body);
      const added = await add(body);
      assert.equal(added.status, 201, added.text);
      assertMatchesSchema('GuildMemberResponse', added.body);
      assert.equal(added.body.user.id, ERIN_ID);
      assert.deepEqual([added.body.nick, added.body.roles], ['erin!', []], '@everyone is not listed');
      const event = await raw.find((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.user?.id === ERIN_ID, 'GUILD_MEMBER_ADD');
      assert.equal(event.d.guild_id, TEST_GUILD_ID);
      const again = await add({ access_token: 'erin-join' });
      assert.equal(again.status, 204, again.text);
    });

    test('GET /users/@me/guilds/{g}/member: the user’s own member, with guilds.members.read', async () => {
      const path = `/users/@me/guilds/${TEST_GUILD_ID}/member`;
      const bearer = await server.request('GET', path, { auth: 'Bearer erin-read' });
      assert.equal(bearer.status, 200, bearer.text);
      assertMatchesSchema('PrivateGuildMemberResponse', bearer.body);
      assert.equal(bearer.body.user.id, ERIN_ID);
      const unscoped = await server.request('GET', path, { auth: 'Bearer erin-join' });
      assert.equal(code(unscoped), 50026);
      const user = await server.request('GET', path, { auth: ERIN_TOKEN });
      assert.equal(user.status, 200, user.text);
    });

    test('DELETE /users/@me/guilds/{g}: a user leaves (GUILD_MEMBER_REMOVE), the owner may not, a bot leaves', async () => {
      const owner = await server.request('DELETE', `/users/@me/guilds/${TEST_GUILD_ID}`, { auth: ALICE_TOKEN });
      assert.equal(owner.status, 400, owner.text);
      assert.equal(code(owner), 50055);
      const left = await server.request('DELETE', `/users/@me/guilds/${TEST_GUILD_ID}`, { auth: ERIN_TOKEN });
      assert.equal(left.status, 204, left.text);
      await raw.find((p) => p.t === 'GUILD_MEMBER_REMOVE' && p.d.user?.id === ERIN_ID, 'GUILD_MEMBER_REMOVE');
      const gone = await server.request('GET', `/users/@me/guilds/${TEST_GUILD_ID}/member`, { auth: ERIN_TOKEN });
      assert.equal(code(gone), 10004);
      const again = await server.request('DELETE', `/users/@me/guilds/${TEST_GUILD_ID}`, { auth: ERIN_TOKEN });
      assert.equal(code(again), 10004);

      const other = `Bot ${OTHER_BOT_TOKEN}`;
      assert.equal((await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: other })).status, 200);
      const botLeft = await server.request('DELETE', `/users/@me/guilds/${TEST_GUILD_ID}`, { auth: other });
      assert.equal(botLeft.status, 204, botLeft.text);
      const after = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: other });
      assert.equal(code(after), 50001, 'the bot is no longer in the guild');
    });
  });
}

describeJoining(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_joining');
describeJoining(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
