/**
 * discord.py as the tests run it: Debian's python3-discord under the system interpreter, one
 * script of test/python per test, its result the last line it prints (one JSON object).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli-process.js';

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

/** Starts test/python/`name` as a long-running bot, its stdio piped. */
export function spawnDiscordPy(name: string, args: readonly string[]): ChildProcess {
  assertDiscordPyInstalled();
  return spawn(PYTHON, [discordPyScript(name), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}
