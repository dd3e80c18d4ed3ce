/**
 * Waiting for events in end-to-end tests without sleeping: every event is kept in an inbox, and a
 * test waits for the first one that matches. The guard only turns a missing event into a failure
 * (with what was received instead); a test never passes because time went by.
 */

/** How long a test waits for an event before failing: generous, as a failure guard only. */
export const EVENT_GUARD_MS = 20_000;

interface Waiter<T> {
  match: (item: T) => boolean;
  resolve: (item: T) => void;
}

export class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters = new Set<Waiter<T>>();

  constructor(private readonly describe: (item: T) => string = (item) => JSON.stringify(item)) {}

  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.waiters]) {
      if (!waiter.match(item)) continue;
      this.waiters.delete(waiter);
      waiter.resolve(item);
    }
  }

  all(): readonly T[] {
    return this.items;
  }

  /** The first item (already received or still to come) that `match` accepts. */
  find(match: (item: T) => boolean, what: string, guardMs = EVENT_GUARD_MS): Promise<T> {
    const found = this.items.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return this.next(match, what, guardMs);
  }

  /** The first item still to come that `match` accepts. */
  private next(match: (item: T) => boolean, what: string, guardMs = EVENT_GUARD_MS): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        match,
        resolve: (item) => {
          clearTimeout(guard);
          resolve(item);
        },
      };
      const guard = setTimeout(() => {
        this.waiters.delete(waiter);
        const seen = this.items.slice(-10).map(this.describe).join('\n  ');
        reject(new Error(`no ${what} within ${guardMs} ms; the last received:\n  ${seen || '(nothing)'}`));
      }, guardMs);
      this.waiters.add(waiter);
    });
  }

  /** The `count` first items that `match` accepts. */
  async findMany(count: number, match: (item: T) => boolean, what: string): Promise<T[]> {
    for (;;) {
      const matching = this.items.filter(match);
      if (matching.length >= count) return matching.slice(0, count);
      // The next one to come: items equal to one received (the same channel id twice) count apart.
      await this.next(match, `${what} (${matching.length}/${count} so far)`);
    }
  }
}
