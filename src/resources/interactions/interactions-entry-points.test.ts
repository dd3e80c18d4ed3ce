/**
 * Entry point commands ("Entry points"): the Activity app's auto-created "Launch" command
 * (handler 2, DISCORD_LAUNCH_ACTIVITY) is handled by slashd itself: it launches the Activity
 * (records an activity instance) and posts a message in the channel, without contacting the app
 * (which has an endpoint, and receives nothing but the verification requests). An entry point with
 * handler 1 (APP_HANDLER) is delivered like any command, and the app may answer LAUNCH_ACTIVITY
 * (type 12). An app that gets Activities through the admin API gets its "Launch" command.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InteractionResponseType } from 'discord-interactions';
import {
  assertVerificationRequests,
  startRegisteredApp,
  type AppServer,
  type Json,
} from '../../../test/helpers/app-server.js';
import { assertErrorBody, assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  ADMIN_TOKEN,
  BOB_ID,
  BOB_TOKEN as BOB,
  CAROL_TOKEN as CAROL,
  DEMO_APP_ID,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { APPLICATION_FLAG_EMBEDDED } from '../../core/commands/model.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

const PRIMARY_ENTRY_POINT = 4;
const ACTIVITY_BOT = `Bot ${ACTIVITY_BOT_TOKEN}`;
const COMMANDS = `/applications/${ACTIVITY_APP_ID}/commands`;

describe('entry point commands', () => {
  let server: TestServer;
  let app: AppServer;

  before(async () => {
    server = await startServer();
    app = await startRegisteredApp(server.api, ACTIVITY_BOT_TOKEN, () => ({
      status: 500,
      body: 'this app expected nothing',
    }));
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function globalCommands(applicationId = ACTIVITY_APP_ID, auth = ACTIVITY_BOT): Promise<Json[]> {
    const response = await server.request('GET', `/applications/${applicationId}/commands`, { auth });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  async function entryPoint(): Promise<Json> {
    const entryPoints = (await globalCommands()).filter((c) => c.type === PRIMARY_ENTRY_POINT);
    assert.equal(entryPoints.length, 1, 'exactly one entry point');
    return entryPoints[0]!;
  }

  function invocation(command: Json): Json {
    return invocationBody(command, { applicationId: ACTIVITY_APP_ID, nonce: 'launch' });
  }

  async function channelMessages(auth = BOB): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    for (const message of response.body as Json[]) assertMatchesSchema('MessageResponse', message);
    return response.body;
  }

  test('the Activity app has an auto-created "Launch" entry point with handler 2', async () => {
    const launch = await entryPoint();
    assert.equal(launch.name, 'Launch');
    assert.equal(launch.handler, 2, 'DISCORD_LAUNCH_ACTIVITY');
    assert.equal(launch.application_id, ACTIVITY_APP_ID);
    assert.equal(launch.guild_id, undefined, 'global');
  });

  test('invoking Launch (handler 2): slashd launches the Activity and posts a message, without contacting the app', async () => {
    const launch = await entryPoint();
    const receivedBefore = app.received.length;
    const instancesBefore = (await server.slashd.store.interactions.listActivityInstances(ACTIVITY_APP_ID)).length;

    const response = await server.request('POST', '/interactions', { auth: BOB, body: invocation(launch) });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.state, 'responded');
    assert.equal(response.body.nonce, 'launch');

    const status = await server.request('GET', `/interactions/${response.body.id}`, { auth: BOB });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.state, 'responded');
    assert.equal(status.body.response.type, InteractionResponseType.LAUNCH_ACTIVITY);

    const instances = await server.slashd.store.interactions.listActivityInstances(ACTIVITY_APP_ID);
    assert.equal(instances.length, instancesBefore + 1, 'an activity instance was recorded');
    const instance = instances.find((i) => i.interaction_id === response.body.id);
    assert.ok(instance, 'for this interaction');
    assert.equal(instance.channel_id, GENERAL);
    assert.equal(instance.guild_id, TEST_GUILD_ID);
    assert.equal(instance.user_id, BOB_ID);

    const message = (await channelMessages())[0]!;
    assert.equal(message.author.id, ACTIVITY_APP_ID);
    assert.equal(message.interaction_metadata?.id, response.body.id);
    assert.equal(message.interaction_metadata.user.id, BOB_ID);
    assert.equal(message.interaction_metadata.command_type, PRIMARY_ENTRY_POINT);
    assert.ok(message.content.length > 0, 'the launch notice says something');
    assert.ok(
      (await channelMessages(CAROL)).some((m) => m.id === message.id),
      'everyone in the channel sees it',
    );

    assert.equal(app.received.length, receivedBefore, 'the app received nothing');
    assertVerificationRequests(app.received);
  });

  test('bulk overwrite must keep the entry point (50240)', async () => {
    const response = await server.request('PUT', COMMANDS, {
      auth: ACTIVITY_BOT,
      body: [{ name: 'status', description: 'Status' }],
    });
    assert.equal(response.status, 400, response.text);
    assertErrorBody(400, response.body);
    assert.equal(response.body.code, 50240);
    assert.equal((await entryPoint()).handler, 2, 'unchanged');
  });

  test('an entry point with handler 1 (APP_HANDLER) is delivered to the app, which answers LAUNCH_ACTIVITY inline', async () => {
    const current = await entryPoint();
    const put = await server.request('PUT', COMMANDS, {
      auth: ACTIVITY_BOT,
      body: [
        { id: current.id, name: 'Launch', type: PRIMARY_ENTRY_POINT, handler: 1, description: 'Launch it yourself' },
      ],
    });
    assert.equal(put.status, 200, put.text);
    const launch = await entryPoint();
    assert.equal(launch.id, current.id, 'the same command');
    assert.equal(launch.handler, 1);

    app.handle(() => ({ inline: { type: InteractionResponseType.LAUNCH_ACTIVITY } }));
    const receivedBefore = app.interactions().length;
    const instancesBefore = (await server.slashd.store.interactions.listActivityInstances(ACTIVITY_APP_ID)).length;
    const response = await server.request('POST', '/interactions', { auth: BOB, body: invocation(launch) });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.state, 'responded');

    const delivered = app.interactions();
    assert.equal(delivered.length, receivedBefore + 1, 'delivered like any command');
    const interaction = delivered[delivered.length - 1]!;
    assert.equal(interaction.type, 2);
    assert.equal(interaction.data.type, PRIMARY_ENTRY_POINT);
    assert.equal(interaction.data.name, 'Launch');
    assert.equal(interaction.data.id, launch.id);
    assert.equal(interaction.data.guild_id, undefined, 'a global command');
    assert.equal(interaction.guild_id, TEST_GUILD_ID);

    const status = await server.request('GET', `/interactions/${response.body.id}`, { auth: BOB });
    assert.equal(status.body.state, 'responded');
    assert.equal(status.body.response.type, 12);
    assert.equal(
      (await server.slashd.store.interactions.listActivityInstances(ACTIVITY_APP_ID)).length,
      instancesBefore + 1,
    );
  });

  test('handler 1, answered through the callback with with_response: the activity instance', async () => {
    app.handle(() => ({
      accepted: true,
      after: (interaction, self) => self.callback(interaction, { type: 12 }, '?with_response=true'),
    }));
    const launch = await entryPoint();
    const response = await server.request('POST', '/interactions', { auth: BOB, body: invocation(launch) });
    assert.equal(response.status, 200, response.text);
    const [callback] = (await app.idle()).slice(-1) as [{ status: number; body: Json }];
    assert.equal(callback.status, 200);
    assertMatchesSchema('InteractionCallbackResponse', callback.body);
    assert.equal(callback.body.interaction.id, response.body.id);
    assert.equal(callback.body.resource.type, 12);
    const instanceId = callback.body.resource.activity_instance.id;
    assert.equal(callback.body.interaction.activity_instance_id, instanceId);
    const instances = await server.slashd.store.interactions.listActivityInstances(ACTIVITY_APP_ID);
    assert.ok(
      instances.some((i) => i.id === instanceId && i.interaction_id === response.body.id),
      'the instance was recorded',
    );
    const status = await server.request('GET', `/interactions/${response.body.id}`, { auth: BOB });
    assert.equal(status.body.state, 'responded');
  });

  test('an app that gets Activities through the admin API gets its "Launch" entry point (handler 2)', async () => {
    const demo = `Bot demo-bot-token-please-change`;
    assert.ok(!(await globalCommands(DEMO_APP_ID, demo)).some((c) => c.type === PRIMARY_ENTRY_POINT), 'none before');
    const current = await server.request('GET', `${server.url}/admin/applications/${DEMO_APP_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
    });
    assert.equal(current.status, 200, current.text);
    const put = await server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: { ...current.body, flags: (current.body.flags as number) | APPLICATION_FLAG_EMBEDDED },
    });
    assert.equal(put.status, 200, put.text);
    const entryPoints = (await globalCommands(DEMO_APP_ID, demo)).filter((c) => c.type === PRIMARY_ENTRY_POINT);
    assert.equal(entryPoints.length, 1);
    assert.equal(entryPoints[0]!.name, 'Launch');
    assert.equal(entryPoints[0]!.handler, 2);
  });
});
