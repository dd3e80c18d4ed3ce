/**
 * The console's only way to slashd: the v10 API with the signed-in user's token (exactly what a
 * chat client sends), and the console's own few reads under /console/api.
 */
import type { Json } from './types';

const V10 = '/api/v10';
const CONSOLE_API = '/console/api';

/** A refused request: the v10 error body, kept whole so the console can show its field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(typeof body?.message === 'string' ? `${body.message as string} (${status})` : `HTTP ${status}`);
  }
}

async function parse(response: Response): Promise<Json> {
  const text = await response.text();
  const body: Json = text === '' ? null : JSON.parse(text);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export interface Api {
  readonly token: string;
  get: (path: string) => Promise<Json>;
  post: (path: string, body: unknown) => Promise<Json>;
  /** A JSON body replacing something of the user's (their votes in a poll). */
  put: (path: string, body: unknown) => Promise<Json>;
  /** A multipart body (an invocation with files): the browser sets its boundary. */
  postForm: (path: string, form: FormData) => Promise<Json>;
  consoleGet: (path: string) => Promise<Json>;
  /** A JSON body to the console's API (the Store's purchases, cancels and consumes). */
  consolePost: (path: string, body: unknown) => Promise<Json>;
  /** A request without a body (a reaction's PUT or DELETE). */
  call: (method: 'PUT' | 'DELETE', path: string) => Promise<Json>;
  /** A raw request to the console's API (the live stream reads the body itself). */
  consoleFetch: (path: string, signal: AbortSignal) => Promise<Response>;
}

/**
 * Requests as the user: the token, and the user's locale as the client sends it (X-Discord-Locale),
 * so the command index is localized for the user rather than for the browser's languages.
 */
export function createApi(token: string, locale?: string): Api {
  const headers: Record<string, string> = { Authorization: token };
  if (locale) headers['X-Discord-Locale'] = locale;
  return {
    token,
    get: async (path) => parse(await fetch(V10 + path, { headers })),
    post: async (path, body) =>
      parse(
        await fetch(V10 + path, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    put: async (path, body) =>
      parse(
        await fetch(V10 + path, {
          method: 'PUT',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    postForm: async (path, form) => parse(await fetch(V10 + path, { method: 'POST', headers, body: form })),
    consoleGet: async (path) => parse(await fetch(CONSOLE_API + path, { headers })),
    consolePost: async (path, body) =>
      parse(
        await fetch(CONSOLE_API + path, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        }),
      ),
    call: async (method, path) => parse(await fetch(V10 + path, { method, headers })),
    consoleFetch: (path, signal) => fetch(CONSOLE_API + path, { headers, signal }),
  };
}

/** The sandbox's sign-in list; null when the server has none (a real deployment). */
export async function sandboxUsers(): Promise<Json[] | null> {
  const response = await fetch(`${CONSOLE_API}/sandbox-users`);
  if (!response.ok) return null;
  return (await response.json()) as Json[];
}
