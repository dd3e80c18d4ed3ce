/**
 * A client's address from a raw request: for the gateway's WebSocket upgrade, which Fastify never
 * sees. The rule is the one Fastify applies to `request.ip` under `trustProxy` (proxy-addr's):
 * walk from the connection's address back through X-Forwarded-For while each hop is a trusted
 * proxy; the first hop that is not (or the last one given) is the client. Without `--trust-proxy`
 * the connection's address, whatever the header says.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { TrustProxy } from './server.js';

/** The address a request comes from, as the failed-credential throttle counts it. */
export type ClientAddress = (request: Pick<IncomingMessage, 'headers' | 'socket'>) => string;

/** The ranges proxy-addr knows by name. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** A BlockList of the trusted addresses and CIDRs (`--trust-proxy 10.0.0.5,10.1.0.0/16,loopback`). */
function trustedList(entries: string): BlockList {
  const list = new BlockList();
  for (const entry of entries.split(',').flatMap((e) => NAMED_RANGES[e.trim()] ?? [e.trim()])) {
    const [address = '', bits] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  if (isIPv4(address)) return list.check(address, 'ipv4');
  return isIPv6(address) && list.check(address, 'ipv6');
}

/** How the client's address is found under `trust` (undefined: the connection's). */
export function clientAddressOf(trust: TrustProxy | undefined): ClientAddress {
  if (trust === undefined) return (request) => request.socket.remoteAddress ?? '';
  const trusted: (address: string, hop: number) => boolean =
    typeof trust === 'number'
      ? (_address, hop) => hop < trust
      : (
          (list) => (address: string) =>
            isTrusted(list, address)
        )(trustedList(trust));
  return (request) => {
    const header = request.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '')
      .reverse();
    const hops = [request.socket.remoteAddress ?? '', ...forwarded];
    let hop = 0;
    while (hop < hops.length - 1 && trusted(hops[hop]!, hop)) hop++;
    return hops[hop]!;
  };
}
