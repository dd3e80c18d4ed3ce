/**
 * A node drains on SIGTERM (a real `slashd serve` process on PostgreSQL and Redis): an
 * interaction request under way when the signal comes still gets its answer, gateway clients are
 * told to RECONNECT (op 7) and their sessions stay resumable in Redis, the snowflake node lease is
 * released, and the process exits 0.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { startRegisteredApp, type AppServer } from './helpers/app-server.js';
import { CLI, killAll, startChild } from './helpers/cli-process.js';
import { GatewayClient } from './helpers/gateway-client.js';
import { Inbox } from './helpers/inbox.js';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';
import { deletePrefix, freshRedisPrefix, redisUrl } from './helpers/redis.js';
import { ALICE_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';
import type { Json } from './helpers/json.js';
import { invocationBody } from './helpers/invocation.js';

const schema = freshSchemaName('drain');
const prefix = freshRedisPrefix('drain');
let app: AppServer | undefined;
let gateway: GatewayClient | undefined;

after(async () => {
  gateway?.drop();
  killAll();
  await app?.close();
  await dropSchema(schema);
  await deletePrefix(prefix);
});

async function heldLeases(): Promise<number> {
  const result = await withAdminClient((client) =>
    client.query(`SELECT count(*)::int AS n FROM "${schema}".node_leases WHERE holder <> ''`),
  );
  return (result.rows[0] as { n: number }).n;
}

describe('SIGTERM drains a node', () => {
  test('the request under way is answered, gateway clients get op 7, the lease is released, exit 0', async () => {
    const child = startChild(process.execPath, [CLI, 'serve', '--port', '0', '--demo'], {
      SLASHD_DB: postgresConnectionString,
      SLASHD_DB_SCHEMA: schema,
      SLASHD_ADMIN_TOKEN: 'drain-admin-token',
      SLASHD_REDIS_URL: redisUrl,
      SLASHD_REDIS_PREFIX: prefix,
    });
    const url = (await child.waitForLine(/slashd listening on (\S+)/))[1]!;
    const exited = new Promise<number | null>((resolve) => child.process.once('exit', resolve));
    const api = `${url}/api/v10`;
    assert.equal(await heldLeases(), 1);

    // An app whose answer the test holds back until the node has been told to stop.
    const arrived = new Inbox<Json>((interaction) => String(interaction.id));
    let answer: (body: Json) => void = () => {};
    const answered = new Promise<Json>((resolve) => (answer = resolve));
    app = await startRegisteredApp(api, DEMO_BOT_TOKEN, async (interaction) => {
      arrived.push(interaction);
      return { inline: await answered };
    });
    const created = await fetch(`${api}/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      method: 'POST',
      headers: { authorization: BOT, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'slow', description: 'Answered after SIGTERM' }),
    });
    const command = (await created.json()) as Json;
    assert.equal(created.status, 201, JSON.stringify(command));

    gateway = await GatewayClient.connect(url);
    const ready = await gateway.login(DEMO_BOT_TOKEN, 1);
    const sessionId = ready.d.session_id as string;

    const invoked = fetch(`${api}/interactions`, {
      method: 'POST',
      headers: { authorization: ALICE_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify(invocationBody(command)),
    });
    await arrived.find(() => true, 'the interaction at the app');

    child.process.kill('SIGTERM');
    const reconnect = await gateway.nextOp(7);
    assert.equal(reconnect.d, null);
    assert.equal((await gateway.closedWith()).code, 4000, 'a code the client resumes after');
    await child.waitForLine(/^slashd draining/);

    answer({ type: 4, data: { content: 'answered while draining' } });
    const response = await invoked;
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.state, 'responded');

    assert.equal(await exited, 0);
    assert.match(child.stdout(), /slashd stopped/);
    assert.equal(await heldLeases(), 0, 'the node id is free for the next node');

    // The session is still resumable on any node: detached, for the resume window.
    const redis = new Redis(redisUrl);
    try {
      assert.equal(await redis.hget(`${prefix}gw:s:${sessionId}`, 'attached'), '0');
      const ttl = await redis.pttl(`${prefix}gw:s:${sessionId}`);
      assert.ok(ttl > 0 && ttl <= 3 * 60 * 1000, `expires within the resume window (${ttl} ms)`);
    } finally {
      await redis.quit();
    }
  });
});
