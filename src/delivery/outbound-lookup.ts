/**
 * The connect-time half of the outbound policy: a `lookup` for the HTTP agents that resolves a
 * name, keeps only the addresses the policy allows, and hands the socket those. The check happens
 * on every new connection, so a name re-pointed after verification (DNS rebinding) cannot reach a
 * refused address; IP literal hosts skip `lookup`, so they are checked before each request.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressAllowed, checkEndpointUrl, POLICY_REFUSAL, type OutboundPolicy } from '../core/outbound-policy.js';

/** Resolves a name to all its addresses, as `dns.lookup` with `all: true` does. */
export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/** The policy said no: to this address, or to a URL with credentials in it. */
export class EndpointPolicyError extends Error {
  readonly code = 'ESLASHD_ENDPOINT_POLICY';

  constructor(message = POLICY_REFUSAL) {
    super(message);
  }
}

export function isPolicyRefusal(error: unknown): error is EndpointPolicyError {
  return error instanceof EndpointPolicyError;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function guardedLookup(policy: OutboundPolicy, resolve: Resolver = systemResolver): LookupFunction {
  const lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const allowed = addresses.filter((a) => addressAllowed(policy, a.address));
      if (allowed.length === 0) return callback(new EndpointPolicyError(), '');
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
  return lookup;
}

/** Before a request: the URL's own form (credentials, an IP literal host) against the policy. */
export function assertUrlAllowed(policy: OutboundPolicy, url: string): void {
  const refusal = checkEndpointUrl(policy, new URL(url));
  if (refusal === 'userinfo') throw new EndpointPolicyError('credentials in the URL are not allowed');
  if (refusal === 'address') throw new EndpointPolicyError();
}
