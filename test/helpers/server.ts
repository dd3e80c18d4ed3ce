/**
 * A real slashd over a real SQLite file, for one test file: on loopback (`startServer`) where the
 * wire matters (client libraries, delivery, timeouts, body limits, exact headers), or answering
 * through Fastify's `inject()` (`injectServer`) where a test checks routing and error shapes only.
 * Both give the same `request`, so a test reads the same either way.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSlashd, type Slashd, type SlashdConfig } from '../../src/app.js';
import type { World } from '../../src/core/world/types.js';
import { ADMIN_AUTH, ADMIN_TOKEN, exampleWorld } from './world.js';

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
  auth?: string | null | undefined;
  body?: unknown;
  /** Sent as is, instead of JSON. */
  rawBody?: string | undefined;
  headers?: Record<string, string> | undefined;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;

  body: any;
}

export interface ServerOptions {
  world?: World;
  db?: string;
  now?: () => number;
  timeouts?: SlashdConfig['timeouts'];
  config?: Partial<SlashdConfig>;
}

/** Where an injected server pretends to listen: `request` strips it, nothing ever connects to it. */
const INJECT_ORIGIN = 'http://slashd.inject';

async function createTestSlashd(options: ServerOptions): Promise<{ slashd: Slashd; dir: string; dbPath: string }> {
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
  return { slashd, dir, dbPath };
}

/** The headers and body `fetch` would send for `opts`. */
function requestParts(opts: RequestOptions): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.auth;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  return { headers, body };
}

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function testServer(
  slashd: Slashd,
  url: string,
  dir: string,
  dbPath: string,
  send: (method: string, path: string, opts: RequestOptions) => Promise<TestResponse>,
): TestServer {
  const api = `${url}/api/v10`;
  return {
    slashd,
    url,
    api,
    dbPath,
    request: (method, path, opts = {}) => send(method, path.startsWith('http') ? path : `${api}${path}`, opts),
    async close() {
      await slashd.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** slashd listening on a loopback port; `request` goes through `fetch`. */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const { slashd, dir, dbPath } = await createTestSlashd(options);
  const url = await slashd.listen({ host: '127.0.0.1', port: 0 });
  return testServer(slashd, url, dir, dbPath, async (method, target, opts) => {
    const { headers, body } = requestParts(opts);
    const response = await fetch(target, { method, headers, body: body ?? null });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: parseBody(text) };
  });
}

/**
 * slashd answering through Fastify's `inject()`: no port, no socket. `url` and `api` are
 * placeholders that `request` understands (so `${server.url}/admin/...` works); nothing else can
 * reach them.
 */
export async function injectServer(options: ServerOptions = {}): Promise<TestServer> {
  const { slashd, dir, dbPath } = await createTestSlashd(options);
  return testServer(slashd, INJECT_ORIGIN, dir, dbPath, async (method, target, opts) => {
    const { headers, body } = requestParts(opts);
    // fetch labels a string body it is given without a type as text; so does this.
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'text/plain;charset=UTF-8';
    }
    const { pathname, search } = new URL(target);
    const response = await slashd.server.inject({
      method: method as 'GET',
      url: `${pathname}${search}`,
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    return {
      status: response.statusCode,
      headers: responseHeaders,
      text: response.body,
      body: parseBody(response.body),
    };
  });
}

/** A call to the admin API (`/admin{path}`), with the admin token unless `auth` says otherwise. */
export function adminRequest(
  server: Pick<TestServer, 'request' | 'url'>,
  method: string,
  path: string,
  body?: unknown,
  auth: string | null = ADMIN_AUTH,
): Promise<TestResponse> {
  return server.request(method, `${server.url}/admin${path}`, { auth, body });
}

/** `adminRequest` with the admin token, asserting a 2xx answer. */
export async function adminOk(
  server: Pick<TestServer, 'request' | 'url'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<TestResponse> {
  const response = await adminRequest(server, method, path, body);
  assert.ok(response.status < 300, `admin ${method} ${path}: ${response.status} ${response.text}`);
  return response;
}
