/**
 * docker-compose.yml stays true (docs/scaling.md): every slashd service's command is parsed by the
 * CLI's own argument parsers, every SLASHD_* variable it sets is one the CLI reads, the nodes share
 * one PostgreSQL schema, one Redis prefix and one admin token (given by the operator), and the load
 * balancer's config points at the three nodes' ports and passes WebSocket upgrades; the settings
 * table of docs/scaling.md names flags and variables serve has. No container runs here: the files
 * are read and checked.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DATABASE_OPTIONS, parseDatabaseArgs } from '../src/cli/database-args.js';
import { parseServeArgs } from '../src/cli/serve-args.js';
import { parseCommandLine, USAGE } from '../src/cli/usage.js';
import { HANDLER_TIMEOUT_MS } from '../src/http/limits.js';
import { repoRoot } from './helpers/openapi.js';
import { readYamlSubset, type YamlValue } from './helpers/yaml-subset.js';

type Map = Record<string, YamlValue>;

const ROOT = repoRoot();
const compose = readYamlSubset(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as Map;
const services = compose['services'] as Record<string, Map>;

function service(name: string): Map {
  const found = services[name];
  assert.ok(found, `a service named ${name}`);
  return found;
}

/** The image built from this repository runs `node bin/slashd.js`, then the service's command. */
function dockerEntrypoint(): string[] {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const line = /^ENTRYPOINT (\[.*\])$/m.exec(dockerfile);
  assert.ok(line, 'the Dockerfile has an exec-form ENTRYPOINT');
  return JSON.parse(line[1]!) as string[];
}

const slashdServices = Object.entries(services).filter(([, s]) => s['build'] === '.');
const nodeNames = slashdServices.filter(([, s]) => (s['command'] as string[])[0] === 'serve').map(([name]) => name);

/** `${NAME:?message}` and `${NAME}` as compose expands them: a value the operator gives. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::?[-?][^}]*)?\}/g, (_, name: string) => `operator-${name}`);
}

/** A service's environment, and the names the CLI read from it while parsing. */
function recordingEnv(s: Map): { env: NodeJS.ProcessEnv; read: Set<string>; names: string[] } {
  const vars = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries((s['environment'] ?? {}) as Record<string, string>)) {
    vars[name] = interpolate(value);
  }
  const read = new Set<string>();
  const env = new Proxy(vars, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return typeof key === 'string' ? target[key] : undefined;
    },
  });
  return { env, read, names: Object.keys(vars) };
}

interface Parsed {
  db: string;
  dbSchema: string;
  redisUrl?: string | undefined;
  redisPrefix?: string;
  adminToken?: string | undefined;
  host?: string;
  port?: number;
  gatewayUrl?: string | undefined;
}

/** The service's command through the parser of its subcommand; only SLASHD_* names the CLI read. */
function parseService(name: string): Parsed {
  const s = service(name);
  const [subcommand, ...args] = s['command'] as string[];
  const { env, read, names } = recordingEnv(s);
  let parsed: Parsed;
  if (subcommand === 'serve') {
    parsed = parseServeArgs(args, env);
  } else if (subcommand === 'migrate') {
    const { values, positionals } = parseCommandLine(args, DATABASE_OPTIONS);
    assert.deepEqual(positionals, []);
    parsed = parseDatabaseArgs(values, env);
  } else {
    assert.fail(`service ${name}: unknown slashd command '${subcommand}'`);
  }
  const unread = names.filter((n) => n.startsWith('SLASHD_') && !read.has(n));
  assert.deepEqual(unread, [], `service ${name} sets variables \`slashd ${subcommand}\` never reads`);
  return parsed;
}

describe('docker-compose.yml', () => {
  test('the slashd image runs the CLI: node bin/slashd.js, then each service command', () => {
    assert.deepEqual(dockerEntrypoint(), ['node', 'bin/slashd.js']);
    assert.deepEqual(
      slashdServices.map(([name]) => name),
      ['migrate', 'node1', 'node2', 'node3'],
    );
  });

  test('every slashd command parses with the CLI, and reads every SLASHD_ variable it is given', () => {
    for (const [name] of slashdServices) parseService(name);
  });

  test('the three nodes share one database schema, one Redis prefix and the admin token', () => {
    assert.equal(nodeNames.length, 3);
    const parsed = nodeNames.map(parseService);
    const shared = (p: Parsed) => ({
      db: p.db,
      dbSchema: p.dbSchema,
      redisUrl: p.redisUrl,
      redisPrefix: p.redisPrefix,
      adminToken: p.adminToken,
      gatewayUrl: p.gatewayUrl,
    });
    for (const p of parsed) assert.deepEqual(shared(p), shared(parsed[0]!));
    const node = parsed[0]!;
    assert.ok(node.redisUrl, 'the nodes use Redis');
    assert.equal(node.host, '0.0.0.0', 'the balancer reaches the nodes');
    assert.equal(node.adminToken, 'operator-SLASHD_ADMIN_TOKEN', 'the admin token comes from the operator');
    assert.match(
      (service(nodeNames[0]!)['environment'] as Map)['SLASHD_ADMIN_TOKEN'] as string,
      /^\$\{SLASHD_ADMIN_TOKEN:\?/,
      'compose refuses to start without an admin token',
    );
  });

  test('the schema is migrated once, on the same database, before any node starts', () => {
    const migrate = parseService('migrate');
    const node = parseService(nodeNames[0]!);
    assert.equal(migrate.db, node.db);
    assert.equal(migrate.dbSchema, node.dbSchema);
    for (const name of nodeNames) {
      const dependsOn = service(name)['depends_on'] as Record<string, Map>;
      assert.equal(dependsOn['migrate']?.['condition'], 'service_completed_successfully', name);
    }
  });

  test('the database and Redis URLs name the compose services and their credentials', () => {
    const node = parseService(nodeNames[0]!);
    const db = new URL(node.db);
    assert.equal(db.protocol, 'postgres:');
    const postgres = service(db.hostname);
    assert.match(postgres['image'] as string, /^postgres:/);
    const pgEnv = postgres['environment'] as Record<string, string>;
    assert.equal(db.username, pgEnv['POSTGRES_USER']);
    assert.equal(db.password, pgEnv['POSTGRES_PASSWORD']);
    assert.equal(db.pathname, `/${pgEnv['POSTGRES_DB']}`);
    const redis = new URL(node.redisUrl!);
    assert.match(service(redis.hostname)['image'] as string, /^redis:/);
  });

  test("the load balancer's config points at the three nodes and passes WebSocket upgrades", () => {
    const lb = service('lb');
    const mount = (lb['volumes'] as string[]).find((v) => v.endsWith(':/etc/nginx/nginx.conf:ro'));
    assert.ok(mount, 'nginx.conf is mounted from the repository');
    const conf = readFileSync(join(ROOT, mount.split(':')[0]!), 'utf8');

    const upstream = /upstream (\w+) \{([^}]*)\}/.exec(conf);
    assert.ok(upstream, 'an upstream block');
    const servers = [...upstream[2]!.matchAll(/^\s*server ([\w.-]+:\d+)[^;]*;/gm)].map((m) => m[1]!).sort();
    const expected = nodeNames.map((name) => `${name}:${String(parseService(name).port)}`).sort();
    assert.deepEqual(servers, expected);
    assert.match(conf, new RegExp(`proxy_pass http://${upstream[1]!};`));
    assert.match(conf, /proxy_http_version 1\.1;/);
    assert.match(conf, /proxy_set_header Upgrade \$http_upgrade;/);
    assert.match(conf, /proxy_set_header Connection \$connection_upgrade;/);

    const listen = /^\s*listen (\d+);/m.exec(conf);
    assert.ok(listen, 'a listen directive');
    const published = (lb['ports'] as string[]).map((p) => p.split(':'));
    assert.deepEqual(published, [['127.0.0.1', '3210', listen[1]!]], 'published on loopback only');
    const gateway = parseService(nodeNames[0]!).gatewayUrl;
    assert.equal(gateway, `ws://127.0.0.1:${published[0]![1]!}`, 'bots are told the balancer’s address');
  });

  test('every long-running service restarts unless stopped and has a healthcheck; the nodes check /readyz', () => {
    for (const [name, s] of Object.entries(services)) {
      if (name === 'migrate') {
        assert.equal(s['restart'], 'on-failure', 'migrate runs once, again only if it failed');
        continue;
      }
      assert.equal(s['restart'], 'unless-stopped', `${name} comes back after a crash`);
      const test = ((s['healthcheck'] as Map | undefined)?.['test'] ?? []) as string[];
      assert.equal(test[0], 'CMD', `${name} has an exec-form healthcheck`);
    }
    for (const name of nodeNames) {
      const test = ((service(name)['healthcheck'] as Map)['test'] as string[]).join(' ');
      const port = parseService(name).port!;
      assert.match(test, new RegExp(`^CMD node -e fetch\\('http://127\\.0\\.0\\.1:${port}/readyz'\\)`), name);
    }
    // The balancer sends to nodes once they are ready.
    const lb = service('lb')['depends_on'] as Record<string, Map>;
    for (const name of nodeNames) assert.equal(lb[name]?.['condition'], 'service_healthy');
  });

  test('a node has time to drain on SIGTERM: stop_grace_period past the handling deadline', () => {
    for (const name of nodeNames) {
      const grace = /^(\d+)s$/.exec(service(name)['stop_grace_period'] as string);
      assert.ok(grace, `${name} sets stop_grace_period in seconds`);
      assert.ok(Number(grace[1]) * 1000 > HANDLER_TIMEOUT_MS * 2, `${name}: ${grace[1]} s`);
    }
  });

  test('the nodes give the scraper a metrics token from the operator, and log JSON lines only', () => {
    for (const name of nodeNames) {
      const env = service(name)['environment'] as Map;
      assert.match(env['SLASHD_METRICS_TOKEN'] as string, /^\$\{SLASHD_METRICS_TOKEN:\?/, name);
      const { env: read } = recordingEnv(service(name));
      const args = (service(name)['command'] as string[]).slice(1);
      const parsed = parseServeArgs(args, read);
      assert.equal(parsed.metricsToken, 'operator-SLASHD_METRICS_TOKEN');
      assert.equal(parsed.jsonOutput, true, `${name} runs with --log-format json`);
    }
  });

  test('the settings table of docs/scaling.md names flags and variables that serve has', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'scaling.md'), 'utf8');
    const rows = [...doc.matchAll(/^\s*\| `(--[a-z-]+)[^`]*` \| `(SLASHD_[A-Z_]+)` \|/gm)];
    assert.ok(rows.length >= 8, `the table has its rows (${rows.length})`);
    const { env, read } = recordingEnv({ environment: { SLASHD_ADMIN_TOKEN: 'x' } });
    parseServeArgs([], env);
    for (const [, flag, variable] of rows) {
      assert.ok(USAGE.includes(`[${flag!} `) || USAGE.includes(`[${flag!}]`), `serve takes ${flag!}`);
      assert.ok(read.has(variable!), `serve reads ${variable!}`);
    }
  });
});
