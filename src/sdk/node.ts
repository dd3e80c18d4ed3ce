/**
 * slashd/sdk/node: `authorize` from a Node program, as RFC 8252 asks of native apps: a listener on
 * the loopback interface receives the redirect, and the user opens the authorization page in their
 * own browser (printed, or handed to `open`). Loaded only in Node; the rest of the library never
 * imports it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationAnswer, AuthorizationTransport } from './transport.js';

export * from './index.js';

/** How long the listener waits for the browser to come back (ms): ten minutes to sign in. */
export const DEFAULT_LOOPBACK_TIMEOUT_MS = 10 * 60_000;

/** Longest request line the listener reads: the answer is a short query, anything longer is not one. */
const MAX_CALLBACK_URL_LENGTH = 8 * 1024;

const DONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Signed in</title><p>You can close this window and return to the application.</p>';

export interface LoopbackOptions {
  /** The loopback address to listen on (RFC 8252 §8.3: an IP literal, not `localhost`). */
  host?: '127.0.0.1' | '::1';
  /** 0 (the default) picks a free port; a fixed one matches a redirect URI registered with its port. */
  port?: number;
  /** The redirect URI's path. */
  path?: string;
  /** Shows the authorization page; default: print its URL on stderr for the user to open. */
  open?: (url: string) => void | Promise<void>;
  timeoutMs?: number;
}

function printUrl(url: string): void {
  process.stderr.write(`Open this address in your browser to sign in:\n  ${url}\n`);
}

export function nodeLoopback(options: LoopbackOptions = {}): AuthorizationTransport {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/callback';
  const open = options.open ?? printUrl;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOOPBACK_TIMEOUT_MS;
  return {
    async begin() {
      let deliver: (answer: AuthorizationAnswer) => void = () => undefined;
      const answered = new Promise<AuthorizationAnswer>((resolve) => {
        deliver = resolve;
      });
      const server = createServer((request: IncomingMessage, response: ServerResponse) => {
        const target = request.url ?? '';
        const url = target.length <= MAX_CALLBACK_URL_LENGTH ? new URL(target, origin) : null;
        if (request.method !== 'GET' || url === null || url.pathname !== path || url.search === '') {
          response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
          return;
        }
        response
          .writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
            connection: 'close',
          })
          .end(DONE_PAGE);
        deliver({ kind: 'answer', url });
      });
      server.requestTimeout = 10_000;
      server.headersTimeout = 10_000;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const origin = `http://${host === '::1' ? '[::1]' : host}:${port}`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      return {
        redirectUri: `${origin}${path}`,
        complete: async (url) => {
          timer = setTimeout(
            () => deliver({ kind: 'aborted', description: 'Nobody came back to the loopback listener in time' }),
            timeoutMs,
          );
          await open(url);
          return answered;
        },
        close: () => {
          clearTimeout(timer);
          server.close();
          server.closeAllConnections();
        },
      };
    },
  };
}
