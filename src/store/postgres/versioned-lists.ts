/**
 * This process's frozen copies of lists read from PostgreSQL, each with the version its scope had
 * when it was read (see migration 3: every write to a scope moves its version, in the writing
 * transaction). A read asks for the version and the rows in one statement, and the rows only when
 * the version differs from the one held, so a hit costs one short query and hands back the same
 * frozen object (whose serialization is memoized by identity) while any node's committed write is
 * seen by the next read on every node. Bounded by entry count, least recently used out first.
 */

/** Sent as the version held when nothing is held: versions start at 0 ("never written"), so it matches none. */
export const NO_VERSION = '-1';

export interface Held<T> {
  version: string;
  value: T;
}

export class VersionedLists<T> {
  private readonly entries = new Map<string, Held<T>>();

  constructor(private readonly maxEntries: number) {}

  /** What is held for `key` (then the most recently used): its version goes with the read. */
  lookup(key: string): Held<T> | undefined {
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      this.entries.set(key, held);
    }
    return held;
  }

  /** Holds `value`, read at `version`, for `key`; the least recently used entry goes if there are too many. */
  remember(key: string, version: string, value: T): T {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
