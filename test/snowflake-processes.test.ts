/**
 * Two slashd processes on one SQLite file (issue "duplicate snowflakes", "Must show"): both ask
 * for the same snowflake node id, as two pids equal modulo 32 once did. The lease in the store
 * decides, so they get distinct ids; 2,000 commands and messages created concurrently through both
 * have unique ids, and no request gets a 5xx.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { Guild, World } from '../src/core/world/types.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startRegisteredApp, type AppServer, type Json } from './helpers/app-server.js';
import { repoRoot } from './helpers/openapi.js';
import {
  BOB_TOKEN as BOB,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  exampleWorld,
  GENERAL,
  TEST_GUILD_ID,
} from './helpers/world.js';

const CHILD = join(repoRoot(), 'dist', 'test', 'helpers', 'slashd-child.js');
/** Both processes ask for this node id. */
const SAME_HINT = 7;
const GUILDS = 12;
/** Per guild: within the 100 commands of a scope and the 200 creates a day. */
const COMMANDS_PER_GUILD = 85;
const INVOCATIONS = 500;
const IN_FLIGHT = 12;
const START_TIMEOUT_MS = 30_000;
const SNOWFLAKE_NODE_SHIFT = 12n;

interface Child {
  process: ChildProcess;
  api: string;
  nodeId: number;
}

/** The test guild again under other ids (`i` in 0..99), so that each copy is a scope of its own. */
function guildCopy(source: Guild, i: number): Guild {
  const prefix = `13451837571073${String(i).padStart(2, '0')}`;
  return JSON.parse(JSON.stringify(source).replaceAll('1345183757107200', prefix)) as Guild;
}

function worldWithGuilds(): World {
  const world = exampleWorld();
  const test = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  for (let i = 0; i < GUILDS - 1; i++) world.guilds.push(guildCopy(test, i));
  return world;
}

function startChild(db: string): Promise<Child> {
  const child = spawn(process.execPath, [CHILD, db, String(SAME_HINT)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child did not start in time\nstderr: ${stderr}`));
    }, START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n')[0];
      if (!stdout.includes('\n') || !line) return;
      clearTimeout(timer);
      const { url, nodeId } = JSON.parse(line) as { url: string; nodeId: number };
      resolve({ process: child, api: `${url}/api/v10`, nodeId });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the child exited (${code}) before listening\nstderr: ${stderr}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

async function send(
  api: string,
  method: string,
  path: string,
  auth: string,
  body: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: auth
      ? { authorization: auth, 'content-type': 'application/json' }
      : { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** Runs the tasks with at most `limit` in flight. */
async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: limit }, lane));
}

function nodeOf(id: string): number {
  return Number((BigInt(id) >> SNOWFLAKE_NODE_SHIFT) & 1023n);
}

describe('two slashd processes on one SQLite file', () => {
  let dir: string;
  let db: string;
  let children: Child[] = [];
  let app: AppServer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-procs-'));
    db = join(dir, 'shared.sqlite');
    const store = new SqliteStore({ path: db });
    await store.world.replaceWorld(worldWithGuilds());
    await store.close();
    children = await Promise.all([startChild(db), startChild(db)]);
    app = await startRegisteredApp(children[0]!.api, DEMO_BOT_TOKEN, () => ({
      inline: { type: 4, data: { content: 'pong' } },
    }));
  });

  after(async () => {
    await app?.close();
    for (const child of children) await stopChild(child.process);
    rmSync(dir, { recursive: true, force: true });
  });

  test('equal node id hints: the lease gives each process its own node id', () => {
    const [a, b] = children;
    assert.ok(a!.nodeId === SAME_HINT || b!.nodeId === SAME_HINT, 'one of them got the id it asked for');
    assert.notEqual(a!.nodeId, b!.nodeId);
  });

  test('2,000 commands and messages created through both at once: every id unique, no 5xx', async () => {
    const guildIds = [
      TEST_GUILD_ID,
      ...Array.from({ length: GUILDS - 1 }, (_, i) => `13451837571073${String(i).padStart(2, '0')}001`),
    ];
    const ping = await send(
      children[0]!.api,
      'POST',
      `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`,
      BOT,
      {
        name: 'ping',
        description: 'Answered inline',
      },
    );
    assert.equal(ping.status, 201, JSON.stringify(ping.body));

    const statuses: number[] = [];
    const refusals: string[] = [];
    const created: { id: string; via: Child }[] = [];
    const tasks: (() => Promise<void>)[] = [];
    for (const [g, guildId] of guildIds.entries()) {
      for (let i = 0; i < COMMANDS_PER_GUILD; i++) {
        const via = children[(g + i) % 2]!;
        tasks.push(async () => {
          const response = await send(via.api, 'POST', `/applications/${DEMO_APP_ID}/guilds/${guildId}/commands`, BOT, {
            name: `cmd-${i}`,
            description: 'One of many',
          });
          statuses.push(response.status);
          if (response.status >= 300) refusals.push(`command ${response.status} ${JSON.stringify(response.body)}`);
          if (response.status === 201) created.push({ id: response.body.id as string, via });
        });
      }
    }
    for (let i = 0; i < INVOCATIONS; i++) {
      const via = children[i % 2]!;
      tasks.push(async () => {
        const invoked = await send(via.api, 'POST', '/interactions', BOB, {
          type: 2,
          application_id: DEMO_APP_ID,
          guild_id: TEST_GUILD_ID,
          channel_id: GENERAL,
          nonce: `n${i}`,
          data: { id: ping.body.id, name: 'ping', type: 1, version: ping.body.version },
        });
        statuses.push(invoked.status);
        if (invoked.status >= 300) refusals.push(`invoke ${invoked.status} ${JSON.stringify(invoked.body)}`);
        if (invoked.status !== 200) return;
        created.push({ id: invoked.body.id as string, via });
        const interaction = app.interactions().find((x) => x.id === invoked.body.id);
        assert.ok(interaction, 'the app received the interaction');
        // The follow-up goes through the other process: ids from both meet in one channel.
        const other = children[(i + 1) % 2]!;
        const followUp = await send(other.api, 'POST', `/webhooks/${DEMO_APP_ID}/${interaction.token}`, '', {
          content: `follow-up ${i}`,
        });
        statuses.push(followUp.status);
        if (followUp.status >= 300) refusals.push(`follow-up ${followUp.status} ${JSON.stringify(followUp.body)}`);
        if (followUp.status === 200) created.push({ id: followUp.body.id as string, via: other });
      });
    }
    // Commands and invocations interleaved, so that both processes create ids at the same time.
    const interleaved = tasks
      .map((task, i) => ({ task, key: (i * 7919) % tasks.length }))
      .sort((x, y) => x.key - y.key);
    await pool(
      interleaved.map((x) => x.task),
      IN_FLIGHT,
    );

    assert.deepEqual(
      statuses.filter((s) => s >= 500),
      [],
      'no 5xx',
    );
    assert.deepEqual(refusals.slice(0, 5), [], 'every create and invocation was accepted');
    for (const { id, via } of created)
      assert.equal(nodeOf(id), via.nodeId, `id ${id} carries the node id of the process that made it`);

    const file = new Database(db, { readonly: true });
    try {
      const rows = file
        .prepare(
          `SELECT id FROM commands UNION ALL SELECT id FROM messages WHERE application_id IS NOT NULL UNION ALL SELECT id FROM interactions`,
        )
        .all() as { id: string }[];
      const ids = rows.map((r) => r.id);
      assert.equal(new Set(ids).size, ids.length, 'no id appears twice in the database');
      const commands = file.prepare('SELECT count(*) AS n FROM commands WHERE application_id = ?').get(DEMO_APP_ID) as {
        n: number;
      };
      const messages = file.prepare('SELECT count(*) AS n FROM messages WHERE application_id = ?').get(DEMO_APP_ID) as {
        n: number;
      };
      assert.equal(commands.n - 1, GUILDS * COMMANDS_PER_GUILD, 'every command was stored, none overwritten');
      assert.equal(messages.n, 2 * INVOCATIONS, 'every inline answer and follow-up is a message of its own');
      assert.ok(commands.n - 1 + messages.n >= 2_000);
    } finally {
      file.close();
    }
  });

  test('both processes stop cleanly and give their leases back', async () => {
    for (const child of children) assert.equal(await stopChild(child.process), 0);
    const file = new Database(db, { readonly: true });
    try {
      const held = file.prepare("SELECT count(*) AS n FROM node_leases WHERE holder <> ''").get() as { n: number };
      assert.equal(held.n, 0);
    } finally {
      file.close();
    }
  });
});
