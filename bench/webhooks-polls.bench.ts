/**
 * Webhook execute and poll votes (issue 37), each against a message create of the same run, slashd
 * in its own process (`slashd serve` on a fresh SQLite file):
 * (a) `POST /webhooks/{id}/{token}?wait=true` vs the bot's `POST /channels/{id}/messages`, the
 *     same JSON body (content and one embed), both answering the message;
 * (b) a user's vote, `PUT /channels/{c}/polls/{m}/answers/@me` on a fresh poll each time (every
 *     request writes a vote and publishes MESSAGE_POLL_VOTE_ADD), vs the same message create.
 * The kinds run in alternating blocks, so the server's CPU time can be read per kind: each figure
 * is a p50 latency and a CPU-per-request, and its ratio to the message create's in the same run.
 * Sizes: WEBHOOKS_BENCH_RUNS (requests of each kind; a multiple of the block).
 */
import type { World } from '../src/core/world/types.js';
import { exampleWorld, ALICE_TOKEN, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../test/helpers/world.js';
import { cpuMs, onFreshServer, type ChildServer } from './processes.js';
import { fixed, median } from './stats.js';

const RUNS = Number(process.env.WEBHOOKS_BENCH_RUNS ?? 400);
/** Requests of one kind between two readings of the server's CPU time. */
const BLOCK = 50;
const WARM_UP = 20;
const BOT = 'Bot demo-bot-token-please-change';
const MANAGE_WEBHOOKS = 1n << 29n;
const SEND_POLLS = 1n << 49n;

/** A realistic bot message: a line of text and one small embed. */
const MESSAGE = {
  content: 'Deploy finished',
  embeds: [
    {
      title: 'build 1432',
      description: 'all checks passed',
      color: 0x57f287,
      fields: [{ name: 'took', value: '3m 12s', inline: true }],
    },
  ],
};

/** The example world, the demo bot allowed to manage webhooks and send polls. */
function benchWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | MANAGE_WEBHOOKS | SEND_POLLS).toString();
  return world;
}

interface Request {
  url: string;
  init: RequestInit;
  expected: number;
}

async function send({ url, init, expected }: Request): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const ms = performance.now() - start;
  if (response.status !== expected) throw new Error(`${init.method} ${url}: ${response.status} ${body}`);
  return { ms, body };
}

const json = (method: string, body: unknown, authorization?: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
  body: JSON.stringify(body),
});

const messagesUrl = (server: ChildServer) => `${server.url}/api/v10/channels/${GENERAL}/messages`;
const messageCreate = (server: ChildServer): Request => ({
  url: messagesUrl(server),
  init: json('POST', MESSAGE, BOT),
  expected: 200,
});

interface Measured {
  p50: number;
  cpuPerRequest: number;
}

/** Runs each kind's requests in alternating blocks of BLOCK; the first WARM_UP of each are not counted. */
async function alternate(
  server: ChildServer,
  kinds: Record<string, (i: number) => Request>,
): Promise<Record<string, Measured>> {
  const pid = server.child.pid;
  const names = Object.keys(kinds);
  const latencies: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpu: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const name of names) for (let i = 0; i < WARM_UP; i++) await send(kinds[name]!(-1 - i));
  for (let block = 0; block < RUNS / BLOCK; block++) {
    for (const name of names) {
      const before = cpuMs(pid) ?? NaN;
      for (let i = 0; i < BLOCK; i++) latencies[name]!.push((await send(kinds[name]!(block * BLOCK + i))).ms);
      cpu[name]! += (cpuMs(pid) ?? NaN) - before;
    }
  }
  return Object.fromEntries(
    names.map((n) => [n, { p50: median(latencies[n]!), cpuPerRequest: cpu[n]! / latencies[n]!.length }]),
  );
}

function line(what: string, measured: Measured, baseline: Measured): string {
  return `${what}: p50 ${fixed(measured.p50)} ms (${fixed(measured.p50 / baseline.p50)}x the message create's ${fixed(baseline.p50)} ms), CPU ${fixed(measured.cpuPerRequest, 3)} ms/request (${fixed(measured.cpuPerRequest / baseline.cpuPerRequest)}x its ${fixed(baseline.cpuPerRequest, 3)} ms)`;
}

/** (a) One webhook of #general, executed with `wait=true`. */
async function webhookExecute(server: ChildServer): Promise<string[]> {
  const created = await send({
    url: `${server.url}/api/v10/channels/${GENERAL}/webhooks`,
    init: json('POST', { name: 'deploys' }, BOT),
    expected: 200,
  });
  const hook = JSON.parse(created.body) as { id: string; token: string };
  const execute = (): Request => ({
    url: `${server.url}/api/v10/webhooks/${hook.id}/${hook.token}?wait=true`,
    init: json('POST', MESSAGE),
    expected: 200,
  });
  const result = await alternate(server, { create: () => messageCreate(server), execute });
  return [line('webhook execute (wait=true)', result.execute!, result.create!)];
}

/** (b) Polls made before, one vote on each; alice is a member of the test guild who sees #general. */
async function pollVotes(server: ChildServer): Promise<string[]> {
  const polls: string[] = [];
  const poll = {
    question: { text: 'Lunch?' },
    answers: ['pizza', 'ramen', 'salad'].map((text) => ({ poll_media: { text } })),
    duration: 24,
    allow_multiselect: false,
  };
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    const sent = await send({ url: messagesUrl(server), init: json('POST', { poll }, BOT), expected: 200 });
    polls.push((JSON.parse(sent.body) as { id: string }).id);
  }
  const vote = (i: number): Request => ({
    url: `${server.url}/api/v10/channels/${GENERAL}/polls/${polls[i < 0 ? RUNS - 1 - i : i]}/answers/@me`,
    init: json('PUT', { answer_ids: [1 + (Math.abs(i) % 3)] }, ALICE_TOKEN),
    expected: 204,
  });
  const result = await alternate(server, { create: () => messageCreate(server), vote });
  return [line('poll vote (a fresh vote each time)', result.vote!, result.create!)];
}

export async function runWebhooksPollsBench(): Promise<{ lines: string[] }> {
  return {
    lines: [...(await onFreshServer(benchWorld(), webhookExecute)), ...(await onFreshServer(benchWorld(), pollVotes))],
  };
}
