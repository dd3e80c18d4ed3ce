/**
 * `slashd serve` on a port that is taken, with PostgreSQL and Redis open by then: it closes what it
 * opened (the node lease released, the connections gone) and exits non-zero with one clear line,
 * instead of staying alive holding its connections.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CLI, runToEnd } from './helpers/cli-process.js';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';
import { deletePrefix, freshRedisPrefix, redisUrl } from './helpers/redis.js';

const schema = freshSchemaName('bind');
const prefix = freshRedisPrefix('bind');

describe('serve on a taken port', () => {
  let taken: Server;
  let port: number;

  before(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });

  after(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await dropSchema(schema);
    await deletePrefix(prefix);
  });

  test('with PostgreSQL and Redis: one line, exit 1, nothing left open', async () => {
    const finished = await runToEnd(process.execPath, [CLI, 'serve', '--port', String(port), '--demo'], {
      SLASHD_DB: postgresConnectionString,
      SLASHD_DB_SCHEMA: schema,
      SLASHD_ADMIN_TOKEN: 'bind-admin-token',
      SLASHD_REDIS_URL: redisUrl,
      SLASHD_REDIS_PREFIX: prefix,
      SLASHD_LOG_LEVEL: 'warn',
    });
    assert.equal(finished.code, 1, finished.stderr);
    // Nothing was served: no banner. A loaded machine may log a Redis state change (a JSON line), nothing else
    // but the migrations the start applied to the new schema, each named.
    const printed = finished.stdout
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith(`PostgreSQL schema ${schema}: applied migration`));
    assert.ok(
      printed.every((line) => (JSON.parse(line) as { dependency?: string }).dependency === 'redis'),
      finished.stdout,
    );
    assert.equal(finished.stderr, `cannot listen on 127.0.0.1:${port}: the address is already in use (EADDRINUSE)\n`);
    // The node had leased its snowflake id in PostgreSQL: it gave it back before exiting.
    const leases = await withAdminClient((client) =>
      client.query(`SELECT count(*)::int AS n FROM "${schema}".node_leases WHERE holder <> ''`),
    );
    assert.equal((leases.rows[0] as { n: number }).n, 0);
  });
});
