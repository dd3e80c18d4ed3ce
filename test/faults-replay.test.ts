/**
 * No dispatch lost when the node holding a bot's session goes, or Redis does (issue 39, rows 1 and
 * 2). Real `slashd serve` nodes on PostgreSQL (own schema) and a private redis-server:
 *
 * - SIGTERM and kill -9 of the node a bot is connected to, with a raw gateway client and with an
 *   unmodified discord.js bot behind a TCP balancer: every MESSAGE_CREATE posted while it was away
 *   reaches it after its RESUME on another node, numbered on from its last sequence number, before
 *   RESUMED (the dispatch log, `redis-bus.ts`, read on by `BusDispatcher.catchUp`).
 * - The private Redis stopped and restarted empty, or stalled (SIGSTOP), with a raw client and with
 *   discord.js: every message acknowledged meanwhile either reaches the bot or the bot is told
 *   INVALID_SESSION (not resumable) and, once it identified again, sees the state (its guild sent
 *   again, every acknowledged message found by a refetch): never a silent gap.
 *
 * The order of events, not timing, makes each case: the bot reconnects only once the messages were
 * acknowledged (the raw client decides; the balancer holds discord.js). Every wait is for an event
 * or a condition, with a generous guard.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { Redis } from 'ioredis';
import type { SlashdConfig } from '../src/app.js';
import { DISPATCH_GAP_CLOCK_MARGIN_MS } from '../src/events/bus.js';
import { RedisPendingInteractions } from '../src/gateway/pending-interactions.js';
import { SessionKeys } from '../src/gateway/session-registry.js';
import { killAll } from './helpers/cli-process.js';
import { startFaultCluster, type FaultCluster, type FaultNode } from './helpers/fault-nodes.js';
import { GatewayClient, type Payload } from './helpers/gateway-client.js';
import { Inbox } from './helpers/inbox.js';
import { startTcpBalancer, type TcpBalancer } from './helpers/tcp-balancer.js';
import { invocationBody } from './helpers/invocation.js';
import {
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  GUILD_BASE,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';

/** GUILDS | GUILD_MESSAGES: the bot hears its guild's messages. */
const INTENTS = 1 | (1 << 9);
const GUARD_MS = 20_000;
/** How long one live message before an outage is waited for, and how many are tried. */
const LIVE_TRY_MS = 5_000;
const LIVE_TRIES = 4;
const OP_DISPATCH = 0;
const OP_INVALID_SESSION = 9;

after(() => killAll());

function portOf(node: FaultNode): number {
  return Number(new URL(node.url).port);
}

async function metric(node: FaultNode, series: string): Promise<number> {
  const response = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const text = await response.text();
  const escaped = series.replace(/[{}"]/g, (c) => `\\${c}`);
  const line = new RegExp(`^slashd_${escaped} (\\d+)`, 'm').exec(text);
  assert.ok(line, `metric ${series} present on node ${node.index}`);
  return Number(line[1]);
}

/** `count` messages posted by the bot in #general through `node`, each acknowledged (200): their ids. */
async function post(node: FaultNode, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await node.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: `${label} ${i}` },
    });
    assert.equal(response.status, 200, `message on node ${node.index}: ${response.text}`);
    ids.push((response.body as { id: string }).id);
  }
  return ids;
}

/** SIGKILL: no drain; resolves once the process is gone. */
async function killNine(node: FaultNode): Promise<void> {
  const child = node.child!.process;
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

/** SIGTERM: the node drains (op 7, close 4000 to every client) and exits. */
async function sigterm(node: FaultNode): Promise<void> {
  assert.equal(await node.child!.stop(), 0, `node ${node.index} exited 0 after SIGTERM`);
}

function lastSeq(client: GatewayClient): number {
  return client.payloads.reduce((last, p) => Math.max(last, p.s ?? 0), 0);
}

function messageCreates(payloads: readonly Payload[]): Payload[] {
  return payloads.filter((p) => p.op === OP_DISPATCH && p.t === 'MESSAGE_CREATE');
}

describe("a raw gateway client resumes on another node after its node's SIGTERM or kill -9", () => {
  let cluster: FaultCluster;
  const clients: GatewayClient[] = [];

  before(async () => {
    cluster = await startFaultCluster({ nodes: 3, mode: 'processes', world: exampleWorld() });
  });

  after(async () => {
    for (const client of clients) client.drop();
    await cluster?.close();
  });

  async function connect(node: FaultNode): Promise<GatewayClient> {
    const client = await GatewayClient.connect(node.url);
    clients.push(client);
    return client;
  }

  /**
   * The session held by `holder` goes with it (`stop`); messages are posted through `writer`
   * meanwhile; the client resumes on `resumer`: they come first, in order, then RESUMED, then live.
   */
  async function caseOf(
    sessionId: string,
    client: GatewayClient,
    holder: FaultNode,
    writer: FaultNode,
    resumer: FaultNode,
    stop: (node: FaultNode) => Promise<void>,
  ): Promise<GatewayClient> {
    const seen = await post(writer, 1, 'before');
    await client.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === seen[0], 'the message before, live');
    const seq = lastSeq(client);
    await stop(holder);
    const gap = await post(writer, 3, `away from node ${holder.index}`);

    const resumed = await connect(resumer);
    await resumed.nextOp(10);
    resumed.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq } });
    const end = await resumed.next((p) => p.t === 'RESUMED' || p.op === OP_INVALID_SESSION, 'RESUMED');
    assert.equal(end.t, 'RESUMED', `resumed on node ${resumer.index}, not told INVALID_SESSION`);
    const replayed = messageCreates(resumed.payloads);
    assert.deepEqual(
      replayed.map((p) => p.d.id),
      gap,
      'every message posted while away, in order, before RESUMED',
    );
    const numbers = resumed.payloads.filter((p) => p.op === OP_DISPATCH).map((p) => p.s);
    assert.deepEqual(
      numbers,
      numbers.map((_, i) => seq + 1 + i),
      'numbered on from the client’s seq, no gap',
    );
    const live = await post(writer, 1, 'after');
    const next = await resumed.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === live[0], 'a live message');
    assert.equal(next.s, end.s! + 1);
    assert.ok((await metric(resumer, 'gateway_dispatches_replayed_total')) >= gap.length);
    assert.equal(await metric(resumer, 'gateway_sessions_invalidated_total{reason="log_gap"}'), 0);
    return resumed;
  }

  test('SIGTERM of its node: the messages posted meanwhile replayed on RESUME on a third node', async () => {
    const [node1, node2, node3] = cluster.nodes as [FaultNode, FaultNode, FaultNode];
    const client = await connect(node2);
    const ready = await client.login(DEMO_BOT_TOKEN, INTENTS);
    await client.nextDispatch('GUILD_CREATE');
    const sessionId = ready.d.session_id as string;
    const resumed = await caseOf(sessionId, client, node2, node1, node3, sigterm);

    // And again with kill -9 of the node it resumed on: back on the last node.
    await caseOf(sessionId, resumed, node3, node1, node1, killNine);
  });
});

describe('a discord.js bot behind a balancer: SIGTERM, then kill -9, of the node holding its session', () => {
  let cluster: FaultCluster;
  let balancer: TcpBalancer;
  let client: Client;
  const messages = new Inbox<string>((id) => `message ${id}`);
  const resumes = new Inbox<{ shard: number }>(({ shard }) => `shard ${shard} resumed`);
  const readies = new Inbox<number>((shard) => `shard ${shard} ready`);

  before(async () => {
    balancer = await startTcpBalancer();
    cluster = await startFaultCluster({
      nodes: 3,
      mode: 'processes',
      world: exampleWorld(),
      args: ['--gateway-url', `ws://127.0.0.1:${balancer.port}`],
    });
    const [node1, node2, node3] = cluster.nodes as [FaultNode, FaultNode, FaultNode];
    balancer.setTargets([portOf(node2), portOf(node3), portOf(node1)]);
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      rest: { api: `${node1.url}/api` },
    });
    client.on(Events.MessageCreate, (message: Message) => messages.push(message.id));
    client.on(Events.ShardResume, (shard) => resumes.push({ shard }));
    client.on(Events.ShardReady, (shard) => readies.push(shard));
    const ready = new Inbox<true>(() => 'ready');
    client.once(Events.ClientReady, () => ready.push(true));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'the bot ready', GUARD_MS);
  });

  after(async () => {
    await client?.destroy();
    await cluster?.close();
    await balancer?.close();
  });

  async function away(holder: FaultNode, stop: (node: FaultNode) => Promise<void>, resumer: FaultNode) {
    const [node1] = cluster.nodes as [FaultNode];
    const before = await post(node1, 1, 'before');
    await messages.find((id) => id === before[0], 'the message before, live', GUARD_MS);
    const resumesBefore = resumes.all().length;
    // The bot cannot reconnect until the messages were acknowledged with its node gone.
    balancer.hold();
    await stop(holder);
    const gap = await post(node1, 3, `away from node ${holder.index}`);
    balancer.release();
    await resumes.findMany(resumesBefore + 1, () => true, 'the bot resumed');
    assert.equal(balancer.forwarded.at(-1), portOf(resumer), `it resumed on node ${resumer.index}`);
    for (const id of gap) await messages.find((seen) => seen === id, `message ${id} after RESUME`, GUARD_MS);
    for (const id of gap) assert.equal(messages.all().filter((seen) => seen === id).length, 1, `${id} once`);
    assert.equal(readies.all().length, 1, 'resumed, never identified again');
    assert.ok((await metric(resumer, 'gateway_dispatches_replayed_total')) >= gap.length);
  }

  test('SIGTERM of its node: every message posted meanwhile reaches the bot after RESUME', async () => {
    const [node1, node2, node3] = cluster.nodes as [FaultNode, FaultNode, FaultNode];
    assert.deepEqual(balancer.forwarded, [portOf(node2)], 'the bot is connected to node 2');
    await away(node2, sigterm, node3);
    void node1;
  });

  test('kill -9 of its node: every message posted meanwhile reaches the bot after RESUME', async () => {
    const [node1, , node3] = cluster.nodes as [FaultNode, FaultNode, FaultNode];
    await away(node3, killNine, node1);
  });
});

/** Short Redis bounds: an outage is noticed within a second or two. */
const FAST: Partial<SlashdConfig> = {
  redisTimeouts: { commandTimeoutMs: 1_000, socketTimeoutMs: 1_500, healthCheckMs: 200, connectTimeoutMs: 1_000 },
};

describe('a Redis outage: no acknowledged message silently missing at the bot', () => {
  let cluster: FaultCluster;
  const clients: GatewayClient[] = [];

  before(async () => {
    cluster = await startFaultCluster({ nodes: 2, world: exampleWorld(), config: FAST });
  });

  after(async () => {
    for (const client of clients) client.drop();
    await cluster?.close();
  });

  async function notReady(node: FaultNode): Promise<void> {
    const deadline = Date.now() + GUARD_MS;
    while ((await fetch(`${node.url}/readyz`)).status !== 503) {
      assert.ok(Date.now() < deadline, `node ${node.index} saw the stall`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Both nodes ready again (Redis and the subscribed connection back) after the previous test's outage. */
  async function allReady(): Promise<void> {
    const deadline = Date.now() + GUARD_MS;
    for (const node of cluster.nodes) {
      while ((await fetch(`${node.url}/readyz`)).status !== 200) {
        assert.ok(Date.now() < deadline, `node ${node.index} ready again`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  beforeEach(() => allReady());

  /** Messages through both nodes while Redis is away: the ids of those answered 200. */
  async function postDuringOutage(nodes: readonly FaultNode[]): Promise<string[]> {
    const acknowledged: string[] = [];
    for (let i = 0; i < 4; i++) {
      const node = nodes[i % nodes.length]!;
      const response = await node.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { content: `during the outage ${i}` },
      });
      assert.ok(response.status === 200 || response.status === 503, response.text);
      if (response.status === 200) acknowledged.push((response.body as { id: string }).id);
    }
    return acknowledged;
  }

  /**
   * Each acknowledged message reached the bot, or the bot was told INVALID_SESSION (d: false):
   * then it identifies again, as a library does, and its new session sees the state.
   */
  async function noSilentGap(bot: GatewayClient, acknowledged: readonly string[], from: number): Promise<void> {
    const received = () => new Set(messageCreates(bot.payloads.slice(from)).map((p) => p.d.id as string));
    const outcome = await bot.next(
      (p) =>
        (p.op === OP_INVALID_SESSION && p.d === false) ||
        (p.t === 'MESSAGE_CREATE' && acknowledged.every((id) => received().has(id))),
      'every acknowledged message, or INVALID_SESSION',
    );
    if (outcome.op !== OP_INVALID_SESSION) return;
    bot.identify(DEMO_BOT_TOKEN, INTENTS);
    const ready = await bot.nextDispatch('READY');
    const guild = await bot.nextDispatch('GUILD_CREATE');
    assert.ok(ready.d.session_id, 'a new session');
    assert.ok(
      (guild.d.channels as { id: string }[]).some((channel) => channel.id === GENERAL),
      'the state refetched',
    );
  }

  test('Redis stopped, then restarted empty: each message delivered, or the session invalidated', async () => {
    const [a, b] = cluster.nodes as [FaultNode, FaultNode];
    const bot = await GatewayClient.connect(a.url);
    clients.push(bot);
    await bot.login(DEMO_BOT_TOKEN, INTENTS);
    await bot.nextDispatch('GUILD_CREATE');
    const from = bot.payloads.length;

    await cluster.redis.stop();
    const acknowledged = await postDuringOutage([b, a]);
    assert.ok(acknowledged.length > 0, 'messages are acknowledged while Redis is away');
    await cluster.redis.start();
    await noSilentGap(bot, acknowledged, from);
    const dropped =
      (await metric(a, 'gateway_dispatches_dropped_total')) + (await metric(b, 'gateway_dispatches_dropped_total'));
    assert.ok(dropped >= acknowledged.length, `the events the bus could not carry are counted (${dropped})`);
    const invalidated = await metric(a, 'gateway_sessions_invalidated_total{reason="publish_failed"}');
    const logLost = await metric(a, 'gateway_sessions_invalidated_total{reason="log_lost"}');
    assert.ok(invalidated + logLost >= 1, 'the bot’s session was invalidated, and counted');
  });

  test('Redis stalled (SIGSTOP), then resumed: each message delivered, or the session invalidated', async () => {
    const [a, b] = cluster.nodes as [FaultNode, FaultNode];
    const bot = await GatewayClient.connect(a.url);
    clients.push(bot);
    await bot.login(DEMO_BOT_TOKEN, INTENTS);
    await bot.nextDispatch('GUILD_CREATE');
    const from = bot.payloads.length;

    cluster.redis.pause();
    let acknowledged: string[];
    try {
      // Stalled long enough for both nodes to see it (readyz 503): their publishes time out.
      for (const node of [a, b]) await notReady(node);
      acknowledged = await postDuringOutage([b, a]);
    } finally {
      cluster.redis.resume();
    }
    assert.ok(acknowledged.length > 0, 'messages are acknowledged while Redis is stalled');
    await noSilentGap(bot, acknowledged, from);
  });

  test('a discord.js bot across Redis stopped and restarted empty: each message reaches it, or it resyncs and finds it', async () => {
    const [a, b] = cluster.nodes as [FaultNode, FaultNode];
    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      rest: { api: `${a.url}/api` },
    });
    const seen = new Inbox<string>((id) => `message ${id}`);
    const readies = new Inbox<{ shard: number }>(({ shard }) => `shard ${shard} ready`);
    client.on(Events.MessageCreate, (message: Message) => seen.push(message.id));
    client.on(Events.ShardReady, (shard) => readies.push({ shard }));
    try {
      const ready = new Inbox<true>(() => 'ready');
      client.once(Events.ClientReady, () => ready.push(true));
      await client.login(DEMO_BOT_TOKEN);
      await ready.find(() => true, 'the bot ready', GUARD_MS);
      // A live message reaches the bot before the outage. The previous test's outage may still
      // invalidate this fresh session (its gap marker lands once Redis answers): discord.js then
      // identifies again, and a message posted after that reaches it.
      for (let attempt = 0; ; attempt++) {
        const live = await post(b, 1, `before the outage ${attempt}`);
        const reached = await seen
          .find((id) => id === live[0], 'a live message', LIVE_TRY_MS)
          .then(
            () => true,
            () => false,
          );
        if (reached) break;
        assert.ok(attempt < LIVE_TRIES, 'a live message reaches the bot before the outage');
      }

      await cluster.redis.stop();
      const acknowledged = await postDuringOutage([b, a]);
      assert.ok(acknowledged.length > 0, 'messages are acknowledged while Redis is away');
      await cluster.redis.start();

      // Every acknowledged message reaches the bot, or its session is invalidated and it identifies again.
      const all = Promise.all(acknowledged.map((id) => seen.find((m) => m === id, `message ${id}`, GUARD_MS)));
      const resynced = readies.findMany(2, () => true, 'a new READY after INVALID_SESSION');
      const outcome = await Promise.race([all.then(() => 'delivered'), resynced.then(() => 'resynced')]);
      all.catch(() => undefined);
      resynced.catch(() => undefined);
      if (outcome === 'resynced') {
        // Identified again: the guild is back in its cache, and a refetch finds every acknowledged message.
        const guild = await client.guilds.fetch(TEST_GUILD_ID);
        assert.ok(guild.channels.cache.has(GENERAL), 'the guild state sent again');
        const channel = await client.channels.fetch(GENERAL);
        assert.ok(channel?.isTextBased());
        const fetched = await channel.messages.fetch({ limit: 50 });
        for (const id of acknowledged) assert.ok(fetched.has(id), `message ${id} found on refetch`);
      }
    } finally {
      await client.destroy();
    }
  });
});

describe('Redis answering while the bus misses something: a refused logged event, a node the bus did not reach', () => {
  let cluster: FaultCluster;
  let redis: Redis;
  const clients: GatewayClient[] = [];

  before(async () => {
    cluster = await startFaultCluster({ nodes: 2, world: exampleWorld(), config: FAST });
    redis = new Redis(cluster.redis.url, { lazyConnect: true });
    await redis.connect();
  });

  after(async () => {
    for (const client of clients) client.drop();
    redis?.disconnect();
    await cluster?.close();
  });

  // A refusal Redis answers (the log key of the wrong type): the link never goes down, and no
  // later event is taken while it lasts, so only the bus's own retry marks the gap. A session
  // started after the loss read the world with its change: the gap spares it.
  test('a logged event refused while Redis stays up: its gap is marked by itself; sessions started before the loss are invalidated, one started after it is not', async () => {
    const [a, b] = cluster.nodes as [FaultNode, FaultNode];
    const before = await GatewayClient.connect(a.url);
    clients.push(before);
    await before.login(DEMO_BOT_TOKEN, INTENTS);
    await before.nextDispatch('GUILD_CREATE');

    const log = `${cluster.prefix}gw:log`;
    await redis.del(log);
    await redis.set(log, 'not a stream');
    const posted = await b.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'refused by the log' },
    });
    assert.equal(posted.status, 200, posted.text);
    const lostBy = Date.now();
    // Past the loss by more than the clocks' margin (a condition on the clock, not a sleep for luck).
    while (Date.now() <= lostBy + DISPATCH_GAP_CLOCK_MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, 50));
    const later = await GatewayClient.connect(a.url);
    clients.push(later);
    await later.login(DEMO_BOT_TOKEN, INTENTS);
    await later.nextDispatch('GUILD_CREATE');

    await redis.del(log);
    const told = await before.next(
      (p) => p.op === OP_INVALID_SESSION,
      'INVALID_SESSION for the session started before',
    );
    assert.equal(told.d, false);
    // Both sessions are on A: one invalidation handled them both, so the later one was spared.
    const message = await b.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body: { content: 'after' } });
    assert.equal(message.status, 200, message.text);
    const id = (message.body as { id: string }).id;
    await later.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === id, 'the next message on the spared session');
    assert.ok(!later.payloads.some((p) => p.op === OP_INVALID_SESSION), 'the later session was not invalidated');
  });

  // As when B publishes while A's subscription is being made again (after Redis stalled): the
  // interaction is pending, handed to the bot's session on A, and no message reaches A. The
  // delivery fault `drop` stores it without publishing; the hand-over is then written as B would.
  test("an interaction handed to a session whose node the bus did not reach is dispatched by that node's watch, once", async () => {
    const [a, b] = cluster.nodes as [FaultNode, FaultNode];
    const bot = await GatewayClient.connect(a.url);
    clients.push(bot);
    const ready = await bot.login(DEMO_BOT_TOKEN, INTENTS);
    await bot.nextDispatch('GUILD_CREATE');
    const created = await b.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'watched', description: 'w' } });
    assert.ok(created.status === 200 || created.status === 201, created.text);
    const fault = await fetch(`${b.url}/admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ application_id: DEMO_APP_ID, kind: 'drop', count: 1 }),
    });
    assert.equal(fault.status, 201, await fault.text());
    const invoked = await b.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody({ ...(created.body as { id: string; version: string }), name: 'watched' }),
    });
    assert.equal(invoked.body?.state, 'pending', invoked.text);
    const id = (invoked.body as { id: string }).id;

    const pending = new RedisPendingInteractions(redis, new SessionKeys(cluster.prefix));
    const now = Date.now();
    await pending.keep(DEMO_APP_ID, {
      id,
      sessionId: ready.d.session_id as string,
      guildId: TEST_GUILD_ID,
      deadline: now + 2_500,
      handedAt: now - 1_000,
      data: { id, application_id: DEMO_APP_ID, type: 2, guild_id: TEST_GUILD_ID, token: 'watched', version: 1 },
    });
    await bot.next((p) => p.t === 'INTERACTION_CREATE' && p.d.id === id, 'the interaction, from the watch');
    // Kept in the session's buffer, it is no longer pending: no later watch sends it again.
    const deadline = Date.now() + GUARD_MS;
    while ((await pending.of(DEMO_APP_ID)).length > 0) {
      assert.ok(Date.now() < deadline, 'the hand-over settled by the dispatch');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const marker = await b.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body: { content: 'after' } });
    assert.equal(marker.status, 200, marker.text);
    const markerId = (marker.body as { id: string }).id;
    await bot.next((p) => p.t === 'MESSAGE_CREATE' && p.d.id === markerId, 'a later dispatch');
    assert.equal(bot.payloads.filter((p) => p.t === 'INTERACTION_CREATE' && p.d.id === id).length, 1);
  });
});
