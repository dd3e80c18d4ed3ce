/**
 * Invites over real HTTP on SQLite and PostgreSQL, with a bot watching the gateway: who may create,
 * list and delete (50013 without the permission, 50001 for a hidden channel or another app's guild,
 * 50024 for a category), bad bodies (50035 at their paths, nothing written), a user joining by
 * invite (GUILD_MEMBER_ADD, `uses` counted, the invite gone after its last use with INVITE_DELETE),
 * expiry by the node's clock, and every request and answer checked against the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOT,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  GENERAL,
  NSFW_LOUNGE,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  SECRET,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

/** CREATE_INSTANT_INVITE, MANAGE_CHANNELS and MANAGE_GUILD. */
const INVITE_BITS = (1n << 0n) | (1n << 4n) | (1n << 5n);
const OTHER_BOT = `Bot ${OTHER_BOT_TOKEN}`;

function describeInvites(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: invites over HTTP`, () => {
    let server: TestServer;
    let watcher: Client;
    let nowMs = Date.now();
    const raw = new Inbox<RawDispatch>((p) => `${p.t} ${p.d?.code ?? p.d?.user?.id ?? ''}`);

    before(async () => {
      server = withSchemaChecks(await startServer({ ...options(), world: gatewayWorld(), now: () => nowMs }));
      watcher = await watchingBot(
        server,
        DEMO_BOT_TOKEN,
        [GatewayIntentBits.Guilds, GatewayIntentBits.GuildInvites, GatewayIntentBits.GuildMembers],
        raw,
      );
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    async function create(body: Json, channelId = GENERAL, auth = BOT) {
      assertMatchesSchema('CreateGuildInviteRequest', body);
      return server.request('POST', `/channels/${channelId}/invites`, { auth, body });
    }
    function fieldErrors(response: { status: number; body: Json }): string[] {
      assert.equal(response.status, 400);
      assert.equal(response.body.code, 50035);
      return Object.keys(response.body.errors as Json).sort();
    }

    test('without CREATE_INSTANT_INVITE: 50013; a hidden channel or another app’s guild: 50001; nothing listed', async () => {
      const refused = await create({ max_age: 3600 });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, INVITE_BITS);
      const hidden = await create({}, SECRET);
      assert.equal(hidden.status, 403, hidden.text);
      assert.equal(hidden.body.code, 50001);
      const foreign = await create({}, SECOND_GUILD_CHANNEL);
      assert.equal(foreign.status, 403, foreign.text);
      assert.equal(foreign.body.code, 50001);
      const foreignList = await server.request('GET', `/guilds/${SECOND_GUILD_ID}/invites`, { auth: BOT });
      assert.equal(foreignList.body.code, 50001);
      const category = await create({}, CATEGORY);
      assert.equal(category.status, 400, category.text);
      assert.equal(category.body.code, 50024);
      const listed = await server.request('GET', `/guilds/${TEST_GUILD_ID}/invites`, { auth: BOT });
      assert.deepEqual(listed.body, []);
    });

    test('bad bodies: 50035 at each field, and nothing written', async () => {
      const bad = (body: unknown) => server.request('POST', `/channels/${GENERAL}/invites`, { auth: BOT, body });
      assert.deepEqual(fieldErrors(await bad({ max_age: 604_801, max_uses: -1 })), ['max_age', 'max_uses']);
      assert.deepEqual(fieldErrors(await bad({ max_uses: 101, temporary: 'yes' })), ['max_uses', 'temporary']);
      assert.deepEqual(fieldErrors(await bad({ target_type: 3 })), ['target_type']);
      assert.deepEqual(fieldErrors(await bad({ target_type: 1 })), ['target_user_id']);
      assert.deepEqual(fieldErrors(await bad({ target_type: 2, target_application_id: 'x' })), [
        'target_application_id',
      ]);
      assert.deepEqual(fieldErrors(await bad([1])), ['_errors']);
      const listed = await server.request('GET', `/channels/${GENERAL}/invites`, { auth: BOT });
      assert.deepEqual(listed.body, []);
    });

    test('create: v10’s invite with metadata and INVITE_CREATE; without `unique` an equal one is given again', async () => {
      const made = await create({ max_age: 3600, max_uses: 5 });
      assert.equal(made.status, 200, made.text);
      assertMatchesSchema('GuildInviteResponse', made.body);
      const invite = made.body as Json;
      assert.match(invite.code, /^[A-Za-z0-9]{8}$/);
      assert.equal(invite.guild.id, TEST_GUILD_ID);
      assert.equal(invite.channel.id, GENERAL);
      assert.equal(invite.inviter.id, DEMO_APP_ID);
      assert.deepEqual([invite.uses, invite.max_uses, invite.max_age, invite.temporary], [0, 5, 3600, false]);
      assert.equal(Date.parse(invite.expires_at) - Date.parse(invite.created_at), 3_600_000);
      const event = await raw.find((p) => p.t === 'INVITE_CREATE' && p.d.code === invite.code, 'INVITE_CREATE');
      assert.deepEqual([event.d.channel_id, event.d.guild_id, event.d.max_uses], [GENERAL, TEST_GUILD_ID, 5]);

      const again = await create({ max_age: 3600, max_uses: 5 });
      assert.equal(again.body.code, invite.code, 'not unique: the same invite');
      const unique = await create({ max_age: 3600, max_uses: 5, unique: true });
      assert.notEqual(unique.body.code, invite.code);
      const channelList = await server.request('GET', `/channels/${GENERAL}/invites`, { auth: BOT });
      assert.deepEqual((channelList.body as Json[]).map((i) => i.code).sort(), [invite.code, unique.body.code].sort());
      for (const listed of channelList.body as Json[]) assertMatchesSchema('GuildInviteResponse', listed);
      const lounge = await create({ max_age: 0 }, NSFW_LOUNGE);
      assert.equal(lounge.body.expires_at, null, 'max_age 0 never expires');
      const guildList = await server.request('GET', `/guilds/${TEST_GUILD_ID}/invites`, { auth: BOT });
      assert.equal((guildList.body as Json[]).length, 3);
    });

    test('anyone holding the code reads it, with counts; listing needs MANAGE_CHANNELS / MANAGE_GUILD', async () => {
      const made = await create({ max_age: 600, unique: true });
      const read = await server.request('GET', `/invites/${made.body.code}?with_counts=true&with_expiration=true`, {
        auth: ERIN_TOKEN,
      });
      assert.equal(read.status, 200, read.text);
      assertMatchesSchema('GuildInviteResponse', read.body);
      assert.equal(read.body.approximate_member_count, 6, 'four users and two bots');
      assert.equal(read.body.uses, undefined, 'no metadata for a reader');
      const unknown = await server.request('GET', '/invites/nope-nope', { auth: ERIN_TOKEN });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 10006);
      const byAlice = await server.request('GET', `/guilds/${TEST_GUILD_ID}/invites`, { auth: ALICE_TOKEN });
      assert.equal(byAlice.status, 200, 'the owner may');
      const byOther = await server.request('GET', `/channels/${GENERAL}/invites`, { auth: OTHER_BOT });
      assert.equal(byOther.status, 403);
      assert.equal(byOther.body.code, 50013);
    });

    test('a user joins by invite: GUILD_MEMBER_ADD, uses counted; the last use deletes it (INVITE_DELETE)', async () => {
      const made = await create({ max_uses: 1, unique: true });
      const code = made.body.code as string;
      const byBot = await server.request('POST', `/invites/${code}`, { auth: BOT, body: {} });
      assert.equal(byBot.status, 403);
      assert.equal(byBot.body.code, 20001);
      const joined = await server.request('POST', `/invites/${code}`, { auth: ERIN_TOKEN, body: {} });
      assert.equal(joined.status, 200, joined.text);
      assert.equal(joined.body.new_member, true);
      assert.equal(joined.body.guild.id, TEST_GUILD_ID);
      const added = await raw.find((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.user?.id === ERIN_ID, 'GUILD_MEMBER_ADD');
      assert.deepEqual([added.d.guild_id, added.d.roles], [TEST_GUILD_ID, []]);
      await raw.find((p) => p.t === 'INVITE_DELETE' && p.d.code === code, 'INVITE_DELETE after the last use');
      const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, { auth: BOT });
      assert.equal(member.status, 200, member.text);
      const gone = await server.request('GET', `/invites/${code}`, { auth: ERIN_TOKEN });
      assert.equal(gone.body.code, 10006);

      const other = await create({ max_uses: 3, unique: true });
      const again = await server.request('POST', `/invites/${other.body.code}`, { auth: ERIN_TOKEN, body: {} });
      assert.equal(again.body.new_member, false, 'a member joins nothing');
      const listed = (await server.request('GET', `/channels/${GENERAL}/invites`, { auth: BOT })).body as Json[];
      assert.equal(listed.find((i) => i.code === other.body.code)?.uses, 0, 'and uses nothing');
    });

    test('expiry by the node’s clock: an invite past its max_age is gone (10006), from reads, lists and joins', async () => {
      const made = await create({ max_age: 60, unique: true });
      const code = made.body.code as string;
      nowMs += 61_000;
      const read = await server.request('GET', `/invites/${code}`, { auth: ERIN_TOKEN });
      assert.equal(read.body.code, 10006);
      const listed = (await server.request('GET', `/guilds/${TEST_GUILD_ID}/invites`, { auth: BOT })).body as Json[];
      assert.ok(!listed.some((i) => i.code === code));
      const join = await server.request('POST', `/invites/${code}`, { auth: ALICE_TOKEN, body: {} });
      assert.equal(join.body.code, 10006);
    });

    test('delete: 50013 without MANAGE_CHANNELS or MANAGE_GUILD; INVITE_DELETE, then 10006', async () => {
      const made = await create({ unique: true });
      const code = made.body.code as string;
      const refused = await server.request('DELETE', `/invites/${code}`, { auth: OTHER_BOT });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      const deleted = await server.request('DELETE', `/invites/${code}`, {
        auth: BOT,
        headers: { 'x-audit-log-reason': 'tidy' },
      });
      assert.equal(deleted.status, 200, deleted.text);
      assertMatchesSchema('GuildInviteResponse', deleted.body);
      await raw.find((p) => p.t === 'INVITE_DELETE' && p.d.code === code, 'INVITE_DELETE');
      const again = await server.request('DELETE', `/invites/${code}`, { auth: BOT });
      assert.equal(again.body.code, 10006);
    });

    test('a channel deleted takes its invites with it', async () => {
      const made = await create({ unique: true }, NSFW_LOUNGE);
      const removed = await server.request('DELETE', `/channels/${NSFW_LOUNGE}`, { auth: `Bot ${DEMO_BOT_TOKEN}` });
      assert.equal(removed.status, 200, removed.text);
      const read = await server.request('GET', `/invites/${made.body.code}`, { auth: ERIN_TOKEN });
      assert.equal(read.body.code, 10006);
    });
  });
}

describeInvites(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_invites');
describeInvites(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
