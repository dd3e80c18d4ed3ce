/** `--trust-proxy`: which load balancers' X-Forwarded-For gives a client's address (docs/scaling.md). */
import { isIP } from 'node:net';
import type { TrustProxy } from '../http/server.js';
import { UsageError } from './usage.js';

/** The most proxy hops believed: far more than any real chain, so a typo is caught. */
const MAX_HOPS = 16;
/** Names Fastify (proxy-addr) knows for address ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * `off` (or nothing): no proxy is believed and a client's address is the connection's; a number
 * N: the last N hops of X-Forwarded-For are proxies; else a comma-separated list of addresses,
 * CIDRs or range names whose connections are proxies.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | undefined {
  if (raw === undefined || raw === 'off') return undefined;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= MAX_HOPS) return hops;
  } else {
    const entries = raw.split(',').map((entry) => entry.trim());
    if (entries.every(isAddressOrRange)) return entries.join(',');
  }
  throw new UsageError(
    `--trust-proxy is off, a hop count (1 to ${MAX_HOPS}) or a comma-separated list of addresses and CIDRs, not '${raw}'`,
  );
}
