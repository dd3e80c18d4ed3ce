/**
 * The PostgreSQL store against the store contract suite: a fresh schema of a random name per test,
 * dropped afterwards, so parallel runs on one database never collide. An unreachable server fails
 * every test with a message saying so, rather than skipping them.
 */
import { PostgresStore } from '../src/store/postgres/index.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable } from './helpers/postgres.js';
import { describeStoreContract, type ContractDatabase, type ContractOptions } from './store-contract/index.js';

async function makePostgresStores({ now }: ContractOptions): Promise<ContractDatabase> {
  const schema = freshSchemaName('slashd_contract');
  const open = () => PostgresStore.open({ connectionString: postgresConnectionString, schema, now, max: 4 });
  const first = await open().catch((error: unknown) => {
    throw unreachable(error);
  });
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
      await dropSchema(schema);
    },
  };
}

describeStoreContract('PostgreSQL', makePostgresStores);
