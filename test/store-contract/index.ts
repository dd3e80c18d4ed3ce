/**
 * The one store contract suite. An implementation runs it from its own test file, e.g.
 * `describeStoreContract('PostgreSQL', makePostgresStores)`, and must pass it unchanged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readdirSync } from 'node:fs';
import { freshDatabasePerTest, type MakeStores } from './harness.js';

export type { ContractDatabase, ContractOptions, MakeStores } from './harness.js';

/** One store's part of the suite, as each `*.contract.ts` of this folder exports it (`describe...Contract`). */
type DescribeContract = (name: string, make: MakeStores) => void;

/**
 * Every `*.contract.ts` of this folder, found rather than listed: a new resource's store cases
 * are a new file here and edit nothing else. Each `describe...Contract` export is one store's part.
 */
async function contractsOfThisFolder(): Promise<[string, DescribeContract][]> {
  const files = readdirSync(new URL('.', import.meta.url))
    .filter((file) => file.endsWith('.contract.js'))
    .sort();
  const found: [string, DescribeContract][] = [];
  for (const file of files) {
    const module = (await import(new URL(file, import.meta.url).href)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(module)) {
      if (/^describe\w+Contract$/.test(exported) && typeof value === 'function') {
        found.push([`${file}#${exported}`, value as DescribeContract]);
      }
    }
  }
  if (found.length === 0) throw new Error('no store contract found beside test/store-contract/index');
  return found;
}

const CONTRACTS = await contractsOfThisFolder();

/** The aggregate: answers `ping` while open, rejects it once closed, and closes twice without harm. */
export function describeStoreLifecycleContract(name: string, make: MakeStores): void {
  describe(`${name}: Store`, () => {
    const t = freshDatabasePerTest(make);

    it('pings while open; a closed store fails its ping and closes again quietly', async () => {
      const other = await t.db.connect();
      await other.ping();
      await other.close();
      await assert.rejects(other.ping());
      await other.close();
      await t.stores.ping();
    });
  });
}

export function describeStoreContract(name: string, make: MakeStores): void {
  describeStoreLifecycleContract(name, make);
  for (const [, describeContract] of CONTRACTS) describeContract(name, make);
}
