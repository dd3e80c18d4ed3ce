/**
 * The command picker's answer cache never serves a stale answer: after each kind of change the
 * next `GET /channels/{id}/application-command-index` shows it, on SQLite (one node) and on
 * PostgreSQL (a write on node A seen by node B's next read). Every answer is first read twice, so
 * that the second read is served from the cache, and every answer is checked byte for byte
 * against the index computed without any cache on the same store.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CommandIndexService } from './service.js';
import type { Store } from '../../store/store.js';
import { requestAt, startNodePair, type NodePair } from '../../../test/helpers/nodes.js';
import { injectServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DAVE_ID,
  DAVE_TOKEN,
  DEMO_APP_ID,
  GENERAL,
  GUILD_BASE,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

/** The owner's token with the permissions-update scope. */
const ALICE_PERM = 'Bearer alice-perm-token';
/** MANAGE_GUILD: the moderator role has it, carol (no roles) does not. */
const MANAGE_GUILD = '32';
const USE_APPLICATION_COMMANDS = '2147483648';

type Call = (method: string, path: string, auth: string, body?: unknown) => Promise<TestResponse>;

/** A node as these steps see it: calls to it, and its store (for the uncached answer). */
interface Node {
  call: Call;
  store: Store;
}

async function ok(response: Promise<TestResponse>, what: string): Promise<TestResponse> {
  const answered = await response;
  assert.ok(answered.status < 300, `${what}: ${answered.status} ${answered.text}`);
  return answered;
}

/** Carol's picker in #general on `node`: read twice (the second from the cache), equal to the uncached answer. */
async function carolSees(node: Node): Promise<string[]> {
  const path = `/channels/${GENERAL}/application-command-index`;
  const first = await ok(node.call('GET', path, CAROL_TOKEN), 'index');
  const second = await ok(node.call('GET', path, CAROL_TOKEN), 'index again');
  assert.equal(second.text, first.text);
  // Carol's locale (es-419) is what the route resolves for her without a header.
  const uncached = new CommandIndexService(node.store, { cacheBytes: 0 });
  const world = node.store.world;
  const guild = (await world.findGuildByChannel(GENERAL))!;
  const channel = guild.channels.find((c) => c.id === GENERAL)!;
  const user = (await world.findUserByToken(CAROL_TOKEN))!;
  const fresh = await uncached.buildJson(guild, channel, user, 'es-419');
  assert.equal(second.text, fresh, 'the cached answer is byte for byte the uncached one');
  // The demo app's commands (the Activity app's entry point is always there).
  return ((second.body as Json).application_commands as Json[])
    .filter((c) => c.application_id === DEMO_APP_ID)
    .map((c) => c.name as string)
    .sort();
}

/**
 * The steps: each change is made on `writer` and must show in `reader`'s very next answer (one
 * node: both are the same).
 */
async function changesShowAtOnce(writer: Node, reader: Node): Promise<void> {
  const admin = (method: string, path: string, body?: unknown) => ok(writer.call(method, path, ADMIN_AUTH, body), path);
  const guildPath = `/admin/guilds/${TEST_GUILD_ID}`;
  const editGuild = async (edit: (guild: Json) => void) => {
    const guild = (await admin('GET', guildPath)).body as Json;
    edit(guild);
    await admin('PUT', guildPath, guild);
  };

  const open = (await ok(writer.call('POST', GUILD_BASE, BOT, { name: 'open', description: 'for all' }), 'create'))
    .body as Json;
  await ok(
    writer.call('POST', GUILD_BASE, BOT, {
      name: 'mods',
      description: 'mods',
      default_member_permissions: MANAGE_GUILD,
    }),
    'create mods',
  );
  assert.deepEqual(await carolSees(reader), ['open']);

  // A permission PUT: carol denied by a user overwrite, then the overwrites removed again.
  const permissionsPath = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${open.id}/permissions`;
  await ok(
    writer.call('PUT', permissionsPath, ALICE_PERM, { permissions: [{ id: CAROL_ID, type: 2, permission: false }] }),
    'deny carol',
  );
  assert.deepEqual(await carolSees(reader), []);
  await ok(writer.call('PUT', permissionsPath, ALICE_PERM, { permissions: [] }), 'clear overwrites');
  assert.deepEqual(await carolSees(reader), ['open']);

  // The member's roles, through the admin API: carol becomes a moderator (MANAGE_GUILD).
  await admin('PUT', `/admin/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, { roles: [MODERATOR_ROLE] });
  assert.deepEqual(await carolSees(reader), ['mods', 'open']);

  // A role of the member changes: the moderator role loses MANAGE_GUILD.
  await editGuild((guild) => {
    const role = (guild.roles as Json[]).find((r) => r.id === MODERATOR_ROLE)!;
    role.permissions = (BigInt(role.permissions as string) & ~BigInt(MANAGE_GUILD)).toString();
  });
  assert.deepEqual(await carolSees(reader), ['open']);

  // A role overwrite on the command for that role: the overwrite now decides (allowed).
  await ok(
    writer.call('PUT', permissionsPath.replace(open.id as string, (await commandId(writer, 'mods'))!), ALICE_PERM, {
      permissions: [{ id: MODERATOR_ROLE, type: 1, permission: true }],
    }),
    'allow moderators',
  );
  assert.deepEqual(await carolSees(reader), ['mods', 'open']);

  // A channel overwrite: @everyone loses USE_APPLICATION_COMMANDS in #general.
  await editGuild((guild) => {
    const general = (guild.channels as Json[]).find((c) => c.id === GENERAL)!;
    general.permission_overwrites = [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: USE_APPLICATION_COMMANDS }];
  });
  assert.deepEqual(await carolSees(reader), []);
  await editGuild((guild) => {
    const general = (guild.channels as Json[]).find((c) => c.id === GENERAL)!;
    general.permission_overwrites = [];
  });
  assert.deepEqual(await carolSees(reader), ['mods', 'open']);

  // A command edit, then its deletion.
  await ok(writer.call('PATCH', `${GUILD_BASE}/${open.id}`, BOT, { name: 'opened' }), 'edit');
  assert.deepEqual(await carolSees(reader), ['mods', 'opened']);
  await ok(writer.call('DELETE', `${GUILD_BASE}/${open.id}`, BOT), 'delete');
  assert.deepEqual(await carolSees(reader), ['mods']);

  // The member's roles again: no roles, the role overwrite no longer applies.
  await admin('PUT', `/admin/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, { roles: [] });
  assert.deepEqual(await carolSees(reader), []);
}

async function commandId(node: Node, name: string): Promise<string | undefined> {
  const list = (await ok(node.call('GET', GUILD_BASE, BOT), 'list')).body as Json[];
  return list.find((c) => c.name === name)?.id as string | undefined;
}

describe('the picker cache on SQLite', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer({ world: exampleWorld() });
  });
  after(async () => {
    await server?.close();
  });

  test('a permission PUT, member roles, a role, a channel overwrite, a command edit and delete show at once', async () => {
    const node: Node = {
      call: (method, path, auth, body) =>
        server.request(method, path.startsWith('/admin') ? `${server.url}${path}` : path, { auth, body }),
      store: server.slashd.store,
    };
    await changesShowAtOnce(node, node);
  });
});

describe('the picker cache on PostgreSQL, two nodes', () => {
  let pair: NodePair;
  before(async () => {
    pair = await startNodePair('index-cache', exampleWorld());
  });
  after(async () => {
    await pair?.close();
  });

  test("node B's next answer shows each change made on node A", async () => {
    const nodeOf = (n: NodePair['a']): Node => ({
      call: (method, path, auth, body) =>
        requestAt(n.url, method, path.startsWith('/admin') ? `${n.url}${path}` : path, { auth, body }),
      store: n.slashd.store,
    });
    await changesShowAtOnce(nodeOf(pair.a), nodeOf(pair.b));
  });
});

describe('the picker cache keys an answer by role set', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer({ world: exampleWorld() });
  });
  after(async () => {
    await server?.close();
  });

  /** The picker of `token` in #general from `service`, checked against the uncached answer; and whether it was a hit. */
  async function openedBy(service: CommandIndexService, token: string): Promise<{ json: string; hit: boolean }> {
    const world = server.slashd.store.world;
    const user = (await world.findUserByToken(token))!;
    const guild = (await server.slashd.store.members.findGuildByChannelWithMembers(GENERAL, [user.id]))!;
    const channel = guild.channels.find((c) => c.id === GENERAL)!;
    const hitsBefore = service.cacheCounts()[0]!.hits;
    const json = (await service.buildBytes(service.sceneOf(guild, channel, user)!, null)).toString();
    const fresh = await new CommandIndexService(server.slashd.store, { cacheBytes: 0 }).buildJson(
      guild,
      channel,
      user,
      null,
    );
    assert.equal(json, fresh, 'the answer is byte for byte the uncached one');
    return { json, hit: service.cacheCounts()[0]!.hits > hitsBefore };
  }

  test('members with the same roles share one answer; a member a USER overwrite names has its own', async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      ok(server.request(method, `${server.url}${path}`, { auth: ADMIN_AUTH, body }), path);
    // Dave takes carol's role set (none), and her age verification.
    await admin('PUT', `/admin/guilds/${TEST_GUILD_ID}/members/${DAVE_ID}`, { roles: [] });
    await admin('PATCH', `/admin/users/${DAVE_ID}`, { age_verified: true });
    const open = (
      await ok(server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'open', description: 'all' } }), 'create')
    ).body as Json;
    const service = new CommandIndexService(server.slashd.store);

    assert.equal((await openedBy(service, CAROL_TOKEN)).hit, false);
    const dave = await openedBy(service, DAVE_TOKEN);
    assert.equal(dave.hit, true, "dave's picker is carol's answer, kept");

    // An overwrite naming dave: his answer is his own, carol's is still shared.
    const permissionsPath = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${open.id}/permissions`;
    await ok(
      server.request('PUT', permissionsPath, {
        auth: ALICE_PERM,
        body: { permissions: [{ id: DAVE_ID, type: 2, permission: false }] },
      }),
      'deny dave',
    );
    const carol = await openedBy(service, CAROL_TOKEN);
    const daveDenied = await openedBy(service, DAVE_TOKEN);
    assert.equal(daveDenied.hit, false, "dave's answer is not carol's");
    assert.notEqual(daveDenied.json, carol.json);
    assert.ok(carol.json.includes('"name":"open"'));
    assert.ok(!daveDenied.json.includes('"name":"open"'));
  });
});
