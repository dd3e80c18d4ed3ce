/**
 * An in-process keyed mutex: work under one key runs one at a time, in arrival order. Planners of
 * one scope queue here before they take a pooled connection, so a node has at most one connection
 * waiting on a scope's advisory lock; a client hammering one scope cannot make every connection of
 * the pool wait on it while other scopes starve. Bounded: a key's entry goes when its queue empties.
 */
export class ScopeQueue {
  /** Per key, the promise the next arrival waits for (settles when the last queued work is done). */
  private readonly tails = new Map<string, Promise<void>>();

  /** Keys with work queued or running now. */
  get size(): number {
    return this.tails.size;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    if (previous) await previous;
    try {
      return await work();
    } finally {
      // The last in line removes the key: nothing else waits on this tail.
      if (this.tails.get(key) === tail) this.tails.delete(key);
      release();
    }
  }
}
