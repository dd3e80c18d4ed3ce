/**
 * Messages and reactions at the pace of a bare server (issue 40): under load (autocannon), the
 * message create (a bot's JSON `POST /channels/{id}/messages`) and the reaction add
 * (`PUT .../reactions/{emoji}/@me` on fresh messages), and one by one a 1 MiB upload (a multipart
 * message create with a file), each against a bare node:http server doing the same I/O: it reads
 * the body, writes the row (the upload's bytes too, in 256 KiB pieces, one transaction) into a
 * SQLite file in WAL mode, and answers a message object of the same size. Each figure is a rate
 * ratio (slashd / bare, higher is better; for the upload bare p50 / slashd p50) and the server's
 * CPU per request (bench/processes.ts cpuMs) as a ratio to the bare server's: on a loaded machine
 * the CPU ratios are steadier than rates. With MESSAGES_BENCH_BEFORE naming another build's root
 * (an A/B of an earlier tree, built), that build is measured in the same run, alternating.
 * `--profile` adds the top self-time functions of the message create under load (bench/cpu-profile.ts).
 * Sizes: MESSAGES_BENCH_SECONDS (each load), MESSAGES_BENCH_ROUNDS, MESSAGES_BENCH_UPLOADS.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { World } from '../src/core/world/types.js';
import { topFunctions } from './cpu-profile.js';
import { lastSecondsOf } from './cache-miss-lists.js';
import { cpuMs, REPO_ROOT, startSlashd, type ChildServer } from './processes.js';
import { fixed, median } from './stats.js';
import { GENERAL } from '../test/helpers/world.js';

const SECONDS = Number(process.env.MESSAGES_BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.MESSAGES_BENCH_ROUNDS ?? 2);
const UPLOAD_RUNS = Number(process.env.MESSAGES_BENCH_UPLOADS ?? 60);
const CONNECTIONS = 8;
const TOP = 10;
const RATE_GOAL = 0.4;
const UPLOAD_GOAL = 2;
const MIB = 1024 * 1024;
const BOT = 'Bot demo-bot-token-please-change';
/** Messages made before the reaction load: each takes every emoji once, so each PUT adds one. */
const REACTION_POOL = 400;
const EMOJIS = [
  '👍', '👎', '😀', '😂', '😍', '🎉', '🔥', '👀', '🙏', '💯',
  '✅', '❌', '🚀', '🤔', '😢', '😮', '👏', '🙌', '⭐', '🍕',
].map(encodeURIComponent); // prettier-ignore

/** The bare server: node:http and better-sqlite3, the same reads and writes as slashd's, nothing else. */
const BARE_SCRIPT = `
  const http = require('node:http');
  const Database = require('better-sqlite3');
  const db = new Database(process.argv[1]);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE messages (channel_id TEXT, id TEXT, doc TEXT, PRIMARY KEY (channel_id, id))');
  db.exec('CREATE TABLE reactions (channel_id TEXT, message_id TEXT, emoji TEXT, user_id TEXT, PRIMARY KEY (channel_id, message_id, emoji, user_id))');
  db.exec('CREATE TABLE chunks (channel_id TEXT, file_id TEXT, seq INTEGER, bytes BLOB, PRIMARY KEY (channel_id, file_id, seq))');
  const putMessage = db.prepare('INSERT INTO messages (channel_id, id, doc) VALUES (?, ?, ?)');
  const putReaction = db.prepare('INSERT OR IGNORE INTO reactions VALUES (?, ?, ?, ?)');
  const putChunk = db.prepare('INSERT INTO chunks VALUES (?, ?, ?, ?)');
  let next = 1345183757107300000n;
  const PIECE = 256 * 1024;
  function message(channel, content, attachments) {
    const id = String(next++);
    return { id, type: 0, content, channel_id: channel, author: { id: '1345183757107200100', username: 'demo-bot', avatar: null, discriminator: '0000', public_flags: 0, flags: 0, bot: true, global_name: null }, attachments, embeds: [], mentions: [], mention_roles: [], pinned: false, mention_everyone: false, tts: false, timestamp: new Date().toISOString(), edited_timestamp: null, flags: 0, components: [], application_id: '1345183757107200100', guild_id: '1345183757107200001' };
  }
  const server = http.createServer((req, res) => {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      const channel = req.url.split('/')[4];
      if (req.method === 'PUT') {
        const [, , , , , , messageId, , emoji] = req.url.split('/');
        putReaction.run(channel, messageId, emoji, '1345183757107200100');
        res.writeHead(204).end();
        return;
      }
      const body = Buffer.concat(parts);
      let doc;
      if ((req.headers['content-type'] || '').startsWith('multipart/')) {
        doc = message(channel, 'upload', []);
        db.transaction(() => {
          for (let seq = 0; seq * PIECE < body.length; seq++) putChunk.run(channel, doc.id, seq, body.subarray(seq * PIECE, (seq + 1) * PIECE));
          doc.attachments = [{ id: doc.id, filename: 'data.bin', size: body.length }];
          putMessage.run(channel, doc.id, JSON.stringify(doc));
        }).immediate();
      } else {
        doc = message(channel, JSON.parse(body.toString()).content, []);
        putMessage.run(channel, doc.id, JSON.stringify(doc));
      }
      const out = Buffer.from(JSON.stringify(doc));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': out.length });
      res.end(out);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function startBareStoringServer(): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-bare-'));
  const child = spawn(process.execPath, ['-e', BARE_SCRIPT, join(dir, 'bare.sqlite')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code}): ${text}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

interface Target {
  name: string;
  server: ChildServer;
  /** Message ids the reaction load reacts to. */
  pool: string[];
}

interface Figure {
  requests: number;
  seconds: number;
  cpuMs: number;
  statuses: Set<string>;
}

const emptyFigure = (): Figure => ({ requests: 0, seconds: 0, cpuMs: 0, statuses: new Set() });

const messagesPath = `/api/v10/channels/${GENERAL}/messages`;

async function loadOnce(target: Target, kind: 'create' | 'react', into: Figure, offset: number): Promise<number> {
  let sent = offset;
  const pool = target.pool;
  const before = cpuMs(target.server.child.pid) ?? NaN;
  const result = await autocannon({
    url: target.server.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: BOT, 'content-type': 'application/json' },
    requests: [
      kind === 'create'
        ? { method: 'POST', path: messagesPath, body: JSON.stringify({ content: 'a message at pace' }) }
        : {
            method: 'PUT',
            setupRequest: (request) => {
              const i = sent++;
              const id = pool[i % pool.length];
              const emoji = EMOJIS[Math.floor(i / pool.length) % EMOJIS.length];
              return { ...request, path: `${messagesPath}/${id}/reactions/${emoji}/@me` };
            },
          },
    ],
  });
  into.cpuMs += (cpuMs(target.server.child.pid) ?? NaN) - before;
  into.requests += result.requests.total;
  into.seconds += SECONDS;
  for (const status of Object.keys(result.statusCodeStats ?? {})) into.statuses.add(status);
  return sent;
}

async function createPool(target: Target): Promise<void> {
  for (let i = 0; i < REACTION_POOL; i++) {
    const response = await fetch(`${target.server.url}${messagesPath}`, {
      method: 'POST',
      headers: { authorization: BOT, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `react ${i}` }),
    });
    if (response.status !== 200) throw new Error(`${target.name}: ${response.status} ${await response.text()}`);
    target.pool.push(((await response.json()) as { id: string }).id);
  }
}

const rate = (f: Figure) => f.requests / f.seconds;
const cpuPer = (f: Figure) => (f.cpuMs * 1000) / f.requests;

function figureLine(what: string, name: string, f: Figure, bare: Figure, goal: number): string {
  const ratio = rate(f) / rate(bare);
  return `${what} ${name}: ${fixed(rate(f), 0)} req/s (${fixed(ratio, 3)} of bare's ${fixed(rate(bare), 0)}: goal >= ${goal} ${ratio >= goal ? 'met' : 'NOT met'}), CPU ${fixed(cpuPer(f), 0)} µs/request (${fixed(cpuPer(f) / cpuPer(bare), 1)}x bare's ${fixed(cpuPer(bare), 0)} µs); statuses ${[...f.statuses].join(',')}`;
}

function form(file: Uint8Array): FormData {
  const body = new FormData();
  body.append('payload_json', JSON.stringify({ content: 'upload', attachments: [{ id: 0 }] }));
  body.append('files[0]', new Blob([file], { type: 'application/octet-stream' }), 'data.bin');
  return body;
}

/** One by one, alternating between the targets: p50 and CPU per upload. */
async function uploads(targets: Target[]): Promise<Map<string, { p50: number; cpu: number }>> {
  const file = new Uint8Array(MIB).fill(7);
  const times = new Map(targets.map((t) => [t.name, [] as number[]]));
  const cpu = new Map(targets.map((t) => [t.name, 0]));
  for (let i = 0; i < UPLOAD_RUNS + 5; i++) {
    for (const target of targets) {
      const before = cpuMs(target.server.child.pid) ?? NaN;
      const start = performance.now();
      const response = await fetch(`${target.server.url}${messagesPath}`, {
        method: 'POST',
        headers: { authorization: BOT },
        body: form(file),
      });
      const text = await response.text();
      const ms = performance.now() - start;
      if (response.status !== 200) throw new Error(`${target.name} upload: ${response.status} ${text}`);
      if (i < 5) continue;
      times.get(target.name)!.push(ms);
      cpu.set(target.name, cpu.get(target.name)! + (cpuMs(target.server.child.pid) ?? NaN) - before);
    }
  }
  return new Map(
    targets.map((t) => [t.name, { p50: median(times.get(t.name)!), cpu: cpu.get(t.name)! / UPLOAD_RUNS }]),
  );
}

/** The top self-time functions of slashd (at `root`) under the message-create load. */
async function profile(world: World, name: string, root: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-profile-'));
  try {
    const server = await startSlashd(world, [], ['--cpu-prof', `--cpu-prof-dir=${dir}`], root);
    const target: Target = { name, server, pool: [] };
    const figure = emptyFigure();
    try {
      // A first load warms the server (its modules compiled, its code optimized): only the second counts.
      await loadOnce(target, 'create', emptyFigure(), 0);
      await loadOnce(target, 'create', figure, 0);
    } finally {
      await server.stop();
    }
    const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
    if (!file) return [`${name}: no profile written`];
    const { busySamples, functions } = topFunctions(lastSecondsOf(join(dir, file), SECONDS), TOP);
    return [
      `message create profile, ${name} (${fixed(rate(figure), 0)} req/s profiled, ${busySamples} busy samples):`,
      ...functions.map((f) => `  ${fixed(f.share * 100, 1)}% ${f.name}`),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function messagesPace(world: () => World, flags: ReadonlySet<string>): Promise<string[]> {
  const beforeRoot = process.env.MESSAGES_BENCH_BEFORE;
  const bare: Target = { name: 'bare', server: await startBareStoringServer(), pool: [] };
  const slashd: Target[] = [{ name: 'after', server: await startSlashd(world()), pool: [] }];
  if (beforeRoot) slashd.push({ name: 'before', server: await startSlashd(world(), [], [], beforeRoot), pool: [] });
  const targets = [...slashd, bare];
  const lines: string[] = [];
  try {
    for (const target of targets) await createPool(target);
    const create = new Map(targets.map((t) => [t.name, emptyFigure()]));
    const react = new Map(targets.map((t) => [t.name, emptyFigure()]));
    const offsets = new Map(targets.map((t) => [t.name, 0]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) await loadOnce(target, 'create', create.get(target.name)!, 0);
      for (const target of targets) {
        offsets.set(target.name, await loadOnce(target, 'react', react.get(target.name)!, offsets.get(target.name)!));
      }
    }
    for (const target of slashd) {
      lines.push(figureLine('message create', target.name, create.get(target.name)!, create.get('bare')!, RATE_GOAL));
    }
    for (const target of slashd) {
      lines.push(figureLine('reaction add', target.name, react.get(target.name)!, react.get('bare')!, RATE_GOAL));
    }
    const uploaded = await uploads(targets);
    const bareUpload = uploaded.get('bare')!;
    for (const target of slashd) {
      const u = uploaded.get(target.name)!;
      const ratio = u.p50 / bareUpload.p50;
      lines.push(
        `1 MiB upload ${target.name}: p50 ${fixed(u.p50)} ms (${fixed(ratio)}x bare's ${fixed(bareUpload.p50)} ms: goal <= ${UPLOAD_GOAL}x ${ratio <= UPLOAD_GOAL ? 'met' : 'NOT met'}; rate ratio ${fixed(1 / ratio, 3)}), CPU ${fixed(u.cpu, 1)} ms/upload (${fixed(u.cpu / bareUpload.cpu, 1)}x bare's ${fixed(bareUpload.cpu, 1)} ms)`,
      );
    }
  } finally {
    for (const target of targets) await target.server.stop();
  }
  if (flags.has('--profile')) {
    lines.push(...(await profile(world(), 'after', REPO_ROOT)));
    if (beforeRoot) lines.push(...(await profile(world(), 'before', beforeRoot)));
  }
  return lines;
}
