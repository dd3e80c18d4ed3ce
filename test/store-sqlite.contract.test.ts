/** The SQLite store against the store contract suite: a real file in a fresh temporary directory per test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { describeStoreContract, type ContractDatabase, type ContractOptions } from './store-contract/index.js';

async function makeSqliteStores({ now }: ContractOptions): Promise<ContractDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-contract-'));
  const path = join(dir, 'db.sqlite');
  // No staleness window: a plain read notices another connection's commit at once.
  const open = () => new SqliteStore({ path, now, readStalenessMs: 0 });
  const opened = [open()];
  return {
    stores: opened[0]!,
    async connect() {
      const store = open();
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeStoreContract('SQLite', makeSqliteStores);
