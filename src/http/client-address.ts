/**
 * A client's address outside Fastify's requests (the gateway's upgrades): the socket's, or behind
 * the proxies `--trust-proxy` names, the one their X-Forwarded-For gives, by the same rule as
 * `request.ip` (src/http/server.ts).
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from './server.js';

/** The address a request comes from, as the failed-credential throttle and the socket caps count it. */
export type ClientAddress = (request: IncomingMessage) => string;

export function clientAddressOf(trust: TrustProxy | undefined): ClientAddress {
  if (trust === undefined) return (request) => request.socket.remoteAddress ?? '';
  const trusted =
    typeof trust === 'number'
      ? (_address: string, hop: number) => hop < trust
      : proxyAddr.compile(trust.split(',').map((entry) => entry.trim()));
  return (request) => proxyAddr(request, trusted);
}
