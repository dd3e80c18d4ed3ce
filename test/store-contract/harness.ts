/**
 * What the store contract suite needs from an implementation: a way to open its stores on a
 * fresh, empty database. The suite never names SQLite or PostgreSQL; it only calls the interfaces
 * of src/store/store.ts, so a new implementation runs it unchanged (see docs/architecture.md).
 */
import { afterEach, beforeEach } from 'node:test';
import type { Store } from '../../src/store/store.js';

export interface ContractOptions {
  /** The clock every store on the database reads (lease expiry, token expiry, the daily create count). */
  now: () => number;
}

export interface ContractDatabase {
  /** A store on a fresh, empty database. */
  stores: Store;
  /**
   * Another store on the same database, as a second process would open it. A commit on one is
   * visible to plain reads on the other as soon as it returns (an implementation with read caches
   * opens these with no staleness window).
   */
  connect(): Promise<Store>;
  /** Closes every store opened here and removes the database. */
  cleanup(): Promise<void>;
}

/** Opens a fresh database for one test. */
export type MakeStores = (options: ContractOptions) => Promise<ContractDatabase>;

/** An instant well inside a UTC day, so a test can move an hour either way without crossing midnight. */
export const START_MS = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface ContractContext {
  /** The fresh database of the current test. */
  readonly db: ContractDatabase;
  readonly stores: Store;
  /** The injected clock, reset to START_MS before each test. */
  now: number;
}

/** A fresh database and clock before each test of the enclosing describe, cleaned up after it. */
export function freshDatabasePerTest(make: MakeStores): ContractContext {
  let db: ContractDatabase | null = null;
  const context = {
    now: START_MS,
    get db(): ContractDatabase {
      if (!db) throw new Error('no database outside a test');
      return db;
    },
    get stores(): Store {
      return context.db.stores;
    },
  };
  beforeEach(async () => {
    context.now = START_MS;
    db = await make({ now: () => context.now });
  });
  afterEach(async () => {
    await db?.cleanup();
    db = null;
  });
  return context;
}
