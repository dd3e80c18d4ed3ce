/**
 * HTTP requests from a chosen loopback address (127.0.0.2, 127.0.0.3, ...): the server sees that
 * address on the socket, as it would see two machines, with no proxy header to believe or forge.
 * Linux routes all of 127.0.0.0/8 to the loopback interface, so any of them can be a source.
 */
import { request as httpRequest } from 'node:http';
import type { TestResponse } from './server.js';

export interface FromOptions {
  headers?: Record<string, string> | undefined;
  /** Sent as is. */
  body?: string | undefined;
}

/** One request to `url` from the local address `from`, on a connection of its own. */
export function requestFrom(
  from: string,
  method: string,
  url: string,
  options: FromOptions = {},
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest(
      {
        method,
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        localAddress: from,
        agent: false,
        headers: {
          ...options.headers,
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined) continue;
            for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
          }
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers, text, body });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
