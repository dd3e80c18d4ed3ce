/**
 * A guild holds at most 1,000 active threads (v10's 160006), on SQLite and PostgreSQL: with 999
 * active, racing creates by a plain member store exactly one; the next is refused and nothing is
 * written; archiving one lets a new one in, and unarchiving past the cap is refused. A bot then logs
 * in over plain JSON and over zlib-stream and gets READY and a GUILD_CREATE holding all 1,000
 * threads, larger than the connection's send buffer bound. A world file with more threads of its
 * own is refused. The send buffer bound closes only a client that leaves payloads unread: one that
 * reads gets a single dispatch far larger than the bound and stays connected.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { Channel } from '../../core/world/types.js';
import { MAX_ACTIVE_THREADS } from './rules/limits.js';
import { GatewayClients } from '../../../test/helpers/gateway-client.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { adminRequest, startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import { changeWorldGuild } from '../../../test/helpers/guild-admin.js';
import {
  ALICE_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_BOT_TOKEN,
  exampleWorld,
  GENERAL,
  TEST_GUILD_ID,
  THREAD,
} from '../../../test/helpers/world.js';

const GUILDS = 1 << 0;
/** Far below one GUILD_CREATE of 1,000 threads: that payload alone must not close the client. */
const SEND_BUFFER_BYTES = 64 * 1024;
/** Creates sent at once when one active thread is left. */
const RACERS = 4;
const SEEDED_AT = '2026-02-01T00:00:00.000Z';
/** CREATE_PUBLIC_THREADS, given to @everyone: Carol, a plain member, starts threads. */
const CREATE_PUBLIC_THREADS = 1n << 35n;

/** A stored public thread of Carol's in #general, as the API would store it. */
function seededThread(id: string): Channel {
  return {
    id,
    type: 11,
    name: `seeded-${id}`,
    nsfw: false,
    parent_id: GENERAL,
    permission_overwrites: [],
    thread: {
      owner_id: CAROL_ID,
      archived: false,
      locked: false,
      auto_archive_duration: 1440,
      archive_timestamp: SEEDED_AT,
      create_timestamp: SEEDED_AT,
      invitable: true,
      rate_limit_per_user: 0,
    },
  };
}

function assertCapped(response: { status: number; body: { code?: number } }, what: string): void {
  assert.equal(response.status, 400, what);
  assert.equal(response.body.code, RESTJSONErrorCodes.MaximumActiveThreads, what);
}

function describeCap(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: at most ${MAX_ACTIVE_THREADS} active threads per guild`, () => {
    let server: TestServer;
    const clients = new GatewayClients();
    const createThread = (threadName: string) =>
      server.request('POST', `/channels/${GENERAL}/threads`, {
        auth: CAROL_TOKEN,
        body: { name: threadName, type: 11 },
      });
    const activeCount = async () => {
      const active = await server.request('GET', `/guilds/${TEST_GUILD_ID}/threads/active`, { auth: BOT });
      assert.equal(active.status, 200, active.text);
      return (active.body.threads as unknown[]).length;
    };

    before(async () => {
      server = await startServer(options());
      await changeWorldGuild(server, TEST_GUILD_ID, (guild) => ({
        ...guild,
        roles: guild.roles.map((role) =>
          role.id === TEST_GUILD_ID
            ? { ...role, permissions: (BigInt(role.permissions) | CREATE_PUBLIC_THREADS).toString() }
            : role,
        ),
      }));
      // The example world's own thread is active and counts: seed up to one short of the cap.
      const seeded = MAX_ACTIVE_THREADS - 2;
      for (let i = 0; i < seeded; i++) {
        const id = (1_400_000_000_000_000_000n + BigInt(i)).toString();
        assert.equal(await server.slashd.store.threads.createThread(TEST_GUILD_ID, seededThread(id), []), 'created');
      }
      assert.equal(await activeCount(), MAX_ACTIVE_THREADS - 1);
    });

    after(async () => {
      clients.dropAll();
      await server?.close();
      await cleanup();
    });

    test('racing creates at 999 active: exactly one is stored, the others and the next get 160006', async () => {
      const answers = await Promise.all(Array.from({ length: RACERS }, (_, i) => createThread(`racer-${i}`)));
      const created = answers.filter((answer) => answer.status === 201);
      assert.equal(created.length, 1, answers.map((answer) => `${answer.status} ${answer.text}`).join('\n'));
      for (const refused of answers.filter((answer) => answer.status !== 201)) assertCapped(refused, 'a racer');
      assert.equal(await activeCount(), MAX_ACTIVE_THREADS);
      assertCapped(await createThread('one-too-many'), 'the 1,001st');
      assert.equal(await activeCount(), MAX_ACTIVE_THREADS, 'nothing written');
    });

    test('an archived thread does not count: archive one, a new one is allowed; unarchiving past the cap is refused', async () => {
      const active = await server.request('GET', `/guilds/${TEST_GUILD_ID}/threads/active`, { auth: BOT });
      const mine = (active.body.threads as { id: string; owner_id?: string }[]).find(
        (thread) => thread.owner_id === CAROL_ID && thread.id !== THREAD,
      );
      assert.ok(mine, 'one of Carol’s threads');
      const archived = await server.request('PATCH', `/channels/${mine.id}`, {
        auth: CAROL_TOKEN,
        body: { archived: true },
      });
      assert.equal(archived.status, 200, archived.text);
      assert.equal(await activeCount(), MAX_ACTIVE_THREADS - 1);
      const again = await createThread('after-archiving');
      assert.equal(again.status, 201, again.text);
      // A moderator's unarchive (Alice is an administrator): the cap holds for them too.
      const unarchived = await server.request('PATCH', `/channels/${mine.id}`, {
        auth: ALICE_TOKEN,
        body: { archived: false },
      });
      assertCapped(unarchived, 'unarchiving the 1,001st');
      const thread = await server.request('GET', `/channels/${mine.id}`, { auth: BOT });
      assert.equal(thread.body.thread_metadata?.archived, true, 'it stays archived');
      assert.equal(await activeCount(), MAX_ACTIVE_THREADS);
    });

    for (const query of ['?v=10&encoding=json', '?v=10&encoding=json&compress=zlib-stream']) {
      test(`a bot logs in (${query}) and gets READY and a GUILD_CREATE with the 1,000 threads`, async () => {
        const client = await clients.connect(server.url, query);
        const ready = await client.login(DEMO_BOT_TOKEN, GUILDS);
        assert.ok(ready.d.session_id);
        const guild = await client.next((p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID, 'GUILD_CREATE');
        assert.equal(guild.d.threads.length, MAX_ACTIVE_THREADS);
        assert.ok(JSON.stringify(guild).length > SEND_BUFFER_BYTES, 'one payload larger than the bound');
        // Still connected: a heartbeat is answered.
        client.send({ op: 1, d: guild.s });
        await client.nextOp(11);
        assert.equal(client.closed, null);
        client.drop();
      });
    }
  });
}

const gateway = { sendBufferBytes: SEND_BUFFER_BYTES };

describeCap(
  'SQLite',
  () => ({ config: { gateway } }),
  async () => {},
);

const schema = freshSchemaName('slashd_thread_cap');
describeCap(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema, gateway } }),
  () => dropSchema(schema),
);

describe('a world file holds at most the cap of threads per guild', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  test('a guild with 1,001 threads is refused with the path of the first one past the cap, and nothing is written', async () => {
    const world = exampleWorld();
    const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
    const before = guild.channels.length;
    const worldThreads = guild.channels.filter((c) => c.type === 11 || c.type === 12 || c.type === 10).length;
    for (let i = worldThreads; i <= MAX_ACTIVE_THREADS; i++) {
      const { thread: _state, ...plain } = seededThread((1_410_000_000_000_000_000n + BigInt(i)).toString());
      guild.channels.push(plain);
    }
    const refused = await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}`, guild);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.text, new RegExp(`"channels".*"${before + MAX_ACTIVE_THREADS - worldThreads}"`));
    const stored = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}`);
    assert.equal(stored.body.channels.length, before, 'nothing written');
    guild.channels.pop();
    const allowed = await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}`, guild);
    assert.ok(allowed.status < 300, allowed.text);
  });
});

describe('the send buffer bound closes only clients that leave payloads unread', () => {
  let server: TestServer;
  const clients = new GatewayClients();
  before(async () => {
    server = await startServer({ config: { gateway: { sendBufferBytes: SEND_BUFFER_BYTES } } });
  });
  after(async () => {
    clients.dropAll();
    await server.close();
  });

  test('a client that reads gets one dispatch 64 times the bound, and stays connected', async () => {
    const client = await clients.connect(server.url);
    const ready = await client.login(DEMO_BOT_TOKEN, GUILDS);
    await client.nextDispatch('GUILD_CREATE');
    // Far more than the kernel's socket buffers take at once: most of it waits in ours.
    const big = 'x'.repeat(SEND_BUFFER_BYTES * 64);
    server.slashd.bus.publish('WORLD_DISPATCH', {
      t: 'GUILD_UPDATE',
      guildId: TEST_GUILD_ID,
      channelId: null,
      recipientIds: [],
      d: { id: TEST_GUILD_ID, big },
    });
    const update = await client.nextDispatch('GUILD_UPDATE');
    assert.equal(update.d.big.length, big.length);
    assert.ok(server.slashd.gateway.isAttached(ready.d.session_id));
    client.send({ op: 1, d: update.s });
    await client.nextOp(11);
    assert.equal(client.closed, null);
  });
});
