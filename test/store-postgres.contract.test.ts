/**
 * The PostgreSQL store against the store contract suite: a fresh schema of a random name per test,
 * dropped afterwards, so parallel runs on one database never collide. PostgreSQL must be reachable
 * (PGHOST, PGPORT, PGUSER, PGDATABASE; default 127.0.0.1:5432, user postgres, database test): an
 * unreachable server fails every test with a message saying so, rather than skipping them.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresStore } from '../src/store/postgres/index.js';
import { describeStoreContract, type ContractDatabase, type ContractOptions } from './store-contract/index.js';

const env = process.env;
const host = env['PGHOST'] ?? '127.0.0.1';
const port = env['PGPORT'] ?? '5432';
const user = env['PGUSER'] ?? 'postgres';
const database = env['PGDATABASE'] ?? 'test';
const connectionString = `postgresql://${encodeURIComponent(user)}@${host}:${port}/${encodeURIComponent(database)}`;

async function makePostgresStores({ now }: ContractOptions): Promise<ContractDatabase> {
  const schema = `slashd_contract_${randomBytes(8).toString('hex')}`;
  const open = () => PostgresStore.open({ connectionString, schema, now, max: 4 });
  let first: PostgresStore;
  try {
    first = await open();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${host}:${port} (database ${database}, user ${user}); ` +
        `the PostgreSQL store contract needs it (set PGHOST/PGPORT/PGUSER/PGDATABASE): ${String(error)}`,
      { cause: error },
    );
  }
  const opened = [first];
  return {
    stores: first,
    async connect() {
      const store = await open();
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close();
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

describeStoreContract('PostgreSQL', makePostgresStores);
