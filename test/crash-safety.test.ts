/**
 * SIGKILL in the middle of a bulk overwrite of 100 commands ("Must show"): the real CLI
 * as a child process, killed while list B is in flight over list A, then restarted on the same
 * file. The list is exactly A or exactly B, never a mix, and the daily create count agrees with
 * it. The kill lands at a different point in each iteration; the assertion holds wherever it lands.
 * And SIGKILL among concurrent message creates, whose writes share one commit per turn: every
 * message answered 200 survives it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCommandResponse, repoRoot } from './helpers/openapi.js';
import { BOT, DEMO_APP_ID, exampleWorld, GENERAL, TEST_GUILD_ID } from './helpers/world.js';
import type { Json } from './helpers/json.js';

const ROOT = repoRoot();
const CLI = join(ROOT, 'bin', 'slashd.js');
const BUILT_CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const LIST_PATH = `/api/v10/applications/${DEMO_APP_ID}/commands`;
const GUILD_LIST_PATH = `/api/v10/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
const START_TIMEOUT_MS = 20_000;

interface Child {
  process: ChildProcess;
  url: string;
}

const children = new Set<ChildProcess>();

/** Starts `slashd serve` and resolves with the URL it prints. */
function startChild(db: string, worldFile: string): Promise<Child> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, '--world', worldFile, '--admin-token', 'x'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`slashd did not start in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, START_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /slashd listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1]! });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`slashd exited (${code ?? signal}) before listening\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}

async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

interface Sent {
  /** Resolves once the whole request has been handed to the socket. */
  written: Promise<void>;
  /** The response, or null when the connection died first. */
  response: Promise<{ status: number; body: unknown } | null>;
}

/** A request through node:http, so that the moment the body is written can be observed. */
function send(url: string, method: string, path: string, body?: unknown): Sent {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  let onWritten: () => void = () => {};
  const written = new Promise<void>((resolve) => {
    onWritten = resolve;
  });
  const response = new Promise<{ status: number; body: unknown } | null>((resolve) => {
    const req = httpRequest(
      `${url}${path}`,
      {
        method,
        agent: false,
        headers: {
          authorization: BOT,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', () => resolve(null));
        res.on('aborted', () => resolve(null));
      },
    );
    req.on('error', () => {
      onWritten();
      resolve(null);
    });
    req.on('finish', () => onWritten());
    req.end(payload);
  });
  return { written, response };
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const result = await send(url, method, path, body).response;
  assert.ok(result, `${method} ${path}: no response`);
  return result;
}

/** 100 CHAT_INPUT commands (the global limit), each with options, so the write has some weight. */
function commandList(prefix: string): Json[] {
  return Array.from({ length: 100 }, (_, i) => ({
    name: `${prefix}-${i}`,
    description: `${prefix} command number ${i} `.padEnd(100, 'x'),
    options: Array.from({ length: 5 }, (_, j) => ({
      type: 3,
      name: `opt${j}`,
      description: `option ${j} of ${prefix}-${i}`,
      required: false,
      choices: Array.from({ length: 5 }, (_, k) => ({ name: `choice ${k}`, value: `v${k}` })),
    })),
  }));
}

/**
 * Where the kill lands, relative to the write of request B: `fraction` of the time the warm server
 * took to answer the same amount of work, so the kills spread over B's processing whatever the
 * machine's speed. null: before the request has been written at all.
 */
const KILL_POINTS: { label: string; fraction: number | null }[] = [
  { label: 'as soon as the request is sent', fraction: null },
  { label: 'right when the request has been written', fraction: 0 },
  { label: 'at 30% of the expected processing time', fraction: 0.3 },
  { label: 'at 60% of the expected processing time', fraction: 0.6 },
  { label: 'at 90% of the expected processing time', fraction: 0.9 },
];

function utcDay(): string {
  return new Date().toISOString().slice(0, 10);
}

describe(
  'crash safety of the bulk overwrite and of writes committed by turn',
  { skip: existsSync(BUILT_CLI) ? false : 'the CLI is not built (npx tsc -p .)' },
  () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'slashd-crash-'));
    });
    after(async () => {
      for (const child of [...children]) await kill(child, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    KILL_POINTS.forEach((point, iteration) => {
      test(`SIGKILL ${point.label}: after a restart the list is exactly A or exactly B`, async (t) => {
        const db = join(dir, `crash-${iteration}.sqlite`);
        const worldFile = join(dir, `world-${iteration}.json`);
        writeFileSync(worldFile, JSON.stringify(exampleWorld()));
        const dayAtStart = utcDay();
        const listA = commandList('alpha');
        const listB = commandList('beta');

        let child = await startChild(db, worldFile);
        const putA = await call(child.url, 'PUT', LIST_PATH, listA);
        // Calibration on a warm server: the same amount of work in another scope, timed from the
        // moment the body is written to the answer.
        const calibration = send(child.url, 'PUT', GUILD_LIST_PATH, commandList('gamma'));
        await calibration.written;
        const startedCalibration = performance.now();
        assert.equal((await calibration.response)?.status, 200);
        const processingMs = performance.now() - startedCalibration;
        assert.equal(putA.status, 200, JSON.stringify(putA.body).slice(0, 500));
        const a = (putA.body as Json[]).map((c) => [c.name, c.id]).sort();
        assert.equal(a.length, 100);

        const inFlight = send(child.url, 'PUT', LIST_PATH, listB);
        const victim = child.process;
        if (point.fraction === null) {
          victim.kill('SIGKILL');
        } else {
          await inFlight.written;
          if (point.fraction > 0) await new Promise((resolve) => setTimeout(resolve, processingMs * point.fraction!));
          victim.kill('SIGKILL');
        }
        await kill(victim, 'SIGKILL');
        const answered = await inFlight.response;

        child = await startChild(db, worldFile);
        try {
          const listed = await call(child.url, 'GET', LIST_PATH);
          assert.equal(listed.status, 200);
          assertCommandResponse(listed.body);
          const now = (listed.body as Json[]).map((c) => [c.name, c.id]).sort();
          const names = now.map(([name]) => name).sort();
          const isA = JSON.stringify(now) === JSON.stringify(a);
          const isB =
            JSON.stringify(names) === JSON.stringify(listB.map((c) => c.name).sort()) &&
            now.every(([, id]) => !a.some(([, oldId]) => oldId === id));
          t.diagnostic(
            `after the crash: list ${isA ? 'A' : isB ? 'B' : 'mixed'}; the PUT was ${answered ? `answered ${answered.status}` : 'not answered'}`,
          );
          assert.ok(
            isA || isB,
            `a mix after the crash: ${JSON.stringify(names.slice(0, 5))}... (${names.length} commands)`,
          );
          if (answered && answered.status === 200) {
            // The server answered before dying: the answer is what was stored.
            assert.ok(isB, 'a bulk overwrite that was answered 200 is durable');
            assert.deepEqual(now, (answered.body as Json[]).map((c) => [c.name, c.id]).sort());
          }
          for (const command of listed.body as Json[]) {
            assert.equal(command.options.length, 5, `${command.name}: whole commands, not parts`);
          }

          // The daily create count went with the commands: A counted 100, B 100 more.
          if (utcDay() === dayAtStart) {
            if (isA) {
              const retry = await call(child.url, 'PUT', LIST_PATH, listB);
              assert.equal(retry.status, 200, 'B was rolled back whole, its creates too');
            } else {
              const more = await call(child.url, 'POST', LIST_PATH, { name: 'One More', type: 2 });
              assert.equal(more.status, 429, 'B committed whole, its 100 creates counted');
              assert.equal((more.body as Json).code, 30034);
            }
          }
        } finally {
          await kill(child.process, 'SIGTERM');
        }
      });
    });

    test('SIGKILL among 16 streams of message creates: every message answered 200 is there after a restart', async () => {
      const db = join(dir, 'turns.sqlite');
      const worldFile = join(dir, 'world.json');
      writeFileSync(worldFile, JSON.stringify(exampleWorld()));
      let child = await startChild(db, worldFile);
      const answered: string[] = [];
      const KILL_AFTER = 150;
      const path = `/api/v10/channels/${GENERAL}/messages`;
      // Killed the moment the 150th answer arrives: other answers of its turn are on their way then.
      const stream = async (n: number) => {
        for (let i = 0; child.process.exitCode === null && child.process.signalCode === null; i++) {
          const result = await send(child.url, 'POST', path, { content: `stream ${n} message ${i}` }).response;
          if (result === null) return;
          assert.equal(result.status, 200, JSON.stringify(result.body));
          answered.push((result.body as Json).id as string);
          if (answered.length === KILL_AFTER) child.process.kill('SIGKILL');
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, n) => stream(n)));
      await kill(child.process, 'SIGKILL');
      assert.ok(answered.length >= KILL_AFTER);
      child = await startChild(db, worldFile);
      try {
        for (const id of answered) {
          const read = await call(child.url, 'GET', `${path}/${id}`);
          assert.equal(read.status, 200, `message ${id} was answered 200, then lost`);
        }
      } finally {
        await kill(child.process, 'SIGTERM');
      }
    });
  },
);
