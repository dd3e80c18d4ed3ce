/**
 * How the client commands (`invoke`, `world`) reach a running slashd: its URL, the admin token
 * (for names → ids), and JSON over HTTP with errors a person can act on.
 */
import type { World } from '../core/world/types.js';
import { readAdminTokenFile, readToken } from './admin-token.js';
import { UsageError } from './usage.js';

/** Where `npm start` serves. */
export const DEFAULT_URL = 'http://127.0.0.1:3210';
/** The database `npm start` uses: its admin token is found next to it. */
export const DEFAULT_DB = './data/slashd.sqlite';

export interface ServerTarget {
  /** e.g. http://127.0.0.1:3210, without a trailing slash. */
  url: string;
  adminToken: string;
}

export type Env = Record<string, string | undefined>;

/** The server from `--url`, then SLASHD_URL, then the default. */
export function serverUrl(flag: string | undefined, env: Env): string {
  return (flag ?? env.SLASHD_URL ?? DEFAULT_URL).replace(/\/+$/, '');
}

/** The options every client command takes for the admin token. */
export const ADMIN_TOKEN_OPTIONS = {
  'admin-token': { type: 'string' },
  /** The file `slashd serve` keeps the token in (next to its database): the token is never printed. */
  'admin-token-file': { type: 'string' },
} as const;

/**
 * The admin token from `--admin-token`, then the file of `--admin-token-file`, then
 * SLASHD_ADMIN_TOKEN, then the file `npm start` keeps.
 */
export function adminToken(values: Record<string, string | boolean | undefined>, env: Env): string {
  const flag = values['admin-token'];
  const file = values['admin-token-file'];
  const token =
    (typeof flag === 'string' ? flag : undefined) ??
    (typeof file === 'string' ? readToken(file) : undefined) ??
    env.SLASHD_ADMIN_TOKEN ??
    readAdminTokenFile(DEFAULT_DB);
  if (!token) {
    throw new UsageError(
      'no admin token: pass --admin-token or --admin-token-file, or set SLASHD_ADMIN_TOKEN (`slashd serve` says where it keeps it)',
      false,
    );
  }
  return token;
}

export interface JsonAnswer {
  status: number;
  body: any;
}

/** One JSON request; a server that cannot be reached is a usage problem (exit 2), not a crash. */
export async function requestJson(
  url: string,
  init: { method?: string; auth?: string; body?: unknown; form?: FormData } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = {};
  if (init.auth) headers.authorization = init.auth;
  if (init.body !== undefined && !init.form) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.form ?? (init.body === undefined ? null : JSON.stringify(init.body)),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new UsageError(`cannot reach slashd at ${new URL(url).origin} (${cause}); is it running? (npm start)`, false);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

/** The world as the admin API has it (users with tokens, guilds, applications). */
export async function fetchWorld(target: ServerTarget): Promise<World> {
  const answer = await requestJson(`${target.url}/admin/world`, { auth: `Bearer ${target.adminToken}` });
  if (answer.status === 401)
    throw new UsageError('the admin token was refused (401): check --admin-token or SLASHD_ADMIN_TOKEN', false);
  if (answer.status !== 200) throw new UsageError(`GET /admin/world answered ${answer.status}`, false);
  return answer.body as World;
}
