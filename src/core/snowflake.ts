/** Snowflakes: 64-bit ids as decimal strings (docs/v10-behaviour.md#conventions). */

/** 2015-01-01T00:00:00Z, the v10 epoch. */
export const SNOWFLAKE_EPOCH_MS = 1420070400000n;

const INCREMENT_MASK = 0xfffn;

/** Distinct node ids: the 5 worker bits and the 5 process bits of a snowflake, taken together. */
export const NODE_ID_COUNT = 1024;

/**
 * Makes ids that grow with time and never repeat within one generator. The clock is passed in so
 * that the generator stays pure; a backwards step of the clock keeps the last timestamp.
 */
export class SnowflakeGenerator {
  private lastMs = 0n;
  private increment = 0n;

  constructor(
    private workerId = 0,
    private processId = 0,
    private readonly now: () => number = Date.now,
  ) {}

  /** A generator for one node id (0..1023): the high 5 bits are the worker, the low 5 the process. */
  static forNode(nodeId: number, now: () => number = Date.now): SnowflakeGenerator {
    return new SnowflakeGenerator(nodeId >> 5, nodeId & 31, now);
  }

  /** The node id (0..1023) this generator writes into its ids. */
  get nodeId(): number {
    return ((this.workerId & 31) << 5) | (this.processId & 31);
  }

  /** Switches to another node id, once a lease on it is held (the old one was lost). */
  moveToNode(nodeId: number): void {
    this.workerId = nodeId >> 5;
    this.processId = nodeId & 31;
  }

  next(): string {
    let ms = BigInt(this.now()) - SNOWFLAKE_EPOCH_MS;
    if (ms < this.lastMs) ms = this.lastMs;
    if (ms === this.lastMs) {
      this.increment = (this.increment + 1n) & INCREMENT_MASK;
      // 4096 ids in one millisecond: borrow the next millisecond rather than repeat an id.
      if (this.increment === 0n) ms += 1n;
    } else {
      this.increment = 0n;
    }
    this.lastMs = ms;
    const id =
      (ms << 22n) | (BigInt(this.workerId & 31) << 17n) | (BigInt(this.processId & 31) << 12n) | this.increment;
    return id.toString();
  }
}

/**
 * The node id to lease: the preferred one when no live lease holds it, else the lowest free one;
 * null when all are held.
 */
export function chooseNodeId(held: ReadonlySet<number>, preferred: number): number | null {
  const first = ((preferred % NODE_ID_COUNT) + NODE_ID_COUNT) % NODE_ID_COUNT;
  if (!held.has(first)) return first;
  for (let id = 0; id < NODE_ID_COUNT; id++) if (!held.has(id)) return id;
  return null;
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 1n << 64n;
}

export function snowflakeTimestampMs(id: string): number {
  return Number((BigInt(id) >> 22n) + SNOWFLAKE_EPOCH_MS);
}

/** The smallest snowflake of an instant (ms since 1970): every id made at or after it is at least this. */
export function snowflakeAt(ms: number): string {
  const sinceEpoch = BigInt(Math.floor(ms)) - SNOWFLAKE_EPOCH_MS;
  return (sinceEpoch > 0n ? sinceEpoch << 22n : 0n).toString();
}
