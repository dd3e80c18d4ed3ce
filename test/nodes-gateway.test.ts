/**
 * Two slashd nodes in one process on one PostgreSQL schema and one Redis prefix, each with its
 * own HTTP server and gateway: a bot that identified on A resumes on B and gets what it missed,
 * then RESUMED; an interaction invoked through A's HTTP reaches the app's only session, on B;
 * a permissions change on A reaches B's session; session starts are counted across both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GatewayClient } from './helpers/gateway-client.js';
import { GatewayClients } from './helpers/gateway-client.js';
import { requestAt, startNodePair, type InProcessNode, type NodePair } from './helpers/nodes.js';
import {
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  OTHER_APP_ID,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';

const GUILDS = 1;

type Node = InProcessNode;

describe('gateway sessions across two nodes', () => {
  let pair: NodePair;
  let prefix: string;
  const clients = new GatewayClients();
  let a: Node;
  let b: Node;

  async function connect(to: Node): Promise<GatewayClient> {
    return clients.connect(to.url);
  }

  function publishPermissions(from: Node, commandId: string): void {
    from.slashd.bus.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', {
      applicationId: DEMO_APP_ID,
      data: { id: commandId, application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, permissions: [] },
    });
  }

  /** Until A's dispatches so far are kept in Redis: its bus queue, then a round trip on its connection. */
  async function appendedOn(n: Node): Promise<void> {
    await n.slashd.gateway.settled();
    await n.slashd.redis!.commands.ping();
  }

  const api = (n: Node, method: string, path: string, auth: string, body?: unknown) =>
    requestAt(n.url, method, path, { auth, body });

  before(async () => {
    pair = await startNodePair('nodes-gateway', exampleWorld());
    ({ a, b, prefix } = pair);
  });

  after(async () => {
    clients.dropAll();
    await pair?.close();
  });

  test('identified on A, resumed on B: the missed dispatches in order, then RESUMED, then live ones once', async () => {
    const first = await connect(a);
    const ready = await first.login(DEMO_BOT_TOKEN, GUILDS);
    const sessionId = ready.d.session_id as string;
    assert.equal((await first.nextDispatch('GUILD_CREATE')).s, 2);
    publishPermissions(b, '1');
    const seen = await first.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.equal(seen.s, 3);

    first.drop();
    for (let i = 0; i < 1000 && a.slashd.gateway.isAttached(sessionId); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(a.slashd.gateway.isAttached(sessionId), false);
    publishPermissions(a, '2');
    await appendedOn(a);

    const second = await connect(b);
    await second.nextOp(10);
    second.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq: 3 } });
    const missed = await second.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.deepEqual([missed.s, missed.d.id], [4, '2']);
    const resumed = await second.nextDispatch('RESUMED');
    assert.equal(resumed.s, 5);
    assert.equal(b.slashd.gateway.isAttached(sessionId), true);
    // The registry says so too, once B's writes so far are done (one connection, in order).
    const redis = b.slashd.redis!.commands;
    await redis.ping();
    assert.equal(await redis.hget(`${prefix}gw:s:${sessionId}`, 'attached'), '1');

    // Published on A (which held the session) and on B: the client gets each once, through B.
    publishPermissions(a, '3');
    publishPermissions(b, '4');
    const live = await second.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    const next = await second.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.deepEqual(
      [live, next].map((p) => p.s),
      [6, 7],
    );
    assert.deepEqual(new Set([live.d.id, next.d.id]), new Set(['3', '4']));
    second.close(1000);
    await second.closedWith();
  });

  test('resumed on B after the dispatch log moved past its place: INVALID_SESSION (not resumable), counted', async () => {
    const first = await connect(a);
    const ready = await first.login(DEMO_BOT_TOKEN, GUILDS);
    const sessionId = ready.d.session_id as string;
    await first.nextDispatch('GUILD_CREATE');
    publishPermissions(b, '10');
    await first.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    const seq = first.payloads.reduce((last, p) => Math.max(last, p.s ?? 0), 0);
    first.drop();
    for (let i = 0; i < 1000 && a.slashd.gateway.isAttached(sessionId); i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await appendedOn(a);
    // The log no longer holds the session's place (trimmed past it); an event for another app follows.
    await b.slashd.redis!.commands.xtrim(`${prefix}gw:log`, 'MAXLEN', 0);
    b.slashd.bus.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', {
      applicationId: OTHER_APP_ID,
      data: { id: '11', application_id: OTHER_APP_ID, guild_id: TEST_GUILD_ID, permissions: [] },
    });
    await appendedOn(b);
    const before = await b.slashd.metrics.text();
    const counted = (text: string) =>
      Number(/^slashd_gateway_sessions_invalidated_total\{reason="log_gap"\} (\d+)/m.exec(text)?.[1] ?? NaN);

    const second = await connect(b);
    await second.nextOp(10);
    second.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq } });
    const answer = await second.next((p) => p.op === 9 || p.t === 'RESUMED', 'INVALID_SESSION');
    assert.deepEqual([answer.op, answer.d], [9, false], 'not resumed over what the log no longer has');
    assert.equal(counted(await b.slashd.metrics.text()), counted(before) + 1);
    // The library identifies again, on the same socket.
    second.identify(DEMO_BOT_TOKEN, GUILDS);
    assert.notEqual((await second.nextDispatch('READY')).d.session_id, sessionId);
    second.close(1000);
    await second.closedWith();
  });

  test('session starts are counted for the bot across nodes (GET /gateway/bot)', async () => {
    const before = await api(a, 'GET', '/gateway/bot', BOT);
    const client = await connect(b);
    await client.login(DEMO_BOT_TOKEN, GUILDS);
    const afterStart = await api(a, 'GET', '/gateway/bot', BOT);
    assert.equal(afterStart.body!.session_start_limit.remaining, before.body!.session_start_limit.remaining - 1);
    assert.ok(afterStart.body!.session_start_limit.reset_after <= before.body!.session_start_limit.reset_after);
    client.close(1000);
    await client.closedWith();
  });

  test("an interaction invoked on A reaches the app's only session, on B; a permissions PUT on A too", async () => {
    const bot = await connect(b);
    await bot.login(DEMO_BOT_TOKEN, GUILDS);
    await bot.nextDispatch('GUILD_CREATE');

    const created = await api(a, 'POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, BOT, {
      name: 'where',
      description: 'Where',
    });
    assert.ok(created.status === 201 || created.status === 200, created.text);
    const invoked = await api(a, 'POST', '/interactions', ALICE_TOKEN, {
      type: 2,
      application_id: DEMO_APP_ID,
      guild_id: TEST_GUILD_ID,
      channel_id: GENERAL,
      data: { id: created.body!.id, name: 'where', type: 1, version: created.body!.version },
    });
    assert.equal(invoked.status, 200, invoked.text);
    assert.equal(invoked.body!.state, 'pending', 'A sees the session B holds');
    const interaction = await bot.nextDispatch('INTERACTION_CREATE');
    assert.equal(interaction.d.id, invoked.body!.id);

    const put = await api(
      a,
      'PUT',
      `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${created.body!.id}/permissions`,
      // Alice owns the guild and granted the app permissions.update (the example world's token).
      'Bearer alice-perm-token',
      { permissions: [{ id: TEST_GUILD_ID, type: 1, permission: false }] },
    );
    assert.equal(put.status, 200, put.text);
    const update = await bot.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.equal(update.d.id, created.body!.id);
  });
});
