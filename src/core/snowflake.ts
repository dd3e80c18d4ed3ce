/** Snowflakes: 64-bit ids as decimal strings (facts, section 1). */

/** 2015-01-01T00:00:00Z, the v10 epoch. */
export const SNOWFLAKE_EPOCH_MS = 1420070400000n;

const INCREMENT_MASK = 0xfffn;

/**
 * Makes ids that grow with time and never repeat within one generator. The clock is passed in so
 * that the generator stays pure; a backwards step of the clock keeps the last timestamp.
 */
export class SnowflakeGenerator {
  private lastMs = 0n;
  private increment = 0n;

  constructor(
    private readonly workerId = 0,
    private readonly processId = 0,
    private readonly now: () => number = Date.now,
  ) {}

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
      (ms << 22n) |
      (BigInt(this.workerId & 31) << 17n) |
      (BigInt(this.processId & 31) << 12n) |
      this.increment;
    return id.toString();
  }
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 1n << 64n;
}

export function snowflakeTimestampMs(id: string): number {
  return Number((BigInt(id) >> 22n) + SNOWFLAKE_EPOCH_MS);
}
