/**
 * A least-recently-used cache bounded by bytes: each entry is stored with its (approximate) size,
 * and the oldest entries are dropped until the total fits the cap again. Recency is kept the
 * CLOCK way: a hit only marks its entry, and an entry marked since it was stored or last spared
 * is spared once more (moved to the newest end) when eviction reaches it, so a hit costs one
 * map lookup, not a reordering of the map. Entries may carry tags,
 * so that a write can drop exactly the entries derived from what it changed (`deleteTagged`),
 * never the whole cache. Pure: the caller measures sizes (see `approximateBytes`).
 */
import { isDeeplyFrozen } from './frozen-memo.js';

/** What a cached value costs beyond its JSON text: the Map entry, its key, the object headers. */
export const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Bytes of heap per character of the JSON a value was parsed from: strings are UTF-16 in V8 (two
 * bytes a character, more for small ones), objects and arrays add headers and hidden classes,
 * and what is memoized on a frozen value (wire JSON, permission indexes) lives as long as it does.
 */
export const HEAP_BYTES_PER_JSON_CHAR = 4;

/** The approximate heap a value parsed from `jsonLength` characters of JSON takes. */
export function approximateBytes(jsonLength: number): number {
  return ENTRY_OVERHEAD_BYTES + jsonLength * HEAP_BYTES_PER_JSON_CHAR;
}

/**
 * Lookups of one cache so far: answered from it (`hits`), or not (`misses`); and, for a cache that
 * drops entries to stay under its bytes, the entries it dropped to make room (`evictions`). What
 * /metrics reads of each cache.
 */
export interface CacheCounts {
  cache: string;
  hits: number;
  misses: number;
  evictions?: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  tags: readonly string[];
  /** Read since it was stored or last spared by eviction. */
  used: boolean;
}

export class ByteLru<V> {
  /** Oldest first (a Map keeps insertion order); eviction spares the marked ones once. */
  private readonly entries = new Map<string, Entry<V>>();
  /**
   * The clock's hand: one iterator kept across evictions, at the oldest entry. A fresh
   * `entries()` each time would walk again over every slot the evictions before it emptied (a
   * Map keeps them until it is rehashed), which made each eviction cost as much as a scan.
   */
  private hand: IterableIterator<[string, Entry<V>]> | null = null;
  private readonly byTag = new Map<string, Set<string>>();
  private total = 0;
  /** Lookups (`get`) that found their key, and those that did not: the cache's hit ratio on /metrics. */
  hits = 0;
  misses = 0;
  /**
   * Entries dropped to make room for others (not by a write's `delete`/`deleteTagged`): a count
   * that keeps rising says the working set does not fit the cap.
   */
  evictions = 0;

  /** `capBytes`: the most bytes the entries may add up to; 0 caches nothing. */
  constructor(readonly capBytes: number) {
    if (!Number.isFinite(capBytes) || capBytes < 0) throw new RangeError(`invalid cache size: ${capBytes}`);
  }

  /** The bytes of the entries held now (never more than the cap). */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value, marked as used (eviction spares it once). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    entry.used = true;
    return entry.value;
  }

  /**
   * Stores `value` as the newest, dropping the least recently used entries until the total fits.
   * A value larger than the whole cap is not kept (nor is an older value of the key).
   */
  set(key: string, value: V, bytes: number, tags: readonly string[] = []): void {
    this.delete(key);
    if (bytes > this.capBytes) return;
    this.entries.set(key, { value, bytes, tags, used: false });
    this.total += bytes;
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    this.evict(key);
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    this.total -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
    return true;
  }

  /** Drops every entry stored with `tag`; the others stay. */
  deleteTagged(tag: string): void {
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.byTag.clear();
    this.total = 0;
    this.hand = null;
  }

  /**
   * The entry at the hand, the hand moved past it. A Map's iterator follows deletions and
   * insertions made after it was taken; once it has passed the newest entry it is done for good,
   * and a new one starts from the oldest again.
   */
  private oldest(): [string, Entry<V>] | null {
    for (let fresh = false; ; fresh = true) {
      this.hand ??= this.entries.entries();
      const next = this.hand.next();
      if (!next.done) return next.value;
      this.hand = null;
      if (fresh) return null;
    }
  }

  /** Drops entries until the total fits, never `kept` (the one just stored, which fits on its own). */
  private evict(kept: string): void {
    while (this.total > this.capBytes) {
      const oldest = this.oldest();
      if (!oldest) return;
      const [key, entry] = oldest;
      if (entry.used || key === kept) {
        // Spared: to the newest end, unmarked. A pass unmarks every entry, so the next one evicts.
        entry.used = false;
        this.entries.delete(key);
        this.entries.set(key, entry);
        continue;
      }
      this.delete(key);
      this.evictions++;
    }
  }
}

/**
 * Values derived from a frozen object in one of several views (a command list's JSON per locale),
 * bounded by bytes across all objects and views: unlike a WeakMap of Maps, which keeps every view
 * of a live object, the least recently used renderings go once the cap is reached. The object is
 * held weakly (an id stands for it in the LRU key); an object that is not deeply frozen may still
 * change, so its values are computed anew every time.
 */
export class FrozenViewMemo<K extends object, V> {
  private readonly ids = new WeakMap<K, number>();
  private nextId = 0;
  private readonly lru: ByteLru<V>;

  constructor(
    capBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {
    this.lru = new ByteLru<V>(capBytes);
  }

  get bytes(): number {
    return this.lru.bytes;
  }

  get(key: K, view: string, compute: () => V): V {
    let id = this.ids.get(key);
    if (id === undefined) {
      // Checked once per object: freezing cannot be undone, so a deeply frozen object stays so.
      if (!isDeeplyFrozen(key)) return compute();
      this.ids.set(key, (id = this.nextId++));
    }
    const lruKey = `${id}/${view}`;
    let value = this.lru.get(lruKey);
    if (value === undefined) {
      value = compute();
      this.lru.set(lruKey, value, ENTRY_OVERHEAD_BYTES + this.sizeOf(value));
    }
    return value;
  }
}
