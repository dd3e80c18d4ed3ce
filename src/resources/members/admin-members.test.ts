/**
 * The admin API per resource: one member of a guild (put, delete, a page of the list) and a user
 * patched by the fields it names. Each answers only what changed, and tells bots exactly what the
 * same change made through the whole guild or the whole user tells them (the same v10 dispatches).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BusEvents } from '../../events/bus.js';
import { adminRequest, injectServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_ID, BOB_ID, CAROL_ID, ERIN_ID, SECOND_GUILD_ID, TEST_GUILD_ID } from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const UNKNOWN_GUILD = '1345183757107209999';

describe('admin API per member and per user', () => {
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

  /** The events one admin call published (they are published before it answers). */
  async function eventsOf(method: string, path: string, body?: unknown): Promise<[string, Json][]> {
    seen = [];
    const response = await adminRequest(server, method, path, body);
    assert.ok(response.status === 200 || response.status === 204, `${method} ${path}: ${response.text}`);
    return seen;
  }

  async function guild(id = TEST_GUILD_ID): Promise<Json> {
    return (await adminRequest(server, 'GET', `/guilds/${id}`)).body;
  }

  test('PUT a member: it answers the member alone and publishes what a whole-guild PUT publishes', async () => {
    const erin = { user_id: ERIN_ID, roles: [], nick: 'E', joined_at: '2026-03-01T00:00:00.000Z' };
    const original = await guild();

    const put = await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, erin);
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, erin, 'only the member, not the guild');
    seen = [];
    await adminRequest(server, 'DELETE', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`);
    assert.deepEqual(await guild(), original, 'back as it was');

    const added = await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, erin);
    assert.deepEqual(
      added.map(([t]) => t),
      ['GUILD_MEMBER_ADD'],
    );
    const removed = await eventsOf('DELETE', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`);
    assert.deepEqual(
      removed.map(([t]) => t),
      ['GUILD_MEMBER_REMOVE'],
    );

    const whole = await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}`, {
      ...original,
      members: [...original.members, erin],
    });
    assert.deepEqual(whole, added, 'the same dispatch as the whole guild written with the member');
    assert.deepEqual(await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}`, original), removed);
  });

  test('PUT an existing member replaces it in place: GUILD_MEMBER_UPDATE, the others untouched', async () => {
    const original = await guild();
    const bob = original.members.find((m: Json) => m.user_id === BOB_ID);
    const changed = { ...bob, nick: 'Robert' };
    const updated = await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}/members/${BOB_ID}`, changed);
    assert.deepEqual(
      updated.map(([t, e]) => [t, e.d.nick, e.d.user.id]),
      [['GUILD_MEMBER_UPDATE', 'Robert', BOB_ID]],
    );
    const after = await guild();
    assert.deepEqual(
      after.members.map((m: Json) => m.user_id),
      original.members.map((m: Json) => m.user_id),
      'in place',
    );
    const back = await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}/members/${BOB_ID}`, bob);
    const viaGuild = await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}`, {
      ...original,
      members: original.members.map((m: Json) => (m.user_id === BOB_ID ? changed : m)),
    });
    assert.deepEqual(viaGuild, updated);
    await eventsOf('PUT', `/guilds/${TEST_GUILD_ID}`, original);
    assert.equal(back.length, 1);
  });

  test('PATCH a user: the fields named change, the others stay; members are updated as by PUT', async () => {
    const alice = (await adminRequest(server, 'GET', `/users/${ALICE_ID}`)).body;
    const patched = await adminRequest(server, 'PATCH', `/users/${ALICE_ID}`, { username: 'alicia' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body, { ...alice, username: 'alicia' });
    assert.deepEqual((await adminRequest(server, 'GET', `/users/${ALICE_ID}`)).body, { ...alice, username: 'alicia' });
    const me = await server.request('GET', '/users/@me', { auth: alice.token });
    assert.equal(me.body.username, 'alicia', 'the user token still works and reads the new name');

    const restored = await eventsOf('PUT', `/users/${ALICE_ID}`, alice);
    const viaPatch = await eventsOf('PATCH', `/users/${ALICE_ID}`, { username: 'alicia' });
    const viaPut = await eventsOf('PUT', `/users/${ALICE_ID}`, alice);
    assert.deepEqual(viaPut, restored);
    assert.ok(viaPatch.length > 0 && viaPatch.every(([t]) => t === 'GUILD_MEMBER_UPDATE'));
    assert.deepEqual(
      viaPatch.map(([, e]) => [e.guildId, e.d.user.username]),
      [[TEST_GUILD_ID, 'alicia']],
      'only the guilds alice is a member of',
    );
  });

  test('PATCH refusals: unknown user 404, another id 400, a bad field 50035, a taken token 50035', async () => {
    assert.equal((await adminRequest(server, 'PATCH', '/users/1335036896870409999', { username: 'x' })).status, 404);
    assert.equal((await adminRequest(server, 'PATCH', `/users/${ALICE_ID}`, { id: BOB_ID })).status, 400);
    const bad = await adminRequest(server, 'PATCH', `/users/${ALICE_ID}`, { age_verified: 'yes' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 50035);
    const bob = (await adminRequest(server, 'GET', `/users/${BOB_ID}`)).body;
    const taken = await adminRequest(server, 'PATCH', `/users/${ALICE_ID}`, { token: bob.token });
    assert.equal(taken.body.code, 50035, taken.text);
    assert.equal((await adminRequest(server, 'GET', `/users/${ALICE_ID}`)).body.username, 'alice', 'nothing changed');
  });

  test('GET members: pages in ascending user id order, after a cursor; limits checked', async () => {
    const all = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}/members`);
    assert.equal(all.status, 200);
    const ids = all.body.map((m: Json) => m.user_id);
    assert.deepEqual(ids, [...ids].sort());
    assert.ok(ids.includes(ALICE_ID) && ids.includes(CAROL_ID));
    const first = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}/members?limit=2`);
    assert.deepEqual(
      first.body.map((m: Json) => m.user_id),
      ids.slice(0, 2),
    );
    const next = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}/members?limit=2&after=${ids[1]}`);
    assert.deepEqual(
      next.body.map((m: Json) => m.user_id),
      ids.slice(2, 4),
    );
    const past = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}/members?after=${ids.at(-1)}`);
    assert.deepEqual(past.body, []);
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'after=abc']) {
      const refused = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}/members?${query}`);
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.code, 50035, query);
    }
    const unknown = await adminRequest(server, 'GET', `/guilds/${UNKNOWN_GUILD}/members`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 10004);
  });

  test('member refusals: unknown guild, unknown user, unknown member, mismatched id; nothing published', async () => {
    const member = { user_id: ERIN_ID, roles: [], nick: null };
    seen = [];
    const noGuild = await adminRequest(server, 'PUT', `/guilds/${UNKNOWN_GUILD}/members/${ERIN_ID}`, member);
    assert.equal(noGuild.body.code, 10004, noGuild.text);
    const noUser = await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}/members/1335036896870409999`, {
      ...member,
      user_id: '1335036896870409999',
    });
    assert.equal(noUser.body.code, 50035, noUser.text);
    const mismatch = await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, {
      ...member,
      user_id: BOB_ID,
    });
    assert.equal(mismatch.status, 400);
    const noMember = await adminRequest(server, 'DELETE', `/guilds/${SECOND_GUILD_ID}/members/${ALICE_ID}`);
    assert.equal(noMember.body.code, 10007, noMember.text);
    assert.deepEqual(seen, []);
    const defaults = await adminRequest(server, 'PUT', `/guilds/${SECOND_GUILD_ID}/members/${ALICE_ID}`, { roles: [] });
    assert.equal(defaults.status, 200, 'user_id from the path');
    assert.equal(defaults.body.user_id, ALICE_ID);
    await adminRequest(server, 'DELETE', `/guilds/${SECOND_GUILD_ID}/members/${ALICE_ID}`);
  });
});
