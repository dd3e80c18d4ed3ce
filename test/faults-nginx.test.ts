/**
 * The shipped balancer config (deploy/nginx.conf) in front of three real nodes, run by a real
 * nginx (Debian's nginx-light): only the upstream addresses, the listen address and the log paths
 * are put in for the test; every other line is the file as shipped. Issue 39: with nginx's
 * defaults a shared dependency's 503 ejected every node, nginx answered its own HTML 502 and kept
 * doing so ~12 s after every node was ready again.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SlashdConfig } from '../src/app.js';
import { ROOT } from './helpers/cli-process.js';
import { startFaultCluster, type FaultCluster, type FaultNode } from './helpers/fault-nodes.js';
import { requestAt } from './helpers/nodes.js';
import { ALICE_TOKEN, BOT, GUILD_BASE, exampleWorld } from './helpers/world.js';

const NGINX = '/usr/sbin/nginx';

/** Short dependency bounds, as in faults-dependencies: a refused PostgreSQL is noticed in about a second. */
const FAST: Partial<SlashdConfig> = {
  dbStatementTimeoutMs: 1_000,
  dbConnectTimeoutMs: 1_000,
  timeouts: { handlerTimeoutMs: 3_000 },
};
const CAP_MS = 20_000;
const POLL_MS = 100;
const V10_503 = { message: '503: Service Unavailable', code: 0 };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** deploy/nginx.conf with the test's addresses in place of the compose service names. */
function shippedConfig(nodes: FaultNode[], port: number, dir: string): string {
  let config = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
  let seen = 0;
  config = config.replace(/server node(\d):3210/g, (_, n: string) => {
    seen++;
    return `server ${new URL(nodes[Number(n) - 1]!.url).host}`;
  });
  assert.equal(seen, nodes.length, 'the shipped config names one server per node');
  assert.match(config, /listen 8080;/);
  config = config.replace('listen 8080;', `listen 127.0.0.1:${port};`);
  config = config.replace('http {', `http {\n  access_log ${join(dir, 'access.log')};`);
  return config;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + CAP_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${CAP_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function ready(url: string): Promise<boolean> {
  return (await fetch(`${url}/readyz`).catch(() => null))?.status === 200;
}

describe('the shipped nginx config in front of three nodes', { skip: !existsSync(NGINX) && 'no nginx' }, () => {
  let cluster: FaultCluster;
  let nginx: ChildProcess;
  let balancer: string;
  let dir: string;

  before(async () => {
    cluster = await startFaultCluster({ nodes: 3, world: exampleWorld(), config: FAST });
    dir = mkdtempSync(join(tmpdir(), 'slashd-nginx-'));
    const port = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), shippedConfig(cluster.nodes, port, dir));
    nginx = spawn(
      NGINX,
      [
        '-p',
        dir,
        '-c',
        join(dir, 'nginx.conf'),
        '-e',
        join(dir, 'error.log'),
        '-g',
        `daemon off; pid ${join(dir, 'nginx.pid')};`,
      ],
      { stdio: 'ignore' },
    );
    balancer = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${balancer}/healthz`).catch(() => null))?.status === 200, 'nginx listening');
  });

  after(async () => {
    nginx?.kill('SIGTERM');
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const through = (method: string, path: string, options: Parameters<typeof requestAt>[3]) =>
    requestAt(balancer, method, path, options);

  test("PostgreSQL out for every node: slashd's v10 503 passes through; back: every node serves at once", async () => {
    assert.equal((await through('GET', GUILD_BASE, { auth: BOT })).status, 200);
    for (const node of cluster.nodes) {
      await node.postgres.refuse();
      node.postgres.cut();
    }
    for (let i = 0; i < 12; i++) {
      const answer = await through('GET', i % 2 ? GUILD_BASE : '/users/@me', { auth: i % 2 ? BOT : ALICE_TOKEN });
      assert.equal(answer.status, 503, `request ${i}: ${answer.text}`);
      assert.deepEqual(answer.body, V10_503, `request ${i} is slashd's JSON, not nginx's page`);
    }
    const post = await through('POST', GUILD_BASE, { auth: BOT, body: { name: 'during', description: 'during' } });
    assert.equal(post.status, 503, post.text);
    assert.deepEqual(post.body, V10_503);

    for (const node of cluster.nodes) await node.postgres.restore();
    for (const node of cluster.nodes) await until(() => ready(node.url), `node ${node.index} ready`);
    // No node was ejected for answering 503: the first requests after recovery are all served.
    const again = await Promise.all(Array.from({ length: 6 }, () => through('GET', GUILD_BASE, { auth: BOT })));
    assert.deepEqual(
      again.map((r) => r.status),
      [200, 200, 200, 200, 200, 200],
    );
  });

  test('a stopped node: its requests go to the others, none is refused', async () => {
    const stopped = cluster.nodes[1]!;
    await stopped.slashd!.close();
    stopped.slashd = null;
    const answers: number[] = [];
    for (let i = 0; i < 9; i++) answers.push((await through('GET', GUILD_BASE, { auth: BOT })).status);
    assert.deepEqual(answers, Array(9).fill(200));
  });
});
