/**
 * Bad input never yields a 5xx on the emoji and sticker routes: bounded runs of random JSON bodies,
 * random raw bytes under random content types (a broken form among them) and random path segments,
 * by a bot that may make and manage expressions; every refusal is a v10 error body.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, TEST_GUILD_ID } from '../../../test/helpers/world.js';

const TARGETS: readonly { method: string; path: (segment: string) => string }[] = [
  { method: 'POST', path: () => `/guilds/${TEST_GUILD_ID}/emojis` },
  { method: 'PATCH', path: (seg) => `/guilds/${TEST_GUILD_ID}/emojis/${seg}` },
  { method: 'DELETE', path: (seg) => `/guilds/${seg}/emojis/${seg}` },
  { method: 'POST', path: () => `/guilds/${TEST_GUILD_ID}/stickers` },
  { method: 'PATCH', path: (seg) => `/guilds/${TEST_GUILD_ID}/stickers/${seg}` },
  { method: 'GET', path: (seg) => `/stickers/${seg}` },
  { method: 'GET', path: (seg) => `/sticker-packs/${seg}` },
];

const segmentArb = fc.oneof(
  fc.constantFrom('0', '1', '-1', '18446744073709551616', '@me', '%00', 'null', '1310000000000000011'),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/),
);

describe('no 5xx on the emoji and sticker routes', () => {
  let server: TestServer;

  before(async () => {
    server = await injectServer();
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      PermissionFlagsBits.CreateGuildExpressions | PermissionFlagsBits.ManageGuildExpressions,
    );
  });
  after(() => server?.close());

  it('random JSON bodies and path segments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.jsonValue({ maxDepth: 4 }), segmentArb, async (pick, body, segment) => {
        const target = TARGETS[pick % TARGETS.length]!;
        const response = await server.request(target.method, target.path(segment), {
          auth: BOT,
          ...(target.method === 'GET'
            ? {}
            : { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        });
        assert.ok(response.status < 500, `${target.method} ${target.path(segment)} → ${response.status}`);
        if (response.status >= 400) assertErrorBody(response.status, response.body);
      }),
      { numRuns: 300 },
    );
  });

  it('random raw bytes with random content types', async () => {
    const contentTypeArb = fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x');
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.string({ maxLength: 200 }), contentTypeArb, async (pick, raw, contentType) => {
        const target = TARGETS[pick % 5]!;
        const response = await server.request(target.method, target.path('1'), {
          auth: BOT,
          rawBody: raw,
          headers: { 'content-type': contentType },
        });
        assert.ok(response.status < 500, `${target.method} → ${response.status} ${response.text}`);
        if (response.status >= 400) assertErrorBody(response.status, response.body);
      }),
      { numRuns: 200 },
    );
  });
});
