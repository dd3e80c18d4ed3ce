/**
 * This process's frozen copies of lists read from PostgreSQL, each with the version its scope had
 * when it was read (see migration 3: every write to a scope moves its version, in the writing
 * transaction). A read asks for the version and the rows in one statement, and the rows only when
 * the version differs from the one held, so a hit costs one short query and hands back the same
 * frozen object (whose serialization is memoized by identity) while any node's committed write is
 * seen by the next read on every node. Bounded by bytes (a list can be megabytes), least recently
 * used out first.
 */
import { ByteLru } from '../../core/byte-lru.js';

/** Sent as the version held when nothing is held: versions start at 0 ("never written"), so it matches none. */
export const NO_VERSION = '-1';

/** The lists' byte budget when the config names none: 96 MiB, as the SQLite store's read caches. */
export const DEFAULT_LIST_CACHE_BYTES = 96 * 1024 * 1024;

export interface Held<T> {
  version: string;
  value: T;
}

export class VersionedLists<T> {
  private readonly entries: ByteLru<Held<T>>;
  private lookups = 0;
  private reads = 0;

  /** `capBytes`: the most bytes the held lists may add up to (see `approximateBytes`). */
  constructor(capBytes: number) {
    this.entries = new ByteLru<Held<T>>(capBytes);
  }

  /** What is held for `key` (then the most recently used): its version goes with the read. */
  lookup(key: string): Held<T> | undefined {
    this.lookups++;
    return this.entries.get(key);
  }

  /**
   * Holds `value`, read at `version` and taking about `bytes`, for `key`; the least recently used
   * lists go until the total fits (a list larger than the whole budget is not held).
   */
  remember(key: string, version: string, value: T, bytes: number): T {
    this.reads++;
    this.entries.set(key, { version, value }, bytes);
    return value;
  }

  /**
   * Lookups answered by the list held (`hits`), and those that read the rows (`misses`): each
   * lookup is followed by a `remember` exactly when the list held was missing or stale. And the
   * lists dropped to make room (`evictions`).
   */
  counts(): { hits: number; misses: number; evictions: number } {
    return { hits: Math.max(0, this.lookups - this.reads), misses: this.reads, evictions: this.entries.evictions };
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes of the lists held now (never more than the budget). */
  get bytes(): number {
    return this.entries.bytes;
  }
}
