/**
 * Where this node is reached: its configured public URL, else the address it listens on once it
 * does. Given at construction to what names the server (the OpenID Connect issuer, the gateway's
 * announced URL) and read each time, so nothing is patched when `listen` binds the port.
 */
import type { GatewayOrigin } from '../gateway/gateway-url.js';

/** The listen URL before the node listens (a server only injected into, in tests). */
const UNBOUND_URL = 'http://127.0.0.1';

export class ServerAddress {
  private listening: { host: string; port: number } | null = null;

  /** `publicUrl`: `--public-url`, when given. */
  constructor(private readonly publicUrl: string | undefined) {}

  /** The server is bound: `port` is the actual one (the asked-for port may be 0). */
  listened(host: string, port: number): void {
    this.listening = { host, port };
  }

  /** `http://host:port` of the bound address (an IPv6 address in brackets). */
  listenUrl(): string {
    if (!this.listening) return UNBOUND_URL;
    const { host, port } = this.listening;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  /** The server's URL as it names itself (the issuer): the public URL without trailing slashes, else the listen URL. */
  url(): string {
    return this.publicUrl?.replace(/\/+$/, '') ?? this.listenUrl();
  }

  /** What the gateway derives the URL it announces from. */
  gatewayOrigin(): GatewayOrigin {
    return { publicUrl: this.publicUrl ?? null, listening: this.listening };
  }
}
