/**
 * Application emojis over HTTP on SQLite and PostgreSQL, every request body and answer checked
 * against the OpenAPI document's operations: bad bodies are 50035 at their fields and write nothing,
 * a name once per app (50035 APPLICATION_EMOJI_NAME_ALREADY_TAKEN), the 2,000 bound (30008), the
 * emoji's `user` the app's bot, another app's path (20012) and a user's token (401), the image at
 * `/emojis/{id}.{ext}`, and reactions with it by its app's bot in any guild (10014 for anyone
 * else), named in the message's `reactions`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits, installBot } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { gifHead, pngImage } from '../../../test/helpers/images.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { APPLICATION_EMOJIS_MAX } from './rules.js';

type Json = Record<string, any>;

const OTHER_BOT = `Bot ${OTHER_BOT_TOKEN}`;
const LIST = '/applications/{application_id}/emojis';
const ONE = '/applications/{application_id}/emojis/{emoji_id}';
const PNG = pngImage(2, 2);
const pngUri = `data:image/png;base64,${PNG.toString('base64')}`;
// discord.js names every Buffer image/jpg: the type is the bytes'.
const gifUri = `data:image/jpg;base64,${gifHead(2, 2).toString('base64')}`;

function describeApplicationEmojis(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: application emojis over HTTP`, () => {
    let server: TestServer;
    const base = `/applications/${DEMO_APP_ID}/emojis`;

    before(async () => {
      server = await startServer(options());
      // The bot reacts in the test guild, and in a second guild it is installed in for it.
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.AddReactions);
      const { ViewChannel, SendMessages, ReadMessageHistory, AddReactions } = PermissionFlagsBits;
      await installBot(
        server,
        SECOND_GUILD_ID,
        DEMO_APP_ID,
        ViewChannel | SendMessages | ReadMessageHistory | AddReactions,
      );
    });
    after(async () => {
      await server?.close();
      await cleanup();
    });

    /** A call whose body (when one is sent and `schemaBody`) is the operation's request, and whose answer its status's. */
    async function call(method: string, template: string, path: string, body?: unknown, auth = BOT, schemaBody = true) {
      if (body !== undefined && schemaBody) assertMatchesOperation(method, template, 'request', body);
      const response = await server.request(method, path, { auth, body });
      if (response.status >= 400) assertErrorBody(response.status, response.body);
      else if (response.status === 204) assert.equal(response.text, '');
      else assertMatchesOperation(method, template, response.status, response.body);
      return response;
    }

    async function names(path = base, auth = BOT): Promise<string[]> {
      const list = await call('GET', LIST, path, undefined, auth);
      assert.equal(list.status, 200, list.text);
      return (list.body.items as Json[]).map((emoji) => emoji.name);
    }

    function fieldCodes(response: { status: number; body: Json; text: string }): Record<string, string[]> {
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.code, 50035);
      return Object.fromEntries(
        Object.entries(response.body.errors as Json).map(([field, node]) => [
          field,
          ((field === '_errors' ? node : node._errors) as Json[]).map((e) => e.code),
        ]),
      );
    }

    test('bad bodies are 50035 at their fields and write nothing', async () => {
      assert.deepEqual(fieldCodes(await call('POST', LIST, base, { name: 'a', image: pngUri }, BOT, false)), {
        name: ['BASE_TYPE_BAD_LENGTH'],
      });
      assert.deepEqual(fieldCodes(await call('POST', LIST, base, { name: 'no-dash', image: pngUri })), {
        name: ['STRING_TYPE_REGEX'],
      });
      assert.deepEqual(fieldCodes(await call('POST', LIST, base, { name: 'ok_name' }, BOT, false)), {
        image: ['BASE_TYPE_REQUIRED'],
      });
      assert.deepEqual(
        fieldCodes(await call('POST', LIST, base, { name: 'ok_name', image: 'data:image/png;base64,AAAA' })),
        {
          image: ['IMAGE_INVALID'],
        },
      );
      assert.deepEqual(fieldCodes(await call('POST', LIST, base, [1], BOT, false)), { _errors: ['DICT_TYPE_CONVERT'] });
      assert.deepEqual(await names(), []);
    });

    test("create, list, read, rename: the app's bot is the emoji's user, a GIF is animated, a name is taken once", async () => {
      const made = await call('POST', LIST, base, { name: 'slashd_logo', image: pngUri });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.name, 'slashd_logo');
      assert.equal(made.body.animated, false);
      assert.deepEqual(made.body.roles, []);
      assert.equal(made.body.user.id, DEMO_APP_ID);
      assert.equal(made.body.user.bot, true);
      const gif = await call('POST', LIST, base, { name: 'spinner', image: gifUri });
      assert.equal(gif.status, 201, gif.text);
      assert.equal(gif.body.animated, true);

      const taken = await call('POST', LIST, base, { name: 'slashd_logo', image: pngUri });
      assert.deepEqual(fieldCodes(taken), { name: ['APPLICATION_EMOJI_NAME_ALREADY_TAKEN'] });
      assert.deepEqual(await names(), ['slashd_logo', 'spinner']);

      const read = await call('GET', ONE, `${base}/${made.body.id}`);
      assert.deepEqual(read.body, made.body);
      const renamed = await call('PATCH', ONE, `${base}/${made.body.id}`, { name: 'logo' });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.name, 'logo');
      const clash = await call('PATCH', ONE, `${base}/${made.body.id}`, { name: 'spinner' });
      assert.deepEqual(fieldCodes(clash), { name: ['APPLICATION_EMOJI_NAME_ALREADY_TAKEN'] });
      assert.deepEqual(fieldCodes(await call('PATCH', ONE, `${base}/${made.body.id}`, { name: 'x y' })), {
        name: ['STRING_TYPE_REGEX'],
      });
      assert.deepEqual(await names(), ['logo', 'spinner'], 'the refused renames changed nothing');

      const image = await fetch(`${server.url}/emojis/${made.body.id}.png`);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await image.arrayBuffer()), PNG);
      const webp = await fetch(`${server.url}/emojis/${gif.body.id}.webp`);
      assert.equal(webp.headers.get('content-type'), 'image/gif', 'the stored type, whatever the extension');
    });

    test("only the app's own bot reaches its emojis: another app's is 20012, a user's token 401", async () => {
      const [emoji] = (await call('GET', LIST, base)).body.items as Json[];
      const foreign = await call('GET', LIST, base, undefined, OTHER_BOT);
      assert.deepEqual([foreign.status, foreign.body.code], [403, 20012]);
      const foreignEdit = await call('PATCH', ONE, `${base}/${emoji!.id}`, { name: 'stolen' }, OTHER_BOT);
      assert.deepEqual([foreignEdit.status, foreignEdit.body.code], [403, 20012]);
      const foreignDelete = await call('DELETE', ONE, `${base}/${emoji!.id}`, undefined, OTHER_BOT);
      assert.deepEqual([foreignDelete.status, foreignDelete.body.code], [403, 20012]);
      const viaOwnPath = await call(
        'GET',
        ONE,
        `/applications/${OTHER_APP_ID}/emojis/${emoji!.id}`,
        undefined,
        OTHER_BOT,
      );
      assert.deepEqual([viaOwnPath.status, viaOwnPath.body.code], [400, 10014]);
      assert.deepEqual(await names(`/applications/${OTHER_APP_ID}/emojis`, OTHER_BOT), []);
      const user = await call('GET', LIST, base, undefined, ALICE_TOKEN);
      assert.equal(user.status, 401, user.text);
      assert.equal((await call('GET', ONE, `${base}/not-an-id`)).body.code, 10014);
      assert.deepEqual(await names(), ['logo', 'spinner']);
    });

    test("the app's bot reacts with its emoji in any guild; another bot or a user cannot (10014); reactions name it", async () => {
      const [emoji] = (await call('GET', LIST, base)).body.items as Json[];
      const path = (channel: string, messageId: string, auth = BOT) =>
        server.request(
          'PUT',
          `/channels/${channel}/messages/${messageId}/reactions/${encodeURIComponent(`${emoji!.name}:${emoji!.id}`)}/@me`,
          { auth },
        );
      for (const channel of [GENERAL, SECOND_GUILD_CHANNEL]) {
        const sent = await server.request('POST', `/channels/${channel}/messages`, {
          auth: BOT,
          body: { content: `with <:${emoji!.name}:${emoji!.id}>` },
        });
        assert.equal(sent.status, 200, sent.text);
        const reacted = await path(channel, sent.body.id);
        assert.equal(reacted.status, 204, reacted.text);
        const read = await server.request('GET', `/channels/${channel}/messages/${sent.body.id}`, { auth: BOT });
        assert.deepEqual(
          read.body.reactions.map((r: Json) => [r.emoji.id, r.emoji.name, r.count, r.me]),
          [[emoji!.id, emoji!.name, 1, true]],
        );
        const users = await server.request(
          'GET',
          `/channels/${channel}/messages/${sent.body.id}/reactions/${encodeURIComponent(`${emoji!.name}:${emoji!.id}`)}`,
          { auth: BOT },
        );
        assert.equal(users.status, 200, users.text);
        assert.deepEqual(
          users.body.map((u: Json) => u.id),
          [DEMO_APP_ID],
        );
        if (channel === GENERAL) {
          const byUser = await path(channel, sent.body.id, ALICE_TOKEN);
          assert.deepEqual([byUser.status, byUser.body.code], [400, 10014]);
        } else {
          const byOther = await path(channel, sent.body.id, OTHER_BOT);
          assert.deepEqual([byOther.status, byOther.body.code], [400, 10014]);
        }
      }
    });

    test('delete: 204, then 10014 and its image gone', async () => {
      const [emoji] = (await call('GET', LIST, base)).body.items as Json[];
      const deleted = await call('DELETE', ONE, `${base}/${emoji!.id}`);
      assert.equal(deleted.status, 204, deleted.text);
      const again = await call('DELETE', ONE, `${base}/${emoji!.id}`);
      assert.deepEqual([again.status, again.body.code], [400, 10014]);
      assert.equal((await call('GET', ONE, `${base}/${emoji!.id}`)).body.code, 10014);
      assert.equal((await fetch(`${server.url}/emojis/${emoji!.id}.png`)).status, 404);
      assert.deepEqual(await names(), ['spinner']);
    });

    test('2,000 per app: the next is 30008 and writes nothing', async () => {
      const store = server.slashd.store.applicationEmojis;
      const held = (await store.list(DEMO_APP_ID)).length;
      const file = { content_type: 'image/png', bytes: PNG };
      for (let i = held; i < APPLICATION_EMOJIS_MAX; i++) {
        const id = String(1500000000000000000n + BigInt(i));
        assert.equal(
          await store.create(
            { id, application_id: DEMO_APP_ID, name: `seed_${i}`, animated: false },
            file,
            APPLICATION_EMOJIS_MAX,
          ),
          'created',
        );
      }
      const full = await call('POST', LIST, base, { name: 'one_more', image: pngUri });
      assert.deepEqual([full.status, full.body.code], [400, 30008]);
      assert.equal((await call('GET', LIST, base)).body.items.length, APPLICATION_EMOJIS_MAX);
      const other = await call(
        'POST',
        LIST,
        `/applications/${OTHER_APP_ID}/emojis`,
        { name: 'one_more', image: pngUri },
        OTHER_BOT,
      );
      assert.equal(other.status, 201, "another app's bound is its own");

      // An application's emojis go with it.
      const gone = await server.request('DELETE', `${server.url}/admin/applications/${OTHER_APP_ID}`, {
        auth: ADMIN_AUTH,
      });
      assert.equal(gone.status, 204, gone.text);
      assert.deepEqual(await store.list(OTHER_APP_ID), []);
      assert.equal((await fetch(`${server.url}/emojis/${other.body.id}.png`)).status, 404);
      assert.equal((await store.list(DEMO_APP_ID)).length, APPLICATION_EMOJIS_MAX);
    });
  });
}

describeApplicationEmojis(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_app_emojis');
describeApplicationEmojis(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
