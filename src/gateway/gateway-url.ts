/**
 * The gateway URL a node announces (`GET /gateway`, `/gateway/bot`, READY's resume_gateway_url),
 * from configuration and the bound address, never from a Host header it has not checked: first
 * `--gateway-url`; else `--public-url` as ws:// or wss://; else the address the server listens on.
 * Only a node listening on every address (0.0.0.0, ::) has no address of its own to announce: it
 * announces the name the client used (a Host the Host check admitted), on the bound port unless
 * the Host names one. Decisions: docs/decisions.md#host-names-and-announced-urls.
 */

/** Where the HTTP server is, as far as the gateway URL goes. */
export interface GatewayOrigin {
  /** The server's public http(s) URL (`--public-url`); null when not configured. */
  readonly publicUrl: string | null;
  /** The address and port the server listens on; null before it listens (inject-only servers). */
  readonly listening: { readonly host: string; readonly port: number } | null;
}

/** Addresses that mean "every address of this machine": nothing a client can connect to as such. */
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]', '::0']);
/** A Host header the announced URL may take a name from (the Host check has admitted it already). */
const HOST_HEADER = /^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** An address or name as the authority of a URL: IPv6 addresses in brackets. */
function authorityHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** `--public-url` with its scheme made ws:// or wss://, its path kept (a proxy may serve slashd under one). */
function fromPublicUrl(publicUrl: string): string {
  const url = new URL(publicUrl);
  const scheme = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The URL a listening server announces without a public URL. */
function fromListening(listening: NonNullable<GatewayOrigin['listening']>, hostHeader: string | undefined): string {
  if (!WILDCARD_HOSTS.has(listening.host)) return `ws://${authorityHost(listening.host)}:${listening.port}`;
  if (hostHeader === undefined || !HOST_HEADER.test(hostHeader)) return `ws://localhost:${listening.port}`;
  const hasPort = /(?:^[^[:]+|\]):\d+$/.test(hostHeader);
  return `ws://${hostHeader}${hasPort ? '' : `:${listening.port}`}`;
}

/**
 * The URL clients are told to connect to. `hostHeader` is read only by a server listening on every
 * address or not listening at all (answering through inject), and must have passed the Host check.
 */
export function announcedGatewayUrl(
  gatewayUrl: string | null,
  origin: GatewayOrigin,
  hostHeader: string | undefined,
): string {
  if (gatewayUrl) return gatewayUrl;
  if (origin.publicUrl) return fromPublicUrl(origin.publicUrl);
  if (origin.listening) return fromListening(origin.listening, hostHeader);
  return `ws://${hostHeader !== undefined && HOST_HEADER.test(hostHeader) ? hostHeader : 'localhost'}`;
}
