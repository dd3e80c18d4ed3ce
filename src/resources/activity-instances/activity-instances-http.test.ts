/**
 * `GET /applications/{id}/activity-instances/{instance_id}` on SQLite and PostgreSQL, each answer
 * checked against the OpenAPI document's operation: the instance an entry point launched (Launch,
 * handler 2: in the guild channel it was invoked in, with its user), one in a DM (a `pc` location),
 * 10082 for an id no launch made (or not a snowflake), 20012 on another app's path, 401 for a user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRegisteredApp, type AppServer } from '../../../test/helpers/app-server.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  DM_CHANNEL,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const ACTIVITY_BOT = `Bot ${ACTIVITY_BOT_TOKEN}`;
const TEMPLATE = '/applications/{application_id}/activity-instances/{instance_id}';
const PRIMARY_ENTRY_POINT = 4;

function describeActivityInstances(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: activity instances over HTTP`, () => {
    let server: TestServer;
    let app: AppServer;
    const base = `/applications/${ACTIVITY_APP_ID}/activity-instances`;

    before(async () => {
      server = await startServer(options());
      app = await startRegisteredApp(server.api, ACTIVITY_BOT_TOKEN, () => ({ status: 500, body: 'unexpected' }));
    });
    after(async () => {
      await app?.close();
      await server?.close();
      await cleanup();
    });

    async function read(path: string, auth = ACTIVITY_BOT) {
      const response = await server.request('GET', path, { auth });
      if (response.status >= 400) assertErrorBody(response.status, response.body);
      else assertMatchesOperation('GET', TEMPLATE, response.status, response.body);
      return response;
    }

    test('the instance Launch (handler 2) started: its guild channel, its launch, its user', async () => {
      const commands = await server.request('GET', `/applications/${ACTIVITY_APP_ID}/commands`, { auth: ACTIVITY_BOT });
      const launch = (commands.body as Json[]).find((c) => c.type === PRIMARY_ENTRY_POINT)!;
      const invoked = await server.request('POST', '/interactions', {
        auth: BOB_TOKEN,
        body: invocationBody(launch, { applicationId: ACTIVITY_APP_ID }),
      });
      assert.equal(invoked.status, 200, invoked.text);
      const [instance] = (await server.slashd.store.interactions.listActivityInstances(ACTIVITY_APP_ID)).filter(
        (i) => i.interaction_id === invoked.body.id,
      );
      assert.ok(instance, 'launched');
      const got = await read(`${base}/${instance.id}`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body, {
        application_id: ACTIVITY_APP_ID,
        instance_id: instance.id,
        launch_id: invoked.body.id,
        location: { id: `gc-${TEST_GUILD_ID}-${GENERAL}`, kind: 'gc', channel_id: GENERAL, guild_id: TEST_GUILD_ID },
        users: [BOB_ID],
      });
    });

    test('one in a DM has a private channel location', async () => {
      const id = '1500000000000000077';
      await server.slashd.store.interactions.putActivityInstance({
        id,
        application_id: ACTIVITY_APP_ID,
        channel_id: DM_CHANNEL,
        guild_id: null,
        user_id: BOB_ID,
        interaction_id: '1500000000000000076',
        created_at: 0,
      });
      const got = await read(`${base}/${id}`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body.location, { id: `pc-${DM_CHANNEL}`, kind: 'pc', channel_id: DM_CHANNEL });
    });

    test('unknown ids are 10082; another app reading it is 20012 (or 10082 on its own path); a user is 401', async () => {
      for (const id of ['1500000000000000999', 'i-1234-gc-5678', '9'.repeat(300)]) {
        const unknown = await read(`${base}/${id}`);
        assert.deepEqual([unknown.status, unknown.body.code], [404, 10082], id.slice(0, 20));
      }
      const foreign = await read(`${base}/1500000000000000077`, BOT);
      assert.deepEqual([foreign.status, foreign.body.code], [403, 20012]);
      const ownPath = await read(`/applications/1324165260902400001/activity-instances/1500000000000000077`, BOT);
      assert.deepEqual([ownPath.status, ownPath.body.code], [404, 10082], "another app's instance is none of its own");
      const user = await read(`${base}/1500000000000000077`, BOB_TOKEN);
      assert.equal(user.status, 401, user.text);
    });
  });
}

describeActivityInstances(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_activity_instances');
describeActivityInstances(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
