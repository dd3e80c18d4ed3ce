/** `slashd serve`: options from flags, then environment variables, then defaults. */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createSlashd, type Slashd } from '../app.js';
import type { Issue } from '../core/errors.js';
import { readJsonText } from '../core/json.js';
import { DatabaseOpenError } from '../store/sqlite/connection.js';
import { ENDPOINT_POLICY_MODES, type EndpointPolicyMode } from '../core/outbound-policy.js';
import { parseWorld } from '../core/world/parse.js';
import type { World } from '../core/world/types.js';
import { DEMO_WORLD } from '../world/demo-world.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3210;
export const DEFAULT_DB = './data/slashd.sqlite';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

/** A failure to create the database's folder or open its file: reported as one line, exit code 1. */
function isDatabaseSetupError(error: unknown): error is Error {
  return error instanceof DatabaseOpenError || (error instanceof Error && 'syscall' in error && error.syscall === 'mkdir');
}

function readWorld(value: unknown, source: string): World {
  const parsed = parseWorld(value);
  if (parsed.ok) return parsed.value;
  throw new Error(`The world in ${source} is invalid:\n${describeIssues(parsed.issues)}`);
}

function describeIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.code} ${i.message}`).join('\n');
}

function isPolicyMode(value: string): value is EndpointPolicyMode {
  return (ENDPOINT_POLICY_MODES as readonly string[]).includes(value);
}

export function loadWorldFile(path: string): World {
  const read = readJsonText(readFileSync(path, 'utf8'));
  if (read.ok) return readWorld(read.value, path);
  if (read.reason === 'syntax') throw new Error(`The world in ${path} is not JSON: ${read.message}`);
  throw new Error(`The world in ${path} is invalid:\n${describeIssues(read.issues)}`);
}

export async function runServe(args: string[], out: Output, env = process.env): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      db: { type: 'string' },
      world: { type: 'string' },
      demo: { type: 'boolean' },
      'admin-token': { type: 'string' },
      'log-level': { type: 'string' },
      'request-timeout': { type: 'string' },
      'endpoint-policy': { type: 'string' },
      'allow-private-endpoints': { type: 'boolean' },
    },
  });
  const policyMode = values['endpoint-policy'] ?? env.SLASHD_ENDPOINT_POLICY ?? 'default';
  if (!isPolicyMode(policyMode)) {
    out.error(`Invalid endpoint policy: ${policyMode} (one of ${ENDPOINT_POLICY_MODES.join(', ')})`);
    return 2;
  }
  const allowPrivate = values['allow-private-endpoints'] ?? env.SLASHD_ALLOW_PRIVATE_ENDPOINTS === '1';
  const host = values.host ?? env.SLASHD_HOST ?? DEFAULT_HOST;
  const port = Number(values.port ?? env.SLASHD_PORT ?? DEFAULT_PORT);
  const db = values.db ?? env.SLASHD_DB ?? DEFAULT_DB;
  const worldPath = values.world ?? env.SLASHD_WORLD;
  const demo = values.demo ?? env.SLASHD_DEMO === '1';
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    out.error(`Invalid port: ${String(values.port ?? env.SLASHD_PORT)}`);
    return 2;
  }
  const requestTimeout = values['request-timeout'] ?? env.SLASHD_REQUEST_TIMEOUT_MS;
  const requestTimeoutMs = requestTimeout === undefined ? undefined : Number(requestTimeout);
  if (requestTimeoutMs !== undefined && (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs <= 0)) {
    out.error(`Invalid request timeout (ms): ${requestTimeout}`);
    return 2;
  }
  const demoWorld = demo ? readWorld(DEMO_WORLD, 'the demo world') : null;
  const world = worldPath ? loadWorldFile(worldPath) : null;
  let slashd: Slashd;
  try {
    if (db !== ':memory:') mkdirSync(dirname(db), { recursive: true });
    slashd = await createSlashd({
      db,
      world,
      mergeWorld: demoWorld,
      adminToken: values['admin-token'] ?? env.SLASHD_ADMIN_TOKEN,
      logLevel: values['log-level'] ?? env.SLASHD_LOG_LEVEL ?? 'warn',
      timeouts: requestTimeoutMs === undefined ? undefined : { requestTimeoutMs },
      endpointPolicy: { mode: policyMode, allowPrivate },
    });
  } catch (error) {
    // An operator's mistake (a bad --db) is a sentence naming the path, not a stack trace.
    if (!isDatabaseSetupError(error)) throw error;
    out.error(error instanceof DatabaseOpenError ? error.message : `cannot open the SQLite database at ${db}: ${error.message}`);
    return 1;
  }
  const url = await slashd.listen({ host, port });
  out.log(`slashd listening on ${url}`);
  out.log(`  API base:    ${url}/api/v10`);
  if (!values['admin-token'] && !env.SLASHD_ADMIN_TOKEN) out.log(`  admin token: ${slashd.adminToken}`);
  if (demoWorld) {
    for (const app of demoWorld.applications) {
      out.log(`  demo app "${app.name}": id ${app.id}, bot token ${app.bot_token}`);
    }
    for (const guild of demoWorld.guilds) out.log(`  demo guild "${guild.name}": id ${guild.id}`);
  }

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      slashd.close().then(resolve, resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  out.log('slashd stopped');
  return 0;
}
