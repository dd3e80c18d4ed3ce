/**
 * slashd nodes whose dependencies a test can break: a private `redis-server` (./redis-server.ts)
 * and a fresh PostgreSQL schema, each node reaching both through its own proxies
 * (./tcp-proxy.ts), so one node can be partitioned, or every node's PostgreSQL stalled, while
 * the others go on. Nodes run in this process (`createSlashd`, with any config: shorter timeouts
 * keep a fault test fast) or as `slashd serve` children (with any flags), as an operator runs them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlashd, type Slashd, type SlashdConfig } from '../../src/app.js';
import type { World } from '../../src/core/world/types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { CHILD_WAIT_MS, CLI, startChild, type RunningChild } from './cli-process.js';
import { requestAt } from './nodes.js';
import { dropSchema, freshSchemaName, postgresTarget, postgresUrlVia, unreachable } from './postgres.js';
import { startPrivateRedis, type PrivateRedis } from './redis-server.js';
import type { RequestOptions, TestResponse } from './server.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { ADMIN_TOKEN } from './world.js';

export interface FaultNode {
  /** 1-based. */
  index: number;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** This node's way to PostgreSQL, and to Redis. */
  postgres: TcpProxy;
  redis: TcpProxy;
  /** The node in this process; null for a child process. */
  slashd: Slashd | null;
  /** The child process; null in process. */
  child: RunningChild | null;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
}

export interface FaultClusterOptions {
  nodes: number;
  /** Loaded by the first node. */
  world: World;
  /** `in-process` (default) or `processes` (`slashd serve` children). */
  mode?: 'in-process' | 'processes';
  /** In process: config for every node (on top of the database, Redis and admin token). */
  config?: Partial<SlashdConfig>;
  /** Children: more flags for every node. */
  args?: string[];
}

export interface FaultCluster {
  redis: PrivateRedis;
  schema: string;
  prefix: string;
  nodes: FaultNode[];
  close(): Promise<void>;
}

/** The URL in a node's start-up line, plain or a JSON record. */
const LISTENING = /slashd listening on (http:\/\/[^\s"]+)/;

function childNode(dbUrl: string, schema: string, redisUrl: string, prefix: string, extra: string[]): RunningChild {
  return startChild(process.execPath, [
    CLI,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--db',
    dbUrl,
    '--db-schema',
    schema,
    '--redis',
    redisUrl,
    '--redis-prefix',
    prefix,
    '--admin-token',
    ADMIN_TOKEN,
    '--log-level',
    'warn',
    ...extra,
  ]);
}

/** SIGTERM, then SIGKILL past the safety net (a child whose dependency stalls may not drain). */
async function stopChild(child: RunningChild): Promise<void> {
  const timer = setTimeout(() => child.process.kill('SIGKILL'), CHILD_WAIT_MS);
  try {
    await child.stop();
  } finally {
    clearTimeout(timer);
  }
}

export async function startFaultCluster(options: FaultClusterOptions): Promise<FaultCluster> {
  const schema = freshSchemaName('slashd_faults');
  const prefix = 'slashd-faults:';
  const redis = await startPrivateRedis();
  const dir = mkdtempSync(join(tmpdir(), 'slashd-faults-'));
  const proxies: TcpProxy[] = [];
  const nodes: FaultNode[] = [];
  const close = async () => {
    // Dependencies first back to normal, so that every node can drain and close.
    for (const proxy of proxies) await proxy.restore();
    for (const node of nodes) {
      if (node.slashd) await node.slashd.close();
      if (node.child) await stopChild(node.child);
    }
    for (const proxy of proxies) await proxy.close();
    await redis.close();
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  };
  try {
    // Migrated once, as an operator does before starting the nodes.
    const migrated = await PostgresStore.open({ connectionString: postgresUrlVia(postgresTarget.port), schema }).catch(
      (error: unknown) => {
        throw unreachable(error);
      },
    );
    await migrated.close();
    for (let index = 1; index <= options.nodes; index++) {
      const postgres = await startTcpProxy(postgresTarget);
      const redisProxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
      proxies.push(postgres, redisProxy);
      const dbUrl = postgresUrlVia(postgres.port);
      const redisUrl = `redis://127.0.0.1:${redisProxy.port}`;
      const world = index === 1 ? options.world : undefined;
      let slashd: Slashd | null = null;
      let child: RunningChild | null = null;
      let url: string;
      if (options.mode === 'processes') {
        const extra = [...(options.args ?? [])];
        if (world) {
          const path = join(dir, 'world.json');
          writeFileSync(path, JSON.stringify(world));
          extra.push('--world', path);
        }
        child = childNode(dbUrl, schema, redisUrl, prefix, extra);
        url = (await child.waitForLine(LISTENING))[1]!;
      } else {
        slashd = await createSlashd({
          ...options.config,
          db: dbUrl,
          dbSchema: schema,
          redisUrl,
          redisPrefix: prefix,
          adminToken: ADMIN_TOKEN,
          ...(world ? { world } : {}),
        });
        url = await slashd.listen({ host: '127.0.0.1', port: 0 });
      }
      const base = url;
      nodes.push({
        index,
        url,
        postgres,
        redis: redisProxy,
        slashd,
        child,
        request: (method, path, opts) => requestAt(base, method, path, opts),
      });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { redis, schema, prefix, nodes, close };
}
