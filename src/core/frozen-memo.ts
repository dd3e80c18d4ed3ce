/**
 * Memoization keyed by object identity, for data that cannot change: the store hands out its
 * cached read results (command lists, permissions objects) deeply frozen, so what is derived from
 * one of them once (an overwrite index, a command's wire JSON) holds for as long as the object
 * lives. Anything not deeply frozen (a test's fixture, a world parsed per request) is recomputed
 * on every call, so a caller that mutates its own objects never sees a stale result.
 */

/**
 * `T` with every property and array read-only, all the way down: the type of what the store
 * hands out from its read caches. The compiler then refuses a mutation of a shared object that
 * `Object.freeze` would only refuse at run time (and, outside strict mode, silently).
 */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<K, Frozen<V>>
    : T extends object
      ? { readonly [P in keyof T]: Frozen<T[P]> }
      : T;

/** Freezes `value` and everything reachable from it, and says so in its type. */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value as Frozen<T>;
}

/**
 * True when `value` and everything reachable from it is frozen. Checked once, when a result is
 * about to be cached: freezing cannot be undone, so the answer stays true for the object's life.
 */
export function isDeeplyFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const child of Object.values(value)) {
    if (!isDeeplyFrozen(child)) return false;
  }
  return true;
}

/**
 * `compute(key)`, cached in `cache` when `key` is deeply frozen. A WeakMap lets the entry go with
 * the key: when the store drops a cached list after a write, its derived data goes too.
 */
export function memoizeFrozen<K extends object, V>(cache: WeakMap<K, V>, key: K, compute: (key: K) => V): V {
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const value = compute(key);
  if (isDeeplyFrozen(key)) cache.set(key, value);
  return value;
}
