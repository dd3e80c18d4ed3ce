/**
 * Messages as bots send them (issue 24), each figure against a baseline of the same run, slashd in
 * its own process (`slashd serve` on a fresh SQLite file):
 * (a) `POST /channels/{id}/messages` with a 1 MiB attachment (multipart) vs the same message
 *     without one, and the attachment's extra time vs the same multipart body streamed through a
 *     bare node:http server (goal: within 3x);
 * (b) 20 concurrent 8 MiB uploads: the rise of the server process's RSS over its RSS before,
 *     sampled from /proc while they run (goal < 64 MB), beside 20 concurrent plain messages;
 * (c) a reaction added, and a message's reaction users listed, vs a plain `GET` of the message,
 *     alternating, p50 (goal: at least 0.5x the GET's rate).
 * First (issue 40, bench/messages-pace.ts) the message create, the reaction add and a 1 MiB upload
 * against a bare node:http server doing the same I/O, rate and CPU ratios (`--pace`: only those).
 * Sizes: MESSAGES_BENCH_RUNS (requests of each kind in (a) and (c)).
 */
import { readFileSync } from 'node:fs';
import type { World } from '../src/core/world/types.js';
import { exampleWorld, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../test/helpers/world.js';
import { startBareServer, onFreshServer, type ChildServer } from './processes.js';
import { fixed, median } from './stats.js';
import { messagesPace } from './messages-pace.js';

const RUNS = Number(process.env.MESSAGES_BENCH_RUNS ?? 200);
const MIB = 1024 * 1024;
const UPLOADS = 20;
const UPLOAD_BYTES = 8 * MIB;
const RSS_GOAL_MB = 64;
const STREAM_GOAL_RATIO = 3;
const REACTION_GOAL_RATIO = 0.5;
/** How often the server's RSS is read while uploads run. */
const RSS_SAMPLE_MS = 2;
const BOT = 'Bot demo-bot-token-please-change';
const ATTACH_FILES = 1n << 15n;
const ADD_REACTIONS = 1n << 6n;

/** The example world, the demo bot allowed to attach files and add reactions. */
function benchWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | ATTACH_FILES | ADD_REACTIONS).toString();
  return world;
}

function form(content: string, file?: Uint8Array): FormData {
  const body = new FormData();
  body.append('payload_json', JSON.stringify({ content, ...(file ? { attachments: [{ id: 0 }] } : {}) }));
  if (file) body.append('files[0]', new Blob([file], { type: 'application/octet-stream' }), 'data.bin');
  return body;
}

/** Milliseconds from the request sent to its whole answer read; throws on an unexpected status. */
async function timed(url: string, init: RequestInit, expected: number): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const ms = performance.now() - start;
  if (response.status !== expected) throw new Error(`${init.method} ${url}: ${response.status} ${body}`);
  return { ms, body };
}

function post(body: FormData | string): RequestInit {
  const json = typeof body === 'string' ? { 'content-type': 'application/json' } : {};
  return { method: 'POST', headers: { authorization: BOT, ...json }, body };
}

const messagesUrl = (server: ChildServer) => `${server.url}/api/v10/channels/${GENERAL}/messages`;

/** (a) The three kinds alternate, so that the machine's load weighs on each alike. */
async function attachmentLatency(server: ChildServer, bare: ChildServer): Promise<string[]> {
  const file = new Uint8Array(MIB).fill(7);
  const plain: number[] = [];
  const withFile: number[] = [];
  const stream: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const a = await timed(messagesUrl(server), post(JSON.stringify({ content: `plain ${i}` })), 200);
    const b = await timed(messagesUrl(server), post(form(`plain ${i}`, file)), 200);
    const c = await timed(bare.url, { method: 'POST', body: form(`plain ${i}`, file) }, 200);
    if (i < 5) continue; // warm-up
    plain.push(a.ms);
    withFile.push(b.ms);
    stream.push(c.ms);
  }
  const extra = median(withFile) - median(plain);
  const ratio = extra / median(stream);
  return [
    `message: plain ${fixed(median(plain))} ms, with a 1 MiB attachment ${fixed(median(withFile))} ms (p50 of ${RUNS}; ${fixed(median(withFile) / median(plain))}x the plain message)`,
    `the attachment's extra ${fixed(extra)} ms vs 1 MiB streamed through bare node:http ${fixed(median(stream))} ms: ${fixed(ratio)}x (goal <= ${STREAM_GOAL_RATIO}x: ${ratio <= STREAM_GOAL_RATIO ? 'met' : 'NOT met'})`,
  ];
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}

/** The peak rise of the server's RSS while `work` runs, over its RSS just before. */
async function rssRise(pid: number, work: () => Promise<unknown>): Promise<number> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, RSS_SAMPLE_MS);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, rssOf(pid)) - before;
}

/** (b) From a fresh start (round 1 is cold), plain messages, then the uploads, three rounds. */
async function uploadMemory(server: ChildServer): Promise<string[]> {
  const pid = server.child.pid!;
  const file = new Uint8Array(UPLOAD_BYTES).fill(9);
  const lines = [`server RSS at start ${fixed(rssOf(pid) / MIB, 1)} MB`];
  const rises: number[] = [];
  for (let round = 1; round <= 3; round++) {
    const plain = await rssRise(pid, () =>
      Promise.all(
        Array.from({ length: UPLOADS }, (_, i) =>
          timed(messagesUrl(server), post(JSON.stringify({ content: `plain ${i}` })), 200),
        ),
      ),
    );
    const start = performance.now();
    const uploads = await rssRise(pid, () =>
      Promise.all(
        Array.from({ length: UPLOADS }, (_, i) => timed(messagesUrl(server), post(form(`big ${i}`, file)), 200)),
      ),
    );
    const seconds = (performance.now() - start) / 1000;
    rises.push(uploads);
    lines.push(
      `round ${round}: ${UPLOADS} concurrent 8 MiB uploads raise RSS by ${fixed(uploads / MIB, 1)} MB (${fixed(uploads / (UPLOADS * UPLOAD_BYTES))} of the ${(UPLOADS * UPLOAD_BYTES) / MIB} MiB sent, in ${fixed(seconds, 1)} s); ${UPLOADS} concurrent plain messages ${fixed(plain / MIB, 1)} MB`,
    );
  }
  const worst = Math.max(...rises) / MIB;
  lines.push(
    `worst rise ${fixed(worst, 1)} MB (goal < ${RSS_GOAL_MB} MB: ${worst < RSS_GOAL_MB ? 'met' : 'NOT met'}); server RSS after: ${fixed(rssOf(pid) / MIB, 1)} MB`,
  );
  return lines;
}

/** (c) On fresh messages, so that each PUT adds a reaction; the three requests alternate. */
async function reactionRates(server: ChildServer): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const sent = await timed(messagesUrl(server), post(JSON.stringify({ content: `react ${i}` })), 200);
    ids.push((JSON.parse(sent.body) as { id: string }).id);
  }
  const headers = { authorization: BOT };
  const get: number[] = [];
  const add: number[] = [];
  const list: number[] = [];
  for (const [i, id] of ids.entries()) {
    const message = `${messagesUrl(server)}/${id}`;
    const reaction = `${message}/reactions/${encodeURIComponent('👍')}`;
    const g = await timed(message, { headers }, 200);
    const a = await timed(`${reaction}/@me`, { method: 'PUT', headers }, 204);
    const l = await timed(reaction, { headers }, 200);
    if (i < 5) continue;
    get.push(g.ms);
    add.push(a.ms);
    list.push(l.ms);
  }
  const addRatio = median(get) / median(add);
  const listRatio = median(get) / median(list);
  const verdict = (ratio: number) => (ratio >= REACTION_GOAL_RATIO ? 'met' : 'NOT met');
  return [
    `GET a message ${fixed(median(get))} ms; add a reaction ${fixed(median(add))} ms (${fixed(addRatio)}x the GET's rate: ${verdict(addRatio)}); list its users ${fixed(median(list))} ms (${fixed(listRatio)}x: ${verdict(listRatio)}) (p50 of ${RUNS}; goal >= ${REACTION_GOAL_RATIO}x)`,
  ];
}

export async function runMessagesBench(flags: ReadonlySet<string> = new Set()): Promise<{ lines: string[] }> {
  const pace = await messagesPace(benchWorld, flags);
  if (flags.has('--pace')) return { lines: pace };
  const bare = await startBareServer('{}');
  try {
    return {
      lines: [
        ...pace,
        ...(await onFreshServer(benchWorld(), (server) => attachmentLatency(server, bare))),
        ...(await onFreshServer(benchWorld(), uploadMemory)),
        ...(await onFreshServer(benchWorld(), reactionRates)),
      ],
    };
  } finally {
    await bare.stop();
  }
}
