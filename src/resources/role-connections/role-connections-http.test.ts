/**
 * Application role connections on SQLite and PostgreSQL, every request and answer checked against
 * the OpenAPI document: a discord.js bot declares its metadata records
 * (`editRoleConnectionMetadataRecords`) and reads them back; bad lists are 50035 at their paths
 * and write nothing; another app's path is 20012; a user's `role_connections.write` token reads,
 * writes (each value checked against its record's type) and removes the user's connection, and a
 * token without the scope, of another app, or a bot's is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApplicationRoleConnectionMetadataType, GatewayIntentBits, type Client } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { withSchemaChecks } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  exampleWorld,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

/** Erin's tokens: one of the demo app with the scope, one without it, one of the other app. */
function connectionsWorld(): World {
  const world = exampleWorld();
  world.oauth2_tokens.push(
    { access_token: 'erin-rc', user_id: ERIN_ID, application_id: DEMO_APP_ID, scopes: ['role_connections.write'] },
    { access_token: 'erin-plain', user_id: ERIN_ID, application_id: DEMO_APP_ID, scopes: ['identify'] },
    { access_token: 'erin-other', user_id: ERIN_ID, application_id: OTHER_APP_ID, scopes: ['role_connections.write'] },
  );
  return world;
}

function describeRoleConnections(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: application role connections`, () => {
    let server: TestServer;
    let bot: Client<true>;
    const metadataPath = `/applications/${DEMO_APP_ID}/role-connections/metadata`;
    const connectionPath = `/users/@me/applications/${DEMO_APP_ID}/role-connection`;

    before(async () => {
      server = withSchemaChecks(await startServer({ ...options(), world: connectionsWorld() }));
      bot = (await watchingBot(
        server,
        DEMO_BOT_TOKEN,
        [GatewayIntentBits.Guilds],
        new Inbox<RawDispatch>(),
      )) as Client<true>;
    });
    after(async () => {
      await bot?.destroy();
      await server?.close();
      await cleanup();
    });

    function fieldErrors(response: { status: number; body: Json }): Json {
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.equal(response.body.code, 50035);
      return response.body.errors as Json;
    }

    test('metadata: bad lists are 50035 at their paths; discord.js declares and reads the records', async () => {
      const tooMany = Array.from({ length: 6 }, (_, i) => ({ type: 1, key: `k${i}`, name: 'n', description: 'd' }));
      assert.ok(fieldErrors(await server.request('PUT', metadataPath, { auth: BOT, body: tooMany }))._errors);
      const bad = fieldErrors(
        await server.request('PUT', metadataPath, {
          auth: BOT,
          body: [
            { type: 9, key: 'Bad-Key', name: '', description: 'd' },
            { type: 1, key: 'dup', name: 'n', description: 'd' },
            { type: 2, key: 'dup', name: 'n', description: 'd' },
          ],
        }),
      );
      assert.deepEqual(Object.keys(bad['0']).sort(), ['key', 'name', 'type']);
      assert.deepEqual(Object.keys(bad['2']), ['key']);
      assert.deepEqual(await bot.application.fetchRoleConnectionMetadataRecords(), [], 'nothing written');

      const records = await bot.application.editRoleConnectionMetadataRecords([
        {
          type: ApplicationRoleConnectionMetadataType.IntegerGreaterThanOrEqual,
          key: 'level',
          name: 'Level',
          nameLocalizations: { fr: 'Niveau' },
          description: 'Level at least',
        },
        {
          type: ApplicationRoleConnectionMetadataType.BooleanEqual,
          key: 'verified',
          name: 'Verified',
          description: 'Is verified',
        },
      ]);
      assert.deepEqual(
        records.map((r) => [r.key, r.type, r.nameLocalizations]),
        [
          ['level', 2, { fr: 'Niveau' }],
          ['verified', 7, null],
        ],
      );
      const fetched = await bot.application.fetchRoleConnectionMetadataRecords();
      assert.deepEqual(
        fetched.map((r) => r.key),
        ['level', 'verified'],
      );
      const foreign = await server.request('GET', metadataPath, { auth: `Bot ${OTHER_BOT_TOKEN}` });
      assert.deepEqual([foreign.status, foreign.body.code], [403, 20012]);
    });

    test("a user's connection: read, written with values of their records' types, removed", async () => {
      const empty = await server.request('GET', connectionPath, { auth: 'Bearer erin-rc' });
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.body, { platform_name: null, platform_username: null, metadata: {} });

      const bad = fieldErrors(
        await server.request('PUT', connectionPath, {
          auth: 'Bearer erin-rc',
          body: { platform_name: 'x'.repeat(51), metadata: { level: 'high', verified: '2', unknown: '1' } },
        }),
      );
      assert.deepEqual(Object.keys(bad).sort(), ['metadata', 'platform_name']);
      assert.deepEqual(Object.keys(bad.metadata).sort(), ['level', 'unknown', 'verified']);
      const still = await server.request('GET', connectionPath, { auth: 'Bearer erin-rc' });
      assert.deepEqual(still.body.metadata, {}, 'nothing written');

      const put = await server.request('PUT', connectionPath, {
        auth: 'Bearer erin-rc',
        body: { platform_name: 'Game', platform_username: 'erin#1', metadata: { level: 12, verified: '1' } },
      });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body, {
        platform_name: 'Game',
        platform_username: 'erin#1',
        metadata: { level: '12', verified: '1' },
      });
      const read = await server.request('GET', connectionPath, { auth: 'Bearer erin-rc' });
      assert.deepEqual(read.body, put.body);

      const deleted = await server.request('DELETE', connectionPath, { auth: 'Bearer erin-rc' });
      assert.equal(deleted.status, 204, deleted.text);
      const gone = await server.request('GET', connectionPath, { auth: 'Bearer erin-rc' });
      assert.equal(gone.body.platform_name, null);
    });

    test('who may: the scope, the path’s own app, and a user’s token only', async () => {
      const plain = await server.request('GET', connectionPath, { auth: 'Bearer erin-plain' });
      assert.deepEqual([plain.status, plain.body.code], [403, 50026]);
      const other = await server.request('PUT', connectionPath, { auth: 'Bearer erin-other', body: {} });
      assert.deepEqual([other.status, other.body.code], [403, 20012]);
      const asBot = await server.request('GET', connectionPath, { auth: BOT });
      assert.deepEqual([asBot.status, asBot.body.code], [403, 20001]);
    });
  });
}

describeRoleConnections(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_role_connections');
describeRoleConnections(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
