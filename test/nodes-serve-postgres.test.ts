/**
 * `slashd serve` and `slashd migrate` on PostgreSQL, as real child processes on a schema of their
 * own: the schema is migrated once, the demo world is served, commands written over HTTP are
 * listed back, and an operator's mistakes (no admin token, an unreachable server) are one line.
 * Nodes starting at once with the same start-up world all come up, with one copy of it.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createSlashd, type Slashd } from '../src/app.js';
import { parseWorld } from '../src/core/world/parse.js';
import { DEMO_WORLD } from '../src/world/demo-world.js';
import { CLI, killAll, runToEnd, startChild } from './helpers/cli-process.js';
import { deletePrefix, freshRedisPrefix, redisUrl } from './helpers/redis.js';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';

const schemas: string[] = [];
const prefixes: string[] = [];
function schema(): string {
  const name = freshSchemaName('serve');
  schemas.push(name);
  return name;
}

after(async () => {
  killAll();
  for (const name of schemas) await dropSchema(name);
  for (const prefix of prefixes) await deletePrefix(prefix);
});

const bot = DEMO_WORLD.applications[0];

describe('slashd on PostgreSQL', () => {
  test('migrate applies the schema and says what it applied; running it again changes nothing', async () => {
    const name = schema();
    const args = [CLI, 'migrate', '--db', postgresConnectionString, '--db-schema', name];
    const first = await runToEnd(process.execPath, args);
    assert.equal(first.code, 0, first.stderr);
    const applied = new RegExp(
      `^PostgreSQL schema ${name}: applied migrations 1-(\\d+) \\(schema version 0 to \\1\\)$`,
      'm',
    );
    const latest = applied.exec(first.stdout)?.[1];
    assert.ok(latest, first.stdout);
    const again = await runToEnd(process.execPath, args);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(`^PostgreSQL schema ${name}: schema already at version ${latest}, nothing to apply$`, 'm'),
    );
    const rows = await withAdminClient((client) =>
      client.query(`SELECT count(*)::int AS n FROM "${name}".schema_migrations`),
    );
    assert.ok((rows.rows[0] as { n: number }).n >= 1);
  });

  test('serve --db postgres://... --redis ... serves the demo world; a command written is listed back', async () => {
    const name = schema();
    const prefix = freshRedisPrefix('serve');
    prefixes.push(prefix);
    const child = startChild(
      process.execPath,
      [CLI, 'serve', '--db', postgresConnectionString, '--port', '0', '--demo'],
      {
        SLASHD_DB_SCHEMA: name,
        SLASHD_ADMIN_TOKEN: 'operator-token',
        SLASHD_REDIS_URL: redisUrl,
        SLASHD_REDIS_PREFIX: prefix,
      },
    );
    const [, url] = await child.waitForLine(/slashd listening on (\S+)/);
    await child.waitForLine(new RegExp(`^  database: +PostgreSQL postgresql://\\S+, schema ${name}$`));
    await child.waitForLine(new RegExp(`^  redis: +redis://\\S+, prefix ${prefix} `));
    const commandsUrl = `${url}/api/v10/applications/${bot.id}/commands`;
    const headers = { authorization: `Bot ${bot.bot_token}`, 'content-type': 'application/json' };
    const created = await fetch(commandsUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'ping', description: 'Replies with pong' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const listed = await fetch(commandsUrl, { headers });
    assert.equal(listed.status, 200);
    const commands = (await listed.json()) as { name: string; application_id: string }[];
    assert.deepEqual(
      commands.map((c) => [c.name, c.application_id]),
      [['ping', bot.id]],
    );
    const admin = await fetch(`${url}/admin/world`, { headers: { authorization: 'Bearer operator-token' } });
    assert.equal(admin.status, 200);
    // The rows are in the schema named, not elsewhere.
    const stored = await withAdminClient((client) =>
      client.query(`SELECT name FROM "${name}".commands WHERE name = 'ping'`),
    );
    assert.equal(stored.rowCount, 1);
    assert.equal(await child.stop(), 0);
  });

  test('serve on PostgreSQL without an admin token: a usage error before connecting, exit 2', async () => {
    const result = await runToEnd(process.execPath, [CLI, 'serve', '--db', postgresConnectionString], {
      SLASHD_ADMIN_TOKEN: '',
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /with a PostgreSQL database, give the admin token/);
  });

  test('an unreachable Redis: one line naming it, exit 1', async () => {
    const result = await runToEnd(process.execPath, [
      CLI,
      'serve',
      '--db',
      ':memory:',
      '--port',
      '0',
      '--redis',
      'redis://:secret-word@127.0.0.1:1',
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
    assert.doesNotMatch(result.stderr, /secret-word/);
  });

  test('an unreachable PostgreSQL: one line naming it without its password, exit 1', async () => {
    const result = await runToEnd(process.execPath, [
      CLI,
      'migrate',
      '--db',
      'postgres://someone:secret-word@127.0.0.1:1/nowhere',
    ]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^cannot use the PostgreSQL database at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nowhere/,
    );
    assert.doesNotMatch(result.stderr, /secret-word/);
  });

  test('three nodes starting at once with the demo world: all serve, with one copy of the world', async () => {
    const name = schema();
    const parsed = parseWorld(DEMO_WORLD);
    assert.ok(parsed.ok);
    const demo = parsed.value;
    const nodes: Slashd[] = await Promise.all(
      [0, 1, 2].map(() =>
        createSlashd({ db: postgresConnectionString, dbSchema: name, mergeWorld: demo, adminToken: 't' }),
      ),
    );
    try {
      const ids = new Set(nodes.map((node) => node.ids.nodeId));
      assert.equal(ids.size, 3, 'each node leases its own snowflake node id');
      const world = await nodes[2]!.store.world.exportWorld();
      assert.equal(world.applications.length, DEMO_WORLD.applications.length);
      assert.equal(world.users.length, DEMO_WORLD.users.length);
      assert.equal(world.guilds.length, DEMO_WORLD.guilds.length);
      // The Activity app's Launch entry point, ensured by every node's start-up merge.
      const activityApp = DEMO_WORLD.applications[2];
      const launch = await nodes[0]!.store.commands.listCommands({ applicationId: activityApp.id, guildId: null });
      assert.equal(launch.length, 1, 'one Launch entry point, not one per node');
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
  });
});
