/**
 * Three real `slashd serve` processes on one PostgreSQL schema and one Redis prefix, as behind a
 * load balancer: the daily create limit and bulk overwrites stay exact when every node writes at
 * once; an interaction invoked on node 1 reaches a discord.js bot connected to node 3 and its
 * answer is read from node 2; a bot whose socket drops on node 1 resumes on node 2 with what it
 * missed; kill -9 of a node mid-write loses nothing that was answered 2xx, and the others keep
 * serving. Every wait is on an answer or an event, with a guard that only fails the test.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { DAILY_COMMAND_CREATES_MAX } from '../src/resources/commands/rules/plans.js';
import { ERRORS } from '../src/core/io/errors.js';
import { GatewayClient, type Payload } from './helpers/gateway-client.js';
import { Inbox } from './helpers/inbox.js';
import { startCluster, type Cluster, type SlashdNode } from './helpers/nodes.js';
import type { TestResponse } from './helpers/server.js';
import {
  ADMIN_AUTH as ADMIN,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  GLOBAL_BASE,
  GUILD_BASE,
  MUTED_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

type Json = any;

const OTHER_BOT = `Bot ${OTHER_BOT_TOKEN}`;
/** The other app's commands in the Second Guild, where it is installed: the daily-limit race. */
const OTHER_GUILD_BASE = `/applications/${OTHER_APP_ID}/guilds/${SECOND_GUILD_ID}/commands`;
const OTHER_GLOBAL_BASE = `/applications/${OTHER_APP_ID}/commands`;
const GUILDS_INTENT = 1;
/** Generous: the whole file on a loaded machine stays well under it. */
const FILE_GUARD_MS = 180_000;

function chatInput(name: string, description = `the ${name} command`): Json {
  return { name, description };
}

function names(commands: Json[]): string[] {
  return commands.map((c) => c.name as string).sort();
}

describe('three nodes on one PostgreSQL and one Redis', { timeout: FILE_GUARD_MS }, () => {
  let cluster: Cluster;
  let nodes: SlashdNode[];
  /** Node `i` of a round robin over all nodes. */
  const roundRobin = (i: number) => nodes[i % nodes.length]!;

  before(async () => {
    cluster = await startCluster(3, exampleWorld());
    nodes = cluster.nodes;
  });

  after(async () => {
    await cluster?.close();
  });

  async function ok(response: Promise<TestResponse>, status = 200): Promise<Json> {
    const answered = await response;
    assert.equal(answered.status, status, answered.text);
    return answered.body;
  }

  test('every node is ready', async () => {
    for (const node of nodes) {
      const ready = await fetch(`${node.url}/readyz`);
      assert.equal(ready.status, 200, `node ${node.index}: ${await ready.text()}`);
    }
  });

  test('300 parallel creates over the nodes at the daily limit: exactly the allowed number succeed', async () => {
    // 150 creates today and no command left: 50 more creates are allowed, and the 100-command cap
    // is out of reach, so only the daily limit decides.
    await ok(nodes[0]!.request('PUT', OTHER_GUILD_BASE, { auth: OTHER_BOT, body: seed('a', 100) }));
    await ok(nodes[1]!.request('PUT', OTHER_GUILD_BASE, { auth: OTHER_BOT, body: seed('b', 50) }));
    await ok(nodes[2]!.request('PUT', OTHER_GUILD_BASE, { auth: OTHER_BOT, body: [] }));
    const allowed = DAILY_COMMAND_CREATES_MAX - 150;

    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        roundRobin(i).request('POST', OTHER_GUILD_BASE, { auth: OTHER_BOT, body: chatInput(`race-${i}`) }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    assert.equal(created.length, allowed, `created ${created.length}, allowed ${allowed}`);
    for (const answer of refused) {
      assert.equal(answer.status, 429, answer.text);
      assert.equal(answer.body.code, ERRORS.MaxDailyApplicationCommandCreates.code, answer.text);
    }
    for (const node of nodes) {
      const listed = await ok(node.request('GET', OTHER_GUILD_BASE, { auth: OTHER_BOT }));
      assert.deepEqual(names(listed), names(created.map((a) => a.body)), `the list on node ${node.index}`);
    }
  });

  function seed(prefix: string, count: number): Json[] {
    return Array.from({ length: count }, (_, i) => chatInput(`seed-${prefix}-${i}`));
  }

  test('concurrent bulk overwrites from every node: the final list is exactly one of the bodies', async () => {
    // The bodies share most names with different descriptions, so a mix of two would show.
    const bodies = Array.from({ length: 9 }, (_, b) => [
      ...Array.from({ length: 6 }, (_, i) => chatInput(`shared-${i}`, `body ${b}`)),
      chatInput(`only-${b}`, `body ${b}`),
    ]);
    await Promise.all(bodies.map((body, b) => ok(roundRobin(b).request('PUT', GLOBAL_BASE, { auth: BOT, body }))));
    const shape = (commands: Json[]) =>
      commands.map((c) => `${c.name}: ${c.description}`).sort((x, y) => x.localeCompare(y));
    const lists = await Promise.all(nodes.map((node) => ok(node.request('GET', GLOBAL_BASE, { auth: BOT }))));
    const final = shape(lists[0]);
    for (const [i, list] of lists.entries()) assert.deepEqual(shape(list), final, `the list on node ${i + 1}`);
    const matching = bodies.filter((body) => JSON.stringify(shape(body)) === JSON.stringify(final));
    assert.equal(matching.length, 1, `the final list is one of the bodies: ${final.join(', ')}`);
  });

  describe('an interaction invoked on node 1 reaches a discord.js bot on node 3', () => {
    let client: Client;
    let command: Json;
    const handled = new Inbox<{ id: string; token: string; error: unknown }>((h) => `handled ${h.id}`);

    async function answer(interaction: Interaction): Promise<void> {
      if (!interaction.isChatInputCommand()) return;
      await interaction.reply(`pong to ${interaction.user.username}, from the bot on node 3`);
    }

    before(async () => {
      const node3 = nodes[2]!;
      command = await ok(node3.request('POST', GUILD_BASE, { auth: BOT, body: chatInput('ping') }), 201);
      // Only the REST base points at node 3; the gateway URL comes from its GET /gateway/bot.
      client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${node3.url}/api` } });
      client.on(Events.InteractionCreate, (interaction) => {
        const token = 'token' in interaction ? interaction.token : '';
        answer(interaction).then(
          () => handled.push({ id: interaction.id, token, error: null }),
          (error: unknown) => handled.push({ id: interaction.id, token, error }),
        );
      });
      const ready = new Inbox<true>(() => 'ready');
      client.once(Events.ClientReady, () => ready.push(true));
      await client.login(DEMO_BOT_TOKEN);
      await ready.find(() => true, 'ready');
    });

    after(async () => {
      await client?.destroy();
    });

    test('the bot answers it, and the answer is read from node 2', async () => {
      const invoked = await ok(
        nodes[0]!.request('POST', '/interactions', {
          auth: ALICE_TOKEN,
          body: invocationBody(command),
        }),
      );
      const id = invoked.id as string;
      const done = await handled.find((h) => h.id === id, `the bot's handling of interaction ${id}`);
      assert.equal(done.error, null, `the bot's answer failed: ${String(done.error)}`);

      const node2 = nodes[1]!;
      const messages = await ok(node2.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE_TOKEN }));
      const answers = (messages as Json[]).filter((m) => m.interaction_metadata?.id === id);
      assert.equal(answers.length, 1, JSON.stringify(messages));
      assert.equal(answers[0].content, 'pong to alice, from the bot on node 3');
      const original = await ok(
        node2.request('GET', `/webhooks/${DEMO_APP_ID}/${done.token}/messages/@original`, { auth: null }),
      );
      assert.equal(original.id, answers[0].id);
      assert.equal(original.content, answers[0].content);
    });
  });

  test('a bot whose socket drops on node 1 resumes on node 2 and gets what it missed', async () => {
    const [node1, node2, node3] = nodes as [SlashdNode, SlashdNode, SlashdNode];
    const sockets: GatewayClient[] = [];
    const connect = async (node: SlashdNode) => {
      const socket = await GatewayClient.connect(node.url);
      sockets.push(socket);
      return socket;
    };
    try {
      const bot = await connect(node1);
      const ready = await bot.login(DEMO_BOT_TOKEN, GUILDS_INTENT);
      // A second session of the bot on node 1: once it has a dispatch, node 1 has handed that
      // dispatch to every session of the guild, the dropped one included.
      const observer = await connect(node1);
      await observer.login(DEMO_BOT_TOKEN, GUILDS_INTENT);

      await renameRole(node3, 'muted before');
      const before = await roleUpdate(bot, 'muted before');
      await roleUpdate(observer, 'muted before');

      bot.drop();
      await renameRole(node3, 'muted while away');
      await roleUpdate(observer, 'muted while away');

      const resumed = await connect(node2);
      await resumed.nextOp(10);
      resumed.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: ready.d.session_id, seq: before.s } });
      const missed = await resumed.next((p) => p.op === 0, 'the first dispatch after RESUME');
      assert.equal(missed.t, 'GUILD_ROLE_UPDATE', JSON.stringify(missed));
      assert.equal(missed.d.role.name, 'muted while away');
      assert.equal(missed.s, before.s! + 1);
      const done = await resumed.nextDispatch('RESUMED');
      assert.ok((done.s ?? 0) > (missed.s ?? 0), 'RESUMED comes after the replay');

      // And the session goes on live on node 2.
      await renameRole(node3, 'muted after');
      const live = await roleUpdate(resumed, 'muted after');
      assert.equal(live.s, done.s! + 1);
    } finally {
      for (const socket of sockets) socket.drop();
    }
  });

  /** An admin change of the test guild's muted role: GUILD_ROLE_UPDATE to the guild's sessions. */
  async function renameRole(node: SlashdNode, name: string): Promise<void> {
    const guild = await ok(node.request('GET', `${node.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: ADMIN }));
    const role = (guild.roles as Json[]).find((r) => r.id === MUTED_ROLE);
    assert.ok(role, 'the muted role');
    role.name = name;
    await ok(node.request('PUT', `${node.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: ADMIN, body: guild }));
  }

  function roleUpdate(socket: GatewayClient, name: string): Promise<Payload> {
    return socket.next(
      (p) => p.op === 0 && p.t === 'GUILD_ROLE_UPDATE' && p.d.role?.name === name,
      `GUILD_ROLE_UPDATE '${name}'`,
    );
  }

  test('kill -9 of a node mid-write: every write answered 2xx is kept, the others keep serving', async () => {
    const [node1, node2, node3] = nodes as [SlashdNode, SlashdNode, SlashdNode];
    const writes = 90;
    const inFlight = 6;
    const killAfter = 30;
    const acknowledged: string[] = [];
    const afterKill: { node: number; status: number | 'refused' }[] = [];
    let answered = 0;
    const kill: { done: Promise<void> | null } = { done: null };
    let next = 0;

    async function writer(): Promise<void> {
      while (next < writes) {
        const i = next++;
        const node = roundRobin(i);
        const sentAfterKill = kill.done !== null;
        let status: number | 'refused';
        try {
          const response = await node.request('POST', OTHER_GLOBAL_BASE, {
            auth: OTHER_BOT,
            body: chatInput(`write-${i}`),
          });
          status = response.status;
          if (status >= 200 && status < 300) acknowledged.push(`write-${i}`);
        } catch {
          // The killed node's connections fail: no answer, so nothing was promised.
          status = 'refused';
        }
        if (sentAfterKill) afterKill.push({ node: node.index, status });
        answered++;
        if (answered === killAfter) kill.done = cluster.kill(node2);
      }
    }

    await Promise.all(Array.from({ length: inFlight }, writer));
    assert.ok(kill.done, 'node 2 was killed');
    await kill.done;

    assert.ok(acknowledged.length >= killAfter - inFlight, `acknowledged: ${acknowledged.length}`);
    assert.ok(
      afterKill.some((w) => w.node === node2.index && w.status === 'refused'),
      'writes were still going to node 2 when it died',
    );
    const survivors = afterKill.filter((w) => w.node !== node2.index);
    assert.ok(survivors.length > 0, 'writes went to the other nodes after the kill');
    for (const write of survivors) assert.equal(write.status, 201, `a write to node ${write.node} after the kill`);
    for (const node of [node1, node3]) {
      const listed = names(await ok(node.request('GET', OTHER_GLOBAL_BASE, { auth: OTHER_BOT })));
      const missing = acknowledged.filter((name) => !listed.includes(name));
      assert.deepEqual(missing, [], `acknowledged writes missing on node ${node.index}`);
      const ready = await fetch(`${node.url}/readyz`);
      assert.equal(ready.status, 200, `node ${node.index} stays ready`);
    }
  });
});
