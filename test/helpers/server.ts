/** A real slashd on loopback over a real SQLite file, for one test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlashd, type Slashd, type SlashdConfig } from '../../src/app.js';
import type { World } from '../../src/core/world/types.js';
import { ADMIN_TOKEN, exampleWorld } from './world.js';

export interface TestServer {
  slashd: Slashd;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** e.g. http://127.0.0.1:40123/api/v10 */
  api: string;
  dbPath: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  auth?: string | null;
  body?: unknown;
  /** Sent as is, instead of JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function startServer(
  options: {
    world?: World;
    db?: string;
    now?: () => number;
    timeouts?: SlashdConfig['timeouts'];
    config?: Partial<SlashdConfig>;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-test-'));
  const dbPath = options.db ?? join(dir, 'slashd.sqlite');
  const slashd = await createSlashd({
    db: dbPath,
    world: options.world ?? exampleWorld(),
    adminToken: ADMIN_TOKEN,
    now: options.now,
    timeouts: options.timeouts,
    ...options.config,
    // Tests of HTTP delivery observe the bus with no gateway session connected.
    gateway: { failWithoutSession: false, ...options.config?.gateway },
  });
  const url = await slashd.listen({ host: '127.0.0.1', port: 0 });
  const api = `${url}/api/v10`;
  return {
    slashd,
    url,
    api,
    dbPath,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.auth) headers.authorization = opts.auth;
      let body: string | undefined;
      if (opts.rawBody !== undefined) body = opts.rawBody;
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(path.startsWith('http') ? path : `${api}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
    async close() {
      await slashd.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
