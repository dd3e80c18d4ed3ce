/**
 * discord.py as the tests run it: Debian's python3-discord under the system interpreter, one
 * script of test/python per test, its result the last line it prints (one JSON object).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { ROOT } from './cli-process.js';
import { Inbox } from './inbox.js';

/** The system interpreter: Debian's python3-discord is installed for it, not for others on PATH. */
export const PYTHON = '/usr/bin/python3';

/** A script that runs to its end gets this long. */
const SCRIPT_TIMEOUT_MS = 120_000;

const run = promisify(execFile);

/** Fails the test with what to install when discord.py (and aiohttp, which comes with it) is missing. */
export function assertDiscordPyInstalled(): void {
  const probe = spawnSync(PYTHON, ['-c', 'import aiohttp, discord'], { encoding: 'utf8' });
  assert.equal(
    probe.status,
    0,
    `discord.py is missing: install the Debian package python3-discord (apt-get install python3-discord); ${probe.stderr ?? ''}`,
  );
}

/** The path of test/python/`name`. */
export function discordPyScript(name: string): string {
  return join(ROOT, 'test', 'python', name);
}

/** Runs test/python/`name` to its end and resolves with the JSON object it printed last. */
export async function runDiscordPy<T = any>(name: string, args: readonly string[]): Promise<T> {
  assertDiscordPyInstalled();
  const { stdout } = await run(PYTHON, [discordPyScript(name), ...args], { timeout: SCRIPT_TIMEOUT_MS });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

/** How much of a bot's stderr is kept for failure messages. */
const STDERR_KEPT_CHARS = 8000;

/** A long-running discord.py bot: each JSON line it prints, pushed into `lines` (`exited` last). */
export interface DiscordPyBot {
  process: ChildProcess;
  lines: Inbox<any>;
  /** The line the bot printed once ready (`event: 'ready'`). */
  ready: any;
  /** The end of what it wrote to stderr, for failure messages. */
  stderr(): string;
  /** Sends a command line to its stdin (the scripts read `quit` and their own commands). */
  send(line: string): void;
  /** Asks it to quit, and kills it if it does not. */
  stop(): Promise<void>;
}

/**
 * Starts test/python/`name` as a long-running bot and resolves once it prints its `ready` line;
 * fails, with its stderr, when it exits or crashes first.
 */
export async function startDiscordPyBot(name: string, args: readonly string[]): Promise<DiscordPyBot> {
  assertDiscordPyInstalled();
  const child = spawn(PYTHON, [discordPyScript(name), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = new Inbox<any>();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT_CHARS);
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line));
    } catch {
      lines.push({ event: 'unparsed', line });
    }
  });
  child.once('exit', (code) => lines.push({ event: 'exited', code, stderr }));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = lines.find((l) => l.event === 'exited', 'the bot to exit');
    child.stdin.end('quit\n');
    await exited.catch(() => child.kill('SIGKILL'));
  };
  const ready = await lines.find((l) => ['ready', 'exited', 'crashed'].includes(l.event), 'on_ready');
  if (ready.event !== 'ready') {
    await stop();
    assert.fail(`discord.py did not become ready: ${JSON.stringify(ready)}\n${stderr}`);
  }
  return { process: child, lines, ready, stderr: () => stderr, send: (line) => child.stdin.write(`${line}\n`), stop };
}
