/** Servers under benchmark run in child processes, so the load generator has its own event loop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { World } from '../src/core/world/types.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

function waitForUrl(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = pattern.exec(buffered);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${buffered}`)));
  });
}

function stopper(child: ChildProcess, cleanup: () => void): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) {
        cleanup();
        resolve();
        return;
      }
      child.once('exit', () => {
        cleanup();
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * `slashd serve` with these arguments (besides an ephemeral port); `cleanup` runs once it has exited.
 * Rate limits are off unless the arguments choose a preset: serve's default (`sandbox`) would turn
 * a throughput benchmark into a measure of its limits. `nodeFlags` go to node (e.g. `--cpu-prof`).
 */
export async function startSlashdWith(
  args: string[],
  cleanup: () => void = () => {},
  nodeFlags: readonly string[] = [],
  /** Another build of slashd to run (an A/B against an earlier commit); default this one. */
  root: string = REPO_ROOT,
): Promise<ChildServer> {
  const limits = args.includes('--rate-limits') ? [] : ['--rate-limits', 'off'];
  const child = spawn(process.execPath, [...nodeFlags, 'bin/slashd.js', 'serve', '--port', '0', ...limits, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await waitForUrl(child, /listening on (http:\/\/\S+)/);
  return { url, child, stop: stopper(child, cleanup) };
}

/** slashd itself, through its CLI, on a fresh SQLite file. */
export async function startSlashd(
  world: World,
  extraArgs: readonly string[] = [],
  nodeFlags: readonly string[] = [],
  /** Another build of slashd to run (`startSlashdWith`'s `root`); default this one. */
  root: string = REPO_ROOT,
): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-bench-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(world));
  const args = ['--db', join(dir, 'bench.sqlite'), '--world', worldPath, '--admin-token', 'bench', ...extraArgs];
  return startSlashdWith(args, () => rmSync(dir, { recursive: true, force: true }), nodeFlags, root);
}

/** `part` on slashd started afresh on `world` (a part's files would weigh on the next: WAL checkpoints of 200 MB), stopped after. */
export async function onFreshServer(world: World, part: (server: ChildServer) => Promise<string[]>): Promise<string[]> {
  const server = await startSlashd(world);
  try {
    return await part(server);
  } finally {
    await server.stop();
  }
}

/** The baseline: a bare node:http server answering every request with the same bytes. */
export async function startBareServer(body: string): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-bare-'));
  const bodyPath = join(dir, 'body.json');
  writeFileSync(bodyPath, body);
  const script = `
    const http = require('node:http');
    const body = require('node:fs').readFileSync(${JSON.stringify(bodyPath)});
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await waitForUrl(child, /listening on (http:\/\/\S+)/);
  return { url, child, stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })) };
}

/**
 * slashd with rate limits off, in memory or in Redis (bench/rate-limits-node.ts), on a fresh SQLite
 * file, or on PostgreSQL when `postgres` is given.
 */
export async function startRateLimitedSlashd(
  world: World,
  limits: string[],
  postgres?: { url: string; schema: string },
): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-bench-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(world));
  const child = spawn(
    process.execPath,
    [
      'dist/bench/rate-limits-node.js',
      worldPath,
      ...(postgres ? [postgres.url, postgres.schema] : [join(dir, 'bench.sqlite'), '-']),
      ...limits,
    ],
    { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const url = await waitForUrl(child, /listening on (http:\/\/\S+)/);
  return { url, child, stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })) };
}

/** CPU time (user + system, every thread) a process has used, in ms; null where /proc is not there. */
export function cpuMs(pid: number | undefined): number | null {
  const path = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(path)) return null;
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
  const fields = readFileSync(path, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
