/**
 * World changes through the admin API reach the event bus as the v10 dispatches a bot's cache
 * needs (WORLD_DISPATCH) and as installs and removals (APPLICATION_GUILD), through the admin routes
 * (injected: the socket plays no part), for a guild put, a merge, an application deleted and a
 * guild deleted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BusEvents } from '../src/events/bus.js';
import { adminRequest, injectServer, type TestServer } from './helpers/server.js';
import type { Json } from './helpers/json.js';
import {
  ADMIN_TOKEN,
  BOB_ID,
  DEMO_APP_ID,
  GENERAL,
  OTHER_APP_ID,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from './helpers/world.js';

/** The admin token under the Admin scheme, which the admin API takes as well as Bearer. */
const ADMIN = `Admin ${ADMIN_TOKEN}`;

describe('world events from the admin API', () => {
  let server: TestServer;
  let seen: [string, Json][] = [];
  before(async () => {
    server = await injectServer();
    server.slashd.bus.subscribe('WORLD_DISPATCH', (e: BusEvents['WORLD_DISPATCH']) => seen.push([e.t, e]));
    server.slashd.bus.subscribe('APPLICATION_GUILD', (e: BusEvents['APPLICATION_GUILD']) =>
      seen.push(['APPLICATION_GUILD', e]),
    );
  });
  after(async () => {
    await server.close();
  });

  /** An admin write that succeeds; `seen` then holds the events it published. */
  async function change(method: string, path: string, body?: unknown): Promise<void> {
    seen = [];
    const response = await adminRequest(server, method, path, body, ADMIN);
    assert.ok(response.status === 200 || response.status === 204, `${method} ${path}: ${response.text}`);
  }

  test('PUT /admin/guilds/{id}: a renamed channel, a new role, a member removed', async () => {
    const guild = (await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}`, undefined, ADMIN)).body;
    guild.channels.find((c: Json) => c.id === GENERAL).name = 'lobby';
    guild.roles.splice(1, 0, { id: '1345183757107200098', name: 'Top', permissions: '0' });
    guild.members = guild.members.filter((m: Json) => m.user_id !== BOB_ID);
    await change('PUT', `/guilds/${TEST_GUILD_ID}`, guild);
    const names = seen.map(([t]) => t);
    assert.deepEqual(names, ['GUILD_ROLE_CREATE', 'CHANNEL_UPDATE', 'GUILD_MEMBER_REMOVE']);
    const [, channel] = seen[1]!;
    assert.deepEqual([channel.guildId, channel.channelId, channel.d.name], [TEST_GUILD_ID, GENERAL, 'lobby']);
    const [, removed] = seen[2]!;
    assert.deepEqual(removed.d, { guild_id: TEST_GUILD_ID, user: removed.d.user });
    assert.equal(removed.d.user.id, BOB_ID);
  });

  test('POST /admin/world: an install of a bot is APPLICATION_GUILD installed and a member added', async () => {
    const guild = (await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}`, undefined, ADMIN)).body;
    guild.installs.push({ application_id: OTHER_APP_ID, scopes: ['bot'], permissions: '0' });
    await change('POST', '/world', { guilds: [guild] });
    assert.deepEqual(
      seen.map(([t]) => t),
      ['GUILD_MEMBER_ADD', 'APPLICATION_GUILD'],
    );
    assert.deepEqual(seen[1]![1], { applicationId: OTHER_APP_ID, guildId: TEST_GUILD_ID, installed: true });
  });

  test('DELETE /admin/applications/{id}: its bot leaves every guild', async () => {
    await change('DELETE', `/applications/${OTHER_APP_ID}`);
    const left = seen.filter(([t]) => t === 'APPLICATION_GUILD').map(([, e]) => [e.guildId, e.installed]);
    assert.deepEqual(
      left.sort(),
      [
        [SECOND_GUILD_ID, false],
        [TEST_GUILD_ID, false],
      ].sort(),
    );
  });

  test('DELETE /admin/guilds/{id}: the bots in it are removed from it', async () => {
    await change('DELETE', `/guilds/${TEST_GUILD_ID}`);
    assert.deepEqual(seen, [
      ['APPLICATION_GUILD', { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID, installed: false }],
    ]);
  });

  test('a refused change publishes nothing', async () => {
    seen = [];
    const response = await adminRequest(
      server,
      'PUT',
      `/guilds/${SECOND_GUILD_ID}`,
      { id: SECOND_GUILD_ID, name: 5 },
      ADMIN,
    );
    assert.equal(response.status, 400);
    assert.deepEqual(seen, []);
  });
});
