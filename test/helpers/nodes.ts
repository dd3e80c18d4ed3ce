/**
 * Several real `slashd serve` processes on one PostgreSQL schema and one Redis key prefix, both
 * fresh for the run and removed afterwards: what an operator runs behind a load balancer. The
 * schema is migrated first (`slashd migrate`); the first node loads the world (`--world`) before
 * the others start, so every node reads the same one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlashd, type Slashd } from '../../src/app.js';
import type { World } from '../../src/core/world/types.js';
import { CHILD_WAIT_MS, CLI, runToEnd, startChild, type RunningChild } from './cli-process.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable, withAdminClient } from './postgres.js';
import { connectLink, deletePrefix, freshRedisPrefix, redisUrl } from './redis.js';
import type { RequestOptions, TestResponse } from './server.js';
import { ADMIN_TOKEN } from './world.js';

export interface SlashdNode {
  /** 1-based, as the tests name them. */
  index: number;
  child: RunningChild;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
}

export interface Cluster {
  nodes: SlashdNode[];
  schema: string;
  redisPrefix: string;
  /** kill -9: no drain, no goodbye. Resolves once the process is gone. */
  kill(node: SlashdNode): Promise<void>;
  close(): Promise<void>;
}

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** `request` as test/helpers/server.ts has it: a path under /api/v10, or a whole URL. */
export async function requestAt(
  base: string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.auth;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const target = path.startsWith('http') ? path : `${base}/api/v10${path}`;
  const response = await fetch(target, { method, headers, body: body ?? null });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseBody(text) };
}

function startNode(schema: string, redisPrefix: string, extra: string[]): RunningChild {
  return startChild(process.execPath, [
    CLI,
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--db',
    postgresConnectionString,
    '--db-schema',
    schema,
    '--redis',
    redisUrl,
    '--redis-prefix',
    redisPrefix,
    '--admin-token',
    ADMIN_TOKEN,
    '--log-level',
    'warn',
    ...extra,
  ]);
}

async function listening(index: number, child: RunningChild): Promise<SlashdNode> {
  const match = await child.waitForLine(/^slashd listening on (http:\/\/\S+)$/);
  const url = match[1]!;
  return { index, child, url, request: (method, path, opts) => requestAt(url, method, path, opts) };
}

/** SIGTERM (a node drains), then SIGKILL if it has not exited within the safety net. */
async function stopBounded(child: RunningChild): Promise<void> {
  const timer = setTimeout(() => child.process.kill('SIGKILL'), CHILD_WAIT_MS);
  try {
    await child.stop();
  } finally {
    clearTimeout(timer);
  }
}

/** `count` nodes, the first started with `world`, the others once it listens. */
export async function startCluster(count: number, world: World): Promise<Cluster> {
  await withAdminClient((client) => client.query('SELECT 1')).catch((error: unknown) => {
    throw unreachable(error);
  });
  await (await connectLink('slashd-test:reachable:')).close();
  const schema = freshSchemaName('slashd_nodes');
  const redisPrefix = freshRedisPrefix('nodes');
  const dir = mkdtempSync(join(tmpdir(), 'slashd-nodes-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(world));
  const children: RunningChild[] = [];
  const cleanup = async () => {
    await Promise.all(children.map(stopBounded));
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
    await deletePrefix(redisPrefix);
  };
  try {
    // As an operator rolls out (docs/scaling.md): the schema migrated once, then the nodes.
    const migrated = await runToEnd(process.execPath, [
      CLI,
      'migrate',
      '--db',
      postgresConnectionString,
      '--db-schema',
      schema,
    ]);
    if (migrated.code !== 0) throw new Error(`slashd migrate failed: ${migrated.stderr}${migrated.stdout}`);
    const first = startNode(schema, redisPrefix, ['--world', worldPath]);
    children.push(first);
    const nodes = [await listening(1, first)];
    const rest = Array.from({ length: count - 1 }, () => startNode(schema, redisPrefix, []));
    children.push(...rest);
    nodes.push(...(await Promise.all(rest.map((child, i) => listening(i + 2, child)))));
    return {
      nodes,
      schema,
      redisPrefix,
      async kill(node) {
        node.child.process.kill('SIGKILL');
        await node.child.stop();
      },
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** A slashd in this process on a shared PostgreSQL schema and Redis prefix: one node of a test's pair. */
export interface InProcessNode {
  slashd: Slashd;
  url: string;
}

/** Starts one in-process node on `schema` and `prefix`; `world` (the first node's) is loaded at start. */
export async function startInProcessNode(schema: string, prefix: string, world?: World): Promise<InProcessNode> {
  const slashd = await createSlashd({
    db: postgresConnectionString,
    dbSchema: schema,
    redisUrl,
    redisPrefix: prefix,
    adminToken: ADMIN_TOKEN,
    ...(world ? { world } : {}),
  });
  return { slashd, url: await slashd.listen({ host: '127.0.0.1', port: 0 }) };
}

/** Two in-process nodes on a fresh schema and Redis prefix; `a` loads `world`. */
export interface NodePair {
  a: InProcessNode;
  b: InProcessNode;
  /** The pair's Redis key prefix (for tests that read what the nodes keep there). */
  prefix: string;
  /** Closes both nodes, drops the schema and deletes the prefix's keys. */
  close(): Promise<void>;
}

export async function startNodePair(name: string, world: World): Promise<NodePair> {
  const schema = freshSchemaName(name.replace(/-/g, '_'));
  const prefix = freshRedisPrefix(name);
  const started: InProcessNode[] = [];
  const close = async () => {
    for (const node of started) await node.slashd.close();
    await dropSchema(schema);
    await deletePrefix(prefix);
  };
  try {
    started.push(await startInProcessNode(schema, prefix, world));
    started.push(await startInProcessNode(schema, prefix));
  } catch (error) {
    await close();
    throw error;
  }
  return { a: started[0]!, b: started[1]!, prefix, close };
}
