/**
 * `slashd/testing`: what a test pays per sandbox, against a bare Fastify start (one route, listen
 * on a loopback port, close) measured in the same run: starting a sandbox (in-process slashd on
 * SQLite :memory: with the demo world and its start-up snapshot), restoring a snapshot holding
 * 100 commands and `reset()` from 100 commands (each through the admin API, as the kit does), and
 * invoke-to-answer: `sandbox.invoke('/ping')` until the example discord.js bot's reply is read.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { createSandbox, type Sandbox } from '../src/testing/index.js';
import type * as PingBot from '../examples/testing/ping-bot.js';
import { slashCommands } from './fixtures.js';
import { fixed, median, percentile } from './stats.js';

const STARTS = 15;
const RESTORES = 200;
const INVOKES = 100;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

function elapsedMs(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function bareFastifyStart(): Promise<number> {
  const started = process.hrtime.bigint();
  const app = Fastify();
  app.get('/', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const time = elapsedMs(started);
  await app.close();
  return time;
}

async function sandboxStart(): Promise<number> {
  const started = process.hrtime.bigint();
  const sandbox = await createSandbox();
  const time = elapsedMs(started);
  await sandbox.close();
  return time;
}

/** 100 commands: the bot's own and 97 more. */
async function deployHundred(sandbox: Sandbox, own: readonly object[]): Promise<void> {
  const bot = sandbox.bot();
  const response = await fetch(`${sandbox.apiUrl}/applications/${bot.id}/commands`, {
    method: 'PUT',
    headers: { authorization: `Bot ${bot.token}`, 'content-type': 'application/json' },
    body: JSON.stringify([...own, ...slashCommands(100 - own.length)]),
  });
  if (response.status !== 200) throw new Error(`deploying 100 commands: ${response.status} ${await response.text()}`);
}

async function timed(count: number, before: () => Promise<void>, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await before();
    const started = process.hrtime.bigint();
    await work();
    times.push(elapsedMs(started));
  }
  return times.sort((a, b) => a - b);
}

function line(name: string, times: number[], baseline: number): string {
  const sorted = [...times].sort((a, b) => a - b);
  const p50 = median(sorted);
  return `${name}: median ${fixed(p50)} ms, p95 ${fixed(percentile(sorted, 95))} ms, ${fixed(p50 / baseline)}× the bare Fastify start`;
}

export async function runTestingKitBench(): Promise<{ lines: string[] }> {
  // Warm both paths once (module loading, SQLite, JIT) before measuring.
  await bareFastifyStart();
  await sandboxStart();
  const fastifyTimes: number[] = [];
  const startTimes: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    fastifyTimes.push(await bareFastifyStart());
    startTimes.push(await sandboxStart());
  }
  const baseline = median(fastifyTimes);

  const sandbox = await createSandbox();
  const { startBot, COMMANDS } = (await import(
    pathToFileURL(join(ROOT, 'examples/testing/ping-bot.js')).href
  )) as typeof PingBot;
  const client = await startBot({ token: sandbox.bot().token, restUrl: sandbox.restUrl });
  try {
    await deployHundred(sandbox, COMMANDS);
    const hundred = await sandbox.snapshot();
    const restores = await timed(
      RESTORES,
      async () => {
        await sandbox.invoke('alice', 'general', '/ping');
      },
      () => sandbox.restore(hundred),
    );
    const resets = await timed(
      RESTORES / 4,
      async () => {
        await sandbox.restore(hundred);
      },
      () => sandbox.reset(),
    );
    await sandbox.restore(hundred);
    const invokes = await timed(
      INVOKES,
      async () => {},
      async () => {
        const outcome = await sandbox.invoke('alice', 'general', '/ping');
        if (outcome.message?.content !== 'pong') throw new Error(`no pong: ${JSON.stringify(outcome)}`);
      },
    );
    return {
      lines: [
        line('bare Fastify start (baseline)', fastifyTimes, baseline),
        line('createSandbox()', startTimes, baseline),
        line('restore() of a snapshot with 100 commands, after a /ping', restores, baseline),
        line('reset() from 100 commands to the start', resets, baseline),
        line('invoke /ping until the discord.js bot answer is read', invokes, baseline),
      ],
    };
  } finally {
    await client.destroy();
    await sandbox.close();
  }
}
