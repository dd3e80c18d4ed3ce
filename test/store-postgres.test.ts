/**
 * What only the PostgreSQL store promises (the shared promises are in test/store-contract/): its
 * migrations, applied once even by stores opening at the same moment, and the bounds and schema
 * every pooled connection gets.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresConnection } from '../src/store/postgres/connection.js';
import { MIGRATIONS, PostgresStore } from '../src/store/postgres/index.js';
import {
  dropSchema,
  freshSchemaName,
  postgresConnectionString,
  unreachable,
  withAdminClient,
} from './helpers/postgres.js';

describe('the PostgreSQL store schema', () => {
  const schema = freshSchemaName('slashd_store');
  const open = () =>
    PostgresStore.open({
      connectionString: postgresConnectionString,
      schema,
      max: 2,
      statementTimeoutMs: 7_000,
      idleInTransactionTimeoutMs: 3_000,
    });

  before(async () => {
    await withAdminClient(async () => {}).catch((error: unknown) => {
      throw unreachable(error);
    });
  });
  after(() => dropSchema(schema));

  it('applies every migration once, even when several stores open the new schema at once', async () => {
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      Array.from({ length: MIGRATIONS.length }, (_, i) => i + 1),
      'versions are 1..n',
    );
    const stores = await Promise.all([open(), open(), open()]);
    try {
      for (const store of stores) assert.equal(await store.schemaVersion(), MIGRATIONS.length);
    } finally {
      for (const store of stores) await store.close();
    }
    const reopened = await open();
    await reopened.close();
    const rows = await withAdminClient(
      async (client) =>
        (await client.query(`SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`)).rows,
    );
    assert.deepEqual(
      rows,
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
    );
  });

  it('gives every pooled connection its schema and its timeouts', async () => {
    const conn = new PostgresConnection(
      {
        connectionString: postgresConnectionString,
        schema,
        max: 2,
        statementTimeoutMs: 7_000,
        idleInTransactionTimeoutMs: 3_000,
      },
      Date.now,
    );
    try {
      // Two transactions at once on a pool of two: whichever connections serve them, each has the settings.
      const settings = await Promise.all(
        [0, 1].map(() =>
          conn.transaction(async (client) =>
            (
              await client.query<{ search_path: string; statement: string; idle: string }>(
                `SELECT current_setting('search_path') AS search_path,
                   current_setting('statement_timeout') AS statement,
                   current_setting('idle_in_transaction_session_timeout') AS idle, pg_sleep(0)`,
              )
            ).rows.map(({ search_path, statement, idle }) => ({ search_path, statement, idle })),
          ),
        ),
      );
      assert.deepEqual(settings.flat(), Array(2).fill({ search_path: schema, statement: '7s', idle: '3s' }));
      assert.equal(conn.pool.options.max, 2);
    } finally {
      await conn.pool.end();
    }
  });

  it('refuses a schema name it would have to quote', async () => {
    await assert.rejects(
      PostgresStore.open({ connectionString: postgresConnectionString, schema: 'x"; DROP TABLE users; --' }),
      /invalid PostgreSQL schema name/,
    );
  });
});
