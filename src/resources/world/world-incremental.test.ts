/**
 * World changes proportional to the change (issue 27): `POST /admin/world` writes only what
 * differs from the stored objects, tells bots about that alone and answers what changed; the
 * refusals name the same paths as a check of the whole merged world.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WorldChange } from '../../core/world/world-change.js';
import type { Guild, World } from '../../core/world/types.js';
import type { BusEvents } from '../../events/bus.js';
import { assertErrorBody } from '../../../test/helpers/openapi.js';
import { adminOk, adminRequest, injectServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_ID, ALICE_TOKEN, DEMO_APP_ID, exampleWorld } from '../../../test/helpers/world.js';

/** How many guilds the world has beside the example world's: each with its own member and the demo bot. */
const EXTRA_GUILDS = 40;

const guildId = (n: number) => `14000000000000${String(n).padStart(5, '0')}`;
const memberId = (n: number) => `15000000000000${String(n).padStart(5, '0')}`;

function manyGuilds(): World {
  const world = exampleWorld();
  for (let n = 0; n < EXTRA_GUILDS; n++) {
    world.users.push({
      id: memberId(n),
      username: `member-${n}`,
      token: `member-${n}-token`,
      locale: 'en-US',
      age_verified: false,
    });
    const guild: Guild = {
      id: guildId(n),
      name: `guild ${n}`,
      owner_id: ALICE_ID,
      preferred_locale: 'en-US',
      roles: [{ id: guildId(n), name: '@everyone', permissions: '0' }],
      channels: [],
      members: [{ user_id: memberId(n), roles: [], nick: null, joined_at: '2026-01-01T00:00:00.000Z' }],
      installs: [{ application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: '0' }],
      messages: [],
    };
    world.guilds.push(guild);
  }
  return world;
}

const NEWCOMER = {
  id: '1500000000000099999',
  username: 'newcomer',
  token: 'newcomer-token',
  locale: 'en-US',
  age_verified: false,
};

describe('POST /admin/world writes and tells only what changed', () => {
  let server: TestServer;
  let events: { t: string; guildId: string | null }[] = [];
  let writes: WorldChange[] = [];
  before(async () => {
    server = await injectServer({ world: manyGuilds() });
    server.slashd.bus.subscribe('WORLD_DISPATCH', (e: BusEvents['WORLD_DISPATCH']) =>
      events.push({ t: e.t, guildId: e.guildId }),
    );
    server.slashd.bus.subscribe('APPLICATION_GUILD', (e: BusEvents['APPLICATION_GUILD']) =>
      events.push({ t: 'APPLICATION_GUILD', guildId: e.guildId }),
    );
    const world = server.slashd.store.world;
    const apply = world.applyWorldChange.bind(world);
    world.applyWorldChange = (change, digest) => {
      writes.push(change);
      return apply(change, digest);
    };
  });
  after(() => server.close());

  async function post(body: unknown) {
    events = [];
    writes = [];
    return (await adminOk(server, 'POST', '/world', body)).body;
  }

  test('one user added: only that user is written, the reply names it, no guild hears of it', async () => {
    const reply = await post({ users: [NEWCOMER] });
    assert.deepEqual(reply, {
      changed: { applications: [], users: [NEWCOMER.id], guilds: [], oauth2_tokens: 0 },
      unchanged: { applications: 0, users: 0, guilds: 0, oauth2_tokens: 0 },
    });
    assert.equal(writes.length, 1);
    assert.deepEqual(writes[0]!.put, { applications: [], users: [NEWCOMER], guilds: [], oauth2_tokens: [] });
    assert.deepEqual(await server.slashd.store.world.getUser(NEWCOMER.id), NEWCOMER);
    assert.deepEqual(events, [], 'no guild has the newcomer: no event');
  });

  test('a member renamed: only the guild it is in hears of it', async () => {
    const renamed = { ...(await server.slashd.store.world.getUser(memberId(7)))!, username: 'renamed-7' };
    const reply = await post({ users: [renamed] });
    assert.deepEqual(reply.changed.users, [memberId(7)]);
    assert.deepEqual(events, [{ t: 'GUILD_MEMBER_UPDATE', guildId: guildId(7) }]);
  });

  test('the same world posted twice: the second time nothing changed and nothing is written', async () => {
    const world = (await adminOk(server, 'GET', '/world')).body as World;
    const reply = await post(world);
    assert.deepEqual(reply.changed, { applications: [], users: [], guilds: [], oauth2_tokens: 0 });
    assert.deepEqual(reply.unchanged, {
      applications: world.applications.length,
      users: world.users.length,
      guilds: world.guilds.length,
      oauth2_tokens: world.oauth2_tokens.length,
    });
    assert.deepEqual(writes, []);
    assert.deepEqual(events, []);
  });

  test('a guild changed among unchanged ones: only it is written and heard of', async () => {
    const guilds = (await adminOk(server, 'GET', '/world')).body.guilds as Guild[];
    const target = guilds.find((g) => g.id === guildId(3))!;
    target.name = 'renamed guild';
    const reply = await post({ guilds });
    assert.deepEqual(reply.changed.guilds, [guildId(3)]);
    assert.equal(reply.unchanged.guilds, guilds.length - 1);
    assert.deepEqual(
      writes[0]!.put.guilds.map((g) => g.id),
      [guildId(3)],
    );
    assert.deepEqual(events, [{ t: 'GUILD_UPDATE', guildId: guildId(3) }]);
  });

  test('refusals name the place in the merged world, as before, and write nothing', async () => {
    const stored = (await adminOk(server, 'GET', '/world')).body as World;
    writes = [];
    const stranger = { ...NEWCOMER, id: '1500000000000088888', token: ALICE_TOKEN };
    const guild = { ...manyGuilds().guilds.at(-1)!, id: '1400000000000088888' };
    guild.members = [{ user_id: '1599999999999999999', roles: [], nick: null, joined_at: '2026-01-01T00:00:00.000Z' }];
    const response = await adminRequest(server, 'POST', '/world', { users: [NEWCOMER, stranger], guilds: [guild] });
    assert.equal(response.status, 400, response.text);
    assertErrorBody(response.status, response.body);
    // The newcomer replaces its stored self: the stranger is the second after the users kept.
    const strangerAt = String(stored.users.length - 1 + 1);
    assert.deepEqual(Object.keys(response.body.errors.users), [strangerAt]);
    assert.equal(response.body.errors.users[strangerAt].token._errors[0].code, 'WORLD_DUPLICATE');
    const guildAt = String(stored.guilds.length);
    assert.equal(
      response.body.errors.guilds[guildAt].members['0'].user_id._errors[0].code,
      'WORLD_UNKNOWN_REFERENCE',
      response.text,
    );
    assert.deepEqual(writes, []);
  });
});
