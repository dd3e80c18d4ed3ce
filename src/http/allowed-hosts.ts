/**
 * Which Host headers slashd answers (docs/security.md#host-names). A web page the developer visits
 * can point a name of its own at 127.0.0.1 (DNS rebinding) and read slashd's answers as if they
 * were its own origin's; the one thing it cannot change is the Host its browser sends, which is
 * the page's name. So slashd answers only to the names it is reachable as: an IP address (a
 * rebinding needs a name), `localhost` and names under it (browsers resolve those themselves),
 * the hosts of `--public-url` and `--gateway-url`, and the names of `--allowed-hosts`. Anything
 * else is refused with 421 before any route runs, the WebSocket upgrade included.
 */
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../core/io/errors.js';

/** `--allowed-hosts` entries: a host name, `.example.com` (it and every name under it), or `*` (any Host). */
export type AllowedHostEntry = string;

/** A Host header: a name or IPv4 address, or a bracketed IPv6 address, then an optional port. */
const HOST_HEADER = /^(?:([A-Za-z0-9_.-]+)|\[([0-9A-Fa-f:.]+)\])(?::(\d{1,5}))?$/;
/** A host name as `--allowed-hosts` takes it (after an optional leading dot). */
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** The host of a Host header, lower case, without its port or a final dot; null when it is not one. */
export function hostOf(header: string): string | null {
  const match = HOST_HEADER.exec(header);
  if (!match) return null;
  if (match[2] !== undefined) return isIP(match[2]) === 6 ? match[2].toLowerCase() : null;
  const name = (match[1] ?? '').toLowerCase().replace(/\.$/, '');
  return name === '' ? null : name;
}

/** Whether an `--allowed-hosts` entry is well formed (checked once, at start-up). */
export function isAllowedHostEntry(entry: string): boolean {
  if (entry === '*') return true;
  const name = entry.startsWith('.') ? entry.slice(1) : entry;
  return HOST_NAME.test(name.toLowerCase()) || isIP(name) !== 0;
}

/** The host of an absolute URL (`--public-url`, `--gateway-url`), as a Host header would carry it. */
function hostOfUrl(url: string): string | null {
  try {
    return hostOf(new URL(url).hostname);
  } catch {
    return null;
  }
}

export class HostPolicy {
  private readonly any: boolean;
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];

  /** `entries` from `--allowed-hosts`; `urls` the server's configured public URLs (their hosts are allowed). */
  constructor(entries: readonly AllowedHostEntry[] = [], urls: readonly (string | null | undefined)[] = []) {
    this.any = entries.includes('*');
    for (const entry of entries.map((e) => e.toLowerCase())) {
      if (entry.startsWith('.')) this.suffixes.push(entry);
      else this.names.add(entry);
    }
    for (const url of urls) {
      const host = url ? hostOfUrl(url) : null;
      if (host) this.names.add(host);
    }
  }

  /** Whether a request with this Host header is answered. No Host (HTTP/1.0) is no browser's request. */
  readonly allows = (header: string | undefined): boolean => {
    if (header === undefined || this.any) return true;
    const host = hostOf(header);
    if (host === null) return false;
    if (isIP(host) !== 0) return true;
    if (host === 'localhost' || host.endsWith('.localhost')) return true;
    if (this.names.has(host)) return true;
    return this.suffixes.some((suffix) => host === suffix.slice(1) || host.endsWith(suffix));
  };
}

/** The host named in a refusal: only a well-formed one is echoed, never arbitrary header text. */
function shownHost(header: string | undefined): string {
  const host = header === undefined ? null : hostOf(header);
  return host === null ? 'of this request' : `'${host}'`;
}

/** Refuses every request whose Host the policy does not allow: the first hook of every route. */
export function allowedHosts(app: FastifyInstance, policy: HostPolicy): void {
  // Callback style: an async hook costs every request a promise.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const host = request.headers.host;
    if (policy.allows(host)) return done();
    // The body is not read: the connection closes after the answer.
    reply.header('connection', 'close');
    done(apiError('MisdirectedRequest', { params: { host: shownHost(host) } }));
  });
}
