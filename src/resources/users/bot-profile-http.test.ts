/**
 * A bot's own profile over HTTP and the gateway, on SQLite and PostgreSQL: `PATCH /users/@me`
 * renames the bot (trimmed) and sets its avatar and banner (data URIs; null removes them), answers
 * the bot's user object and sends USER_UPDATE to the bot's sessions alone; every later read of the
 * bot shows it (GET /users/@me, GET /users/{id}, its member object, its messages' author, READY and
 * GUILD_CREATE, member search, the dispatches of a world put again); the images are served at
 * `/avatars/{id}/{hash}` and `/banners/{id}/{hash}`. Refused names (the reserved words, the wrong
 * length), bad images and a third rename within the hour are 50035 at their paths and write
 * nothing; the hour is the node's clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayClient } from '../../../test/helpers/gateway-client.js';
import { pngImage } from '../../../test/helpers/images.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  MUTED_ROLE,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { USERNAME_CHANGE_WINDOW_MS } from './rules.js';

type Json = any;

const START = Date.UTC(2026, 11, 2, 12);
/** The demo bot's managed role, listed by the last test. */
const BOT_ROLE = '1345183757107200099';
const dataUri = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

function issuesAt(response: { status: number; body: Json; text: string }, field: string): string[] {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.code, 50035, response.text);
  return response.body.errors[field]._errors.map((e: Json) => e.code);
}

for (const store of ['SQLite', 'PostgreSQL'] as const) {
  describe(`a bot's own profile (${store})`, () => {
    let server: TestServer;
    let nowMs = START;
    const schema = freshSchemaName('r8_bot_profiles');

    before(async () => {
      const options: ServerOptions =
        store === 'PostgreSQL' ? { db: postgresConnectionString, config: { dbSchema: schema } } : {};
      server = await startServer({ ...options, now: () => nowMs });
    });
    after(async () => {
      await server?.close();
      if (store === 'PostgreSQL') await dropSchema(schema);
    });

    const patch = (body: Json, auth = BOT) => server.request('PATCH', '/users/@me', { auth, body });

    test('refusals name their field and write nothing', async () => {
      for (const [username, code] of [
        ['x', 'BASE_TYPE_BAD_LENGTH'],
        ['a'.repeat(33), 'BASE_TYPE_BAD_LENGTH'],
        ['   y   ', 'BASE_TYPE_BAD_LENGTH'],
        ['My Discord Bot', 'USERNAME_INVALID_CONTAINS'],
        ['clyde helper', 'USERNAME_INVALID_CONTAINS'],
        ['a@b', 'USERNAME_INVALID_CONTAINS'],
        ['everyone', 'USERNAME_INVALID'],
        ['HERE', 'USERNAME_INVALID'],
        [42, 'STRING_TYPE_CONVERT'],
      ] as const) {
        assert.deepEqual(issuesAt(await patch({ username }), 'username'), [code], String(username));
      }
      assert.deepEqual(issuesAt(await patch({ avatar: 'data:image/png;base64,AAAA' }), 'avatar'), ['IMAGE_INVALID']);
      assert.deepEqual(issuesAt(await patch({ banner: 'https://example.com/a.png' }), 'banner'), ['IMAGE_INVALID']);
      const bad = await patch({ username: 'Fine Name', avatar: 'nope' });
      assert.deepEqual(issuesAt(bad, 'avatar'), ['IMAGE_INVALID']);
      const me = await server.request('GET', '/users/@me', { auth: BOT });
      assert.equal(me.body.username, 'Demo Bot', 'nothing written by a refused body');
      assert.equal((await patch({ username: 'Bot' }, ALICE_TOKEN)).status, 401, 'a user token is not a bot');
    });

    test('a rename and images: answered, dispatched to the bot alone, and shown by every read', async () => {
      const own = await GatewayClient.connect(server.url);
      const other = await GatewayClient.connect(server.url);
      try {
        await own.login(DEMO_BOT_TOKEN, 1);
        await other.login(OTHER_BOT_TOKEN, 1);
        const avatar = pngImage(4, 4);
        const banner = pngImage(6, 3);
        const edited = await patch({ username: '  Renamed Bot ', avatar: dataUri(avatar), banner: dataUri(banner) });
        assert.equal(edited.status, 200, edited.text);
        assert.equal(edited.body.id, DEMO_APP_ID);
        assert.equal(edited.body.username, 'Renamed Bot');
        assert.equal(edited.body.bot, true);
        assert.match(edited.body.avatar, /^[0-9a-f]{32}$/);
        assert.match(edited.body.banner, /^[0-9a-f]{32}$/);
        const dispatched = await own.nextDispatch('USER_UPDATE');
        assert.deepEqual(dispatched.d, edited.body);

        const image = await fetch(`${server.url}/avatars/${DEMO_APP_ID}/${edited.body.avatar}.png`);
        assert.equal(image.status, 200);
        assert.equal(image.headers.get('content-type'), 'image/png');
        assert.deepEqual(Buffer.from(await image.arrayBuffer()), avatar);
        const bannerImage = await fetch(`${server.url}/banners/${DEMO_APP_ID}/${edited.body.banner}.png`);
        assert.deepEqual(Buffer.from(await bannerImage.arrayBuffer()), banner);
        assert.equal((await fetch(`${server.url}/avatars/${DEMO_APP_ID}/${'0'.repeat(32)}.png`)).status, 404);

        const expected = { username: 'Renamed Bot', avatar: edited.body.avatar, banner: edited.body.banner };
        const shown = (user: Json) => ({ username: user.username, avatar: user.avatar, banner: user.banner });
        assert.deepEqual(shown((await server.request('GET', '/users/@me', { auth: BOT })).body), expected);
        const byId = await server.request('GET', `/users/${DEMO_APP_ID}`, { auth: ALICE_TOKEN });
        assert.deepEqual(shown(byId.body), expected);
        const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${DEMO_APP_ID}`, { auth: BOT });
        assert.deepEqual(shown(member.body.user), expected, member.text);
        const search = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/search?query=renamed&limit=10`, {
          auth: BOT,
        });
        assert.deepEqual(
          search.body.map((m: Json) => m.user.id),
          [DEMO_APP_ID],
          'found by its new name',
        );
        const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
          auth: BOT,
          body: { content: 'hi' },
        });
        assert.equal(sent.status, 200, sent.text);
        assert.deepEqual(shown(sent.body.author), expected);
        const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: BOT });
        assert.deepEqual(shown(read.body.author), expected);
        const application = await server.request('GET', '/applications/@me', { auth: BOT });
        assert.equal(application.body.name, 'Demo Bot', 'the application keeps its own name');
        assert.deepEqual(shown(application.body.bot), expected);

        const again = await GatewayClient.connect(server.url);
        try {
          const ready = await again.login(DEMO_BOT_TOKEN, 1);
          assert.deepEqual(shown(ready.d.user), expected);
          const created = await again.next((p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID, 'GUILD_CREATE');
          const botMember = created.d.members.find((m: Json) => m.user.id === DEMO_APP_ID);
          assert.deepEqual(shown(botMember.user), expected, 'the bot’s member in GUILD_CREATE');
        } finally {
          again.close();
        }

        const removed = await patch({ avatar: null, banner: null });
        assert.equal(removed.status, 200, removed.text);
        assert.deepEqual(shown(removed.body), { username: 'Renamed Bot', avatar: null, banner: null });
        assert.equal((await own.nextDispatch('USER_UPDATE')).d.avatar, null);
        assert.equal((await fetch(`${server.url}/avatars/${DEMO_APP_ID}/${edited.body.avatar}.png`)).status, 404);

        // The other bot's session got neither USER_UPDATE: the next dispatch it sees is its own.
        const otherEdit = await patch({ username: 'Other Renamed' }, `Bot ${OTHER_BOT_TOKEN}`);
        assert.equal(otherEdit.status, 200, otherEdit.text);
        const first = await other.next((p) => p.op === 0 && p.t === 'USER_UPDATE', 'USER_UPDATE');
        assert.equal(first.d.username, 'Other Renamed');
      } finally {
        own.close();
        other.close();
      }
    });

    test('two renames an hour: the third is USERNAME_RATE_LIMIT until the hour has passed', async () => {
      nowMs += USERNAME_CHANGE_WINDOW_MS; // The first test's rename is out of the window.
      assert.equal((await patch({ username: 'First Name' })).status, 200);
      assert.equal((await patch({ username: 'First Name' })).status, 200, 'the same name is no change');
      assert.equal((await patch({ username: 'Second Name' })).status, 200);
      assert.deepEqual(issuesAt(await patch({ username: 'Third Name' }), 'username'), ['USERNAME_RATE_LIMIT']);
      assert.equal((await patch({ avatar: null })).status, 200, 'images are not limited');
      assert.equal((await server.request('GET', '/users/@me', { auth: BOT })).body.username, 'Second Name');
      nowMs += USERNAME_CHANGE_WINDOW_MS;
      const later = await patch({ username: 'Third Name' });
      assert.equal(later.status, 200, later.text);
      assert.equal(later.body.username, 'Third Name');
    });
    test('the world put again (the bot’s managed role listed): GUILD_MEMBER_UPDATE shows the bot’s own name, kept', async () => {
      const me = await server.request('GET', '/users/@me', { auth: BOT });
      const gateway = await GatewayClient.connect(server.url);
      try {
        await gateway.login(DEMO_BOT_TOKEN, 1 | 2);
        // The whole world put again, the bot's managed role added: the world file names no profile.
        const world = (await server.request('GET', `${server.url}/admin/world`, { auth: ADMIN_AUTH })).body;
        const guild = world.guilds.find((g: Json) => g.id === TEST_GUILD_ID);
        const at = guild.roles.findIndex((r: Json) => r.id === MUTED_ROLE);
        guild.roles.splice(at, 0, { id: BOT_ROLE, name: 'Demo', permissions: '0', bot_id: DEMO_APP_ID });
        const put = await server.request('PUT', `${server.url}/admin/world`, { auth: ADMIN_AUTH, body: world });
        assert.equal(put.status, 200, put.text);
        const update = await gateway.next(
          (p) => p.t === 'GUILD_MEMBER_UPDATE' && p.d.user?.id === DEMO_APP_ID,
          'GUILD_MEMBER_UPDATE of the bot',
        );
        assert.deepEqual(update.d.roles, [BOT_ROLE]);
        assert.equal(update.d.user.username, me.body.username);
        assert.notEqual(update.d.user.username, 'Demo Bot', 'not the application’s name');
        const after = await server.request('GET', '/users/@me', { auth: BOT });
        assert.equal(after.body.username, me.body.username, 'a world put again keeps what the bot set');
      } finally {
        gateway.close();
      }
    });
  });
}
