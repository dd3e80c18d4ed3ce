/**
 * Failed credentials, counted per source address (docs/security.md#failed-credentials): a wrong
 * bot, user, Bearer, admin or metrics token, a wrong OAuth2 client secret, a wrong token on the
 * sign-in form. Once an address has failed `limit` times in a window, every credential it
 * presents is refused (429) until the window ends, a valid one too: otherwise a refusal would tell
 * a guess from the right token. Successful requests are never counted, and another address's
 * failures never refuse a credential. Pure: the counting is a `FailureCounters` (in memory on one
 * node, in Redis with many).
 */
import { isIPv4, isIPv6 } from 'node:net';
import { MIN_RETRY_AFTER_MS } from './limits.js';
import type { WindowCount } from './window.js';
import type { WindowLimit } from './presets.js';

/** Failed credentials an address may present in a window before every credential from it is refused. */
export const FAILED_CREDENTIALS_LIMIT = 20;
/** The window of `FAILED_CREDENTIALS_LIMIT`: it starts at an address's first failure (one minute). */
export const FAILED_CREDENTIALS_WINDOW_MS = 60_000;

/** The default throttle: 20 failures a minute per address, about 29,000 guesses a day at most. */
export const DEFAULT_FAILED_CREDENTIALS: WindowLimit = {
  limit: FAILED_CREDENTIALS_LIMIT,
  windowMs: FAILED_CREDENTIALS_WINDOW_MS,
};

/** Counts failures per key; every node sharing one store shares the counts. */
export interface FailureCounters {
  /** Counts one failure of `key` in a window of `windowMs` that starts at its first failure. */
  fail(now: number, key: string, windowMs: number): WindowCount | Promise<WindowCount>;
  /** The failures of `key` in its live window, or null when it has none. */
  failures(now: number, key: string): WindowCount | null | Promise<WindowCount | null>;
}

/** How long a throttled address waits, and until when. */
export interface Throttled {
  readonly retryAfterMs: number;
  readonly resetAt: number;
}

/** A v6 address's first 64 bits: one host holds a whole /64, so the /64 is what is counted. */
const IPV6_PREFIX_GROUPS = 4;

/** The groups of an IPv6 address (`::` expanded), or null for an embedded IPv4 tail. */
function ipv6Groups(address: string): string[] | null {
  const [head = '', tail] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  if ([...headGroups, ...tailGroups].some((group) => group.includes('.'))) return null;
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
}

/**
 * The key an address's failures are counted under: an IPv4 address as it is (an IPv4-mapped v6
 * address as its IPv4), an IPv6 address as its /64, so that one host cannot spread its guesses
 * over the 2^64 addresses it is given.
 */
export function failureKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return `ip:${mapped[1]}`;
  if (isIPv4(address)) return `ip:${address}`;
  if (!isIPv6(address)) return `ip:${address.slice(0, 64)}`;
  const groups = ipv6Groups(address.toLowerCase().split('%')[0] ?? '');
  if (groups === null) return `ip:${address.toLowerCase()}`;
  const prefix = groups.slice(0, IPV6_PREFIX_GROUPS).map((group) => group.replace(/^0+(?=.)/, ''));
  return `ip6:${prefix.join(':')}::/64`;
}

/** Whether `count` (the failures so far) leaves the address throttled at `now`; null when not. */
export function throttledBy(count: WindowCount | null, limit: number, now: number): Throttled | null {
  if (count === null || count.resetAt <= now || count.count < limit) return null;
  return { retryAfterMs: Math.max(MIN_RETRY_AFTER_MS, count.resetAt - now), resetAt: count.resetAt };
}

/**
 * After a failure was counted (`count` includes it): the failure is answered as usual (401) while
 * it is within the limit, and refused like any later credential once over it.
 */
export function failureOverLimit(count: WindowCount, limit: number, now: number): Throttled | null {
  if (count.count <= limit) return null;
  return { retryAfterMs: Math.max(MIN_RETRY_AFTER_MS, count.resetAt - now), resetAt: count.resetAt };
}
