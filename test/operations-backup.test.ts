/**
 * The backup runbook of docs/operations.md, run as written: `pg_dump` of the schema while a node
 * serves, then the restore (the nodes stopped, the schema moved aside, `pg_restore`, the nodes
 * started again): what was written before the backup is served, what came after is gone, and the
 * restored schema takes writes (its sequences and triggers came back with it).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, killAll, startChild, type RunningChild } from './helpers/cli-process.js';
import { requestAt } from './helpers/nodes.js';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';
import { ADMIN_TOKEN, BOT, GLOBAL_BASE } from './helpers/world.js';

const schema = freshSchemaName('slashd_backup');
const dir = mkdtempSync(join(tmpdir(), 'slashd-backup-'));

after(async () => {
  killAll();
  await dropSchema(schema);
  await dropSchema(`${schema}_before_restore`);
  rmSync(dir, { recursive: true, force: true });
});

async function serve(): Promise<{ child: RunningChild; url: string }> {
  const child = startChild(process.execPath, [
    CLI,
    'serve',
    '--port',
    '0',
    '--db',
    postgresConnectionString,
    '--db-schema',
    schema,
    '--admin-token',
    ADMIN_TOKEN,
    '--demo',
  ]);
  const url = (await child.waitForLine(/^slashd listening on (http:\/\/\S+)$/))[1]!;
  return { child, url };
}

/** Runs a PostgreSQL client tool to its end; fails with its output. */
function run(tool: string, args: string[]): void {
  const result = spawnSync(tool, args, { encoding: 'utf8' });
  assert.equal(result.status, 0, `${tool} ${args.join(' ')}: ${result.error?.message ?? ''}${result.stderr}`);
}

async function names(url: string): Promise<string[]> {
  const listed = await requestAt(url, 'GET', GLOBAL_BASE, { auth: BOT });
  assert.equal(listed.status, 200, listed.text);
  return (listed.body as { name: string }[]).map((command) => command.name).sort();
}

async function create(url: string, name: string): Promise<void> {
  const created = await requestAt(url, 'POST', GLOBAL_BASE, { auth: BOT, body: { name, description: name } });
  assert.equal(created.status, 201, created.text);
}

describe('backup and restore of a PostgreSQL deployment (docs/operations.md)', () => {
  test('pg_dump of the schema while serving; restored with pg_restore, it serves what the backup held', async () => {
    const dump = join(dir, 'slashd.dump');
    let node = await serve();
    await create(node.url, 'before');
    run('pg_dump', ['--dbname', postgresConnectionString, '--schema', schema, '--format', 'custom', '--file', dump]);
    await create(node.url, 'after');
    assert.deepEqual(await names(node.url), ['after', 'before']);

    // The restore: every node stopped, the schema moved aside (kept until the restore is checked).
    assert.equal(await node.child.stop(), 0);
    await withAdminClient((client) => client.query(`ALTER SCHEMA "${schema}" RENAME TO "${schema}_before_restore"`));
    run('pg_restore', ['--dbname', postgresConnectionString, '--exit-on-error', dump]);
    node = await serve();
    assert.deepEqual(await names(node.url), ['before']);
    await create(node.url, 'restored');
    assert.deepEqual(await names(node.url), ['before', 'restored']);
    assert.equal(await node.child.stop(), 0);
  });
});
