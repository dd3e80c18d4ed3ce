/**
 * A private `redis-server` for tests that stop, restart or stall Redis: on a free port of its own
 * (never the shared Redis the other tests use), without persistence, so a restart comes back
 * empty as a Redis without a volume does. Waits are for the server's own "ready" line, bounded by
 * the children's safety net.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CHILD_WAIT_MS } from './cli-process.js';

export interface PrivateRedis {
  readonly port: number;
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  /** Kills the server (SIGKILL, as a crash): connections drop, the port refuses. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** stop() then start(): Redis back, without any of its keys. */
  restartEmpty(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing is answered (a stalled Redis). */
  pause(): void;
  /** SIGCONT: what was sent meanwhile is answered. */
  resume(): void;
  close(): Promise<void>;
}

/** A port free right now on the loopback interface (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start within ${CHILD_WAIT_MS} ms:\n${out}`)),
      CHILD_WAIT_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('error', (error) =>
      fail(new Error(`redis-server could not be run (is it installed?): ${error.message}`)),
    );
    child.once('exit', (code) => fail(new Error(`redis-server exited (${String(code)}) before it was ready:\n${out}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(child);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = await launch(port);
  const running = (): ChildProcess => {
    if (!child) throw new Error('the private redis-server is stopped');
    return child;
  };
  const stop = async () => {
    if (child) await killed(child);
    child = null;
  };
  const start = async () => {
    if (child) throw new Error('the private redis-server is already running');
    child = await launch(port);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async restartEmpty() {
      await stop();
      await start();
    },
    pause: () => void running().kill('SIGSTOP'),
    resume: () => void running().kill('SIGCONT'),
    close: stop,
  };
}
