/**
 * Bounds on gateway sockets that have not identified or resumed yet: such a socket holds a slot of
 * the node without any token, so it is given a short deadline and each client address a small
 * share (docs/security.md, "Bounds").
 */
import { parseV6 } from '../outbound-policy.js';

/**
 * A socket that has not started a session (IDENTIFY or RESUME) this long after HELLO is closed
 * with 4003, heartbeats or not. A sharded bot identifies one shard every 5 s (v10's identify
 * throttle at `max_concurrency` 1) while all its sockets are open: 20 s lets four wait their turn.
 */
export const IDENTIFY_TIMEOUT_MS = 20_000;

/**
 * Sockets not yet identified that one client address (an IPv6 /64) may hold at once; one more is
 * refused with HTTP 429 at the upgrade. Far above the shards one bot opens at once.
 */
export const UNIDENTIFIED_PER_ADDRESS = 100;

/** Sockets not yet identified that one node holds at once, all addresses together; more get HTTP 503. */
export const UNIDENTIFIED_TOTAL = 10_000;

/** The 16-bit groups of an IPv6 address that name one client: a /64 is what one host or site is usually given. */
const IPV6_CLIENT_PREFIX_GROUPS = 4;

/**
 * The client an address is counted as: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an
 * IPv6 address by its /64, anything else (a Unix socket, an unknown address) as itself.
 */
export function addressGroup(address: string): string {
  const groups = address.includes(':') ? parseV6(address) : null;
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff];
    return v4.join('.');
  }
  return `${groups
    .slice(0, IPV6_CLIENT_PREFIX_GROUPS)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
