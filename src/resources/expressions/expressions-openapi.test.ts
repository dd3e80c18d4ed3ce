/**
 * Every emoji and sticker operation slashd serves, checked against the public v10 OpenAPI
 * document: each request body sent is one the document allows (a sticker's form as its parts),
 * each answer the schema the document promises for its status (EmojiResponse, GuildStickerResponse,
 * StandardStickerResponse, StickerPackCollectionResponse, a message's sticker_items), 204 with no
 * body, and each refusal an ErrorResponse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { assertErrorBody, assertMatchesOperation, assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

const STANDARD_WAVE = '1310000000000000011';

describe('emoji and sticker operations against the OpenAPI document', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      PermissionFlagsBits.CreateGuildExpressions | PermissionFlagsBits.ManageGuildExpressions,
    );
  });
  after(() => server?.close());

  /** Checks the answer against its status's schema (and a body sent as the operation's request first). */
  async function call(method: string, template: string, path: string, body?: Json): Promise<Json> {
    if (body !== undefined) assertMatchesOperation(method, template, 'request', body);
    const response = await server.request(method, path, { auth: BOT, body });
    check(method, template, path, response.status, response.body, response.text);
    return response.body;
  }

  function check(method: string, template: string, path: string, status: number, body: Json, text: string): void {
    if (status >= 400) {
      assertErrorBody(status, body);
      assert.fail(`${method} ${path}: ${text}`);
    }
    if (status === 204) assert.equal(text, '', `${method} ${path}: a 204 has no body`);
    else assertMatchesOperation(method, template, status, body);
  }

  test('emojis: create, list, read, edit, delete', async () => {
    const base = `/guilds/${TEST_GUILD_ID}/emojis`;
    const image = `data:image/png;base64,${pngImage(2, 2).toString('base64')}`;
    const made = await call('POST', '/guilds/{guild_id}/emojis', base, { name: 'schema', image, roles: [] });
    await call('GET', '/guilds/{guild_id}/emojis', base);
    await call('GET', '/guilds/{guild_id}/emojis/{emoji_id}', `${base}/${made.id}`);
    await call('PATCH', '/guilds/{guild_id}/emojis/{emoji_id}', `${base}/${made.id}`, { name: 'schema2', roles: null });
    await call('DELETE', '/guilds/{guild_id}/emojis/{emoji_id}', `${base}/${made.id}`);
  });

  test('stickers: a form create, list, read, edit, GET /stickers/{id}, a message with sticker_ids, delete', async () => {
    const base = `/guilds/${TEST_GUILD_ID}/stickers`;
    const fields = { name: 'Schema', tags: 'wave', description: 'A sticker' };
    assertMatchesOperation(
      'POST',
      '/guilds/{guild_id}/stickers',
      'request',
      { ...fields, file: 'bytes' },
      'multipart/form-data',
    );
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([pngImage(2, 2)], { type: 'image/png' }), 'schema.png');
    const response = await fetch(`${server.api}${base}`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: form,
    });
    const text = await response.text();
    check('POST', '/guilds/{guild_id}/stickers', base, response.status, JSON.parse(text), text);
    const made = JSON.parse(text);
    await call('GET', '/guilds/{guild_id}/stickers', base);
    await call('GET', '/guilds/{guild_id}/stickers/{sticker_id}', `${base}/${made.id}`);
    await call('PATCH', '/guilds/{guild_id}/stickers/{sticker_id}', `${base}/${made.id}`, {
      name: 'Schema 2',
      tags: 'x',
      description: null,
    });
    await call('GET', '/stickers/{sticker_id}', `/stickers/${made.id}`);
    await call('GET', '/stickers/{sticker_id}', `/stickers/${STANDARD_WAVE}`);
    const body = { sticker_ids: [made.id, STANDARD_WAVE] };
    assertMatchesOperation('POST', '/channels/{channel_id}/messages', 'request', body);
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body });
    assert.equal(sent.status, 200, sent.text);
    assertMatchesSchema('MessageResponse', sent.body);
    assert.equal(sent.body.sticker_items.length, 2);
    await call('DELETE', '/guilds/{guild_id}/stickers/{sticker_id}', `${base}/${made.id}`);
  });

  test('sticker packs: the list and one pack', async () => {
    const packs = await call('GET', '/sticker-packs', '/sticker-packs');
    await call('GET', '/sticker-packs/{pack_id}', `/sticker-packs/${packs.sticker_packs[0].id}`);
  });

  test('refusals are ErrorResponses: 50035, 10014, 10060, 10061, 50081', async () => {
    const refusals = [
      await server.request('POST', `/guilds/${TEST_GUILD_ID}/emojis`, { auth: BOT, body: { name: 'x' } }),
      await server.request('GET', `/guilds/${TEST_GUILD_ID}/emojis/1399999999999999999`, { auth: BOT }),
      await server.request('GET', '/stickers/1399999999999999999', { auth: BOT }),
      await server.request('GET', '/sticker-packs/1399999999999999999', { auth: BOT }),
      await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { sticker_ids: ['1399999999999999999'] },
      }),
    ];
    assert.deepEqual(
      refusals.map((r) => r.body.code),
      [50035, 10014, 10060, 10061, 50081],
    );
    for (const refusal of refusals) assertErrorBody(refusal.status, refusal.body);
  });
});
