/**
 * The invite, prune and joining operations slashd serves (guilds.join, one's own member, leaving),
 * checked against the public v10 OpenAPI document: each request body sent is one the document
 * allows, each answer the schema the document promises for its status, and each refusal an
 * ErrorResponse. Accepting an invite
 * (`POST /invites/{code}`) is a user's and not in the document: only its refusal body is checked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { World } from '../../core/world/types.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, ERIN_ID, ERIN_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

function joiningWorld(): World {
  const world = gatewayWorld();
  world.oauth2_tokens.push({
    access_token: 'erin-join',
    user_id: ERIN_ID,
    application_id: DEMO_APP_ID,
    scopes: ['identify', 'guilds.join'],
  });
  world.oauth2_tokens.push({
    access_token: 'erin-read',
    user_id: ERIN_ID,
    application_id: DEMO_APP_ID,
    scopes: ['guilds.members.read'],
  });
  return world;
}

describe('invite, prune and joining operations against the OpenAPI document', () => {
  let server: TestServer;

  before(async () => {
    server = await injectServer({ world: joiningWorld() });
    const bits =
      PermissionFlagsBits.CreateInstantInvite |
      PermissionFlagsBits.ManageChannels |
      PermissionFlagsBits.ManageGuild |
      PermissionFlagsBits.KickMembers |
      PermissionFlagsBits.ManageNicknames |
      PermissionFlagsBits.ViewAuditLog;
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, bits);
  });
  after(() => server?.close());

  async function call(method: string, template: string, path: string, body?: Json, auth = BOT): Promise<Json> {
    if (body !== undefined) assertMatchesOperation(method, template, 'request', body);
    const response = await server.request(method, path, { auth, body });
    if (response.status >= 400) {
      assertErrorBody(response.status, response.body);
      assert.fail(`${method} ${path}: ${response.text}`);
    }
    if (response.status === 204) assert.equal(response.text, '', `${method} ${path}: a 204 has no body`);
    else assertMatchesOperation(method, template, response.status, response.body);
    return response;
  }

  test('invites: create, list, read, delete', async () => {
    const created = await call('POST', '/channels/{channel_id}/invites', `/channels/${GENERAL}/invites`, {
      max_age: 3600,
      max_uses: 5,
      temporary: false,
      unique: true,
    });
    await call('GET', '/channels/{channel_id}/invites', `/channels/${GENERAL}/invites`);
    await call('GET', '/guilds/{guild_id}/invites', `/guilds/${TEST_GUILD_ID}/invites`);
    await call('GET', '/invites/{code}', `/invites/${created.body.code}?with_counts=true`);
    await call('DELETE', '/invites/{code}', `/invites/${created.body.code}`);
  });

  test('prune: the count and the prune', async () => {
    await call('GET', '/guilds/{guild_id}/prune', `/guilds/${TEST_GUILD_ID}/prune?days=7`);
    await call('POST', '/guilds/{guild_id}/prune', `/guilds/${TEST_GUILD_ID}/prune`, {
      days: 30,
      compute_prune_count: true,
    });
  });

  test('guilds.join: a user added with their token', async () => {
    const template = '/guilds/{guild_id}/members/{user_id}';
    const added = await call('PUT', template, `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, {
      access_token: 'erin-join',
      nick: 'erin!',
    });
    assert.equal(added.status, 201, added.text);
    await call('PUT', template, `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, { access_token: 'erin-join' });
  });

  test('the user’s own member, then the user leaves', async () => {
    const member = '/users/@me/guilds/{guild_id}/member';
    await call('GET', member, `/users/@me/guilds/${TEST_GUILD_ID}/member`, undefined, 'Bearer erin-read');
    const leave = '/users/@me/guilds/{guild_id}';
    await call('DELETE', leave, `/users/@me/guilds/${TEST_GUILD_ID}`, undefined, ERIN_TOKEN);
  });

  test('refusals are ErrorResponse bodies', async () => {
    for (const [method, path, body] of [
      ['GET', '/invites/nosuchcode', undefined],
      ['POST', '/invites/nosuchcode', undefined],
      ['POST', `/channels/${GENERAL}/invites`, { max_age: -1 }],
      ['POST', `/guilds/${TEST_GUILD_ID}/prune`, { days: 31 }],
    ] as const) {
      const refused = await server.request(method, path, { auth: BOT, body });
      assert.ok(refused.status >= 400, refused.text);
      assertErrorBody(refused.status, refused.body);
    }
  });
});
