/** Bounds of the HTTP server: how much a request may send and how long it may take. */

/** Body limit of every route not listed below: a message with embeds or a modal is tens of KB. */
export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;
/** Command writes: a bulk overwrite of 100 localized commands of 8000 characters runs to MBs. */
export const COMMANDS_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
/** The admin world import (`PUT`/`POST /admin/world`) carries whole guilds with their members. */
export const WORLD_IMPORT_BODY_LIMIT_BYTES = 32 * 1024 * 1024;
/** A world sent in lines (src/http/world-lines.ts): a 10,000-guild, 1M-user world is about 220 MB. */
export const WORLD_LINES_BODY_LIMIT_BYTES = 512 * 1024 * 1024;
/** One injected fault (`POST /admin/faults`): a handful of fields. */
export const ADMIN_FAULT_BODY_LIMIT_BYTES = 4 * 1024;

/** Time for a whole request, headers and body: a slow upload is cut off after it (Fastify's default is none). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Time for a request's headers to arrive (node's own default is 60 s). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** An idle socket (nothing received or sent) is closed after it. */
export const CONNECTION_TIMEOUT_MS = 60_000;
/**
 * An idle kept-alive connection is closed after it. Longer than clients keep theirs (undici, under
 * fetch and @discordjs/rest, 4 s), so the client lets go first: a server that closes first races a
 * request the client is sending on that socket, which then fails with a reset.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 30_000;
/**
 * Time for a request's handling, from routing to the reply (hooks, the store, the app's answer to
 * an invocation, 3 s at most): past it the client gets a v10 503 while the work is let go. Every
 * call to the database or Redis is bounded too (a statement by 10 s); this bounds what they add up
 * to, so a stalled database is answered in 5 s rather than when its calls time out.
 */
export const HANDLER_TIMEOUT_MS = 5_000;
/**
 * An upload's body is not bound by the handler's deadline while it arrives: each such window it must
 * grow by UPLOAD_MIN_BYTES_PER_SECOND per second, or it is cut off (408); the handler's deadline
 * counts from the body's end. A steady slow upload so finishes, within REQUEST_TIMEOUT_MS.
 */
export const UPLOAD_PROGRESS_WINDOW_MS = 10_000;
/** The admin API's deadline: a world import or a snapshot restore copies whole tables. */
export const ADMIN_HANDLER_TIMEOUT_MS = 120_000;
/** How often node looks for requests past their timeouts; shorter timeouts are checked more often. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export interface HttpTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  connectionTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** The deadline of a request's handling (the admin API's is `ADMIN_HANDLER_TIMEOUT_MS`, or this if longer). */
  handlerTimeoutMs: number;
  /** How often an upload's body must have grown (`UPLOAD_PROGRESS_WINDOW_MS`). */
  uploadProgressWindowMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  handlerTimeoutMs: HANDLER_TIMEOUT_MS,
  uploadProgressWindowMs: UPLOAD_PROGRESS_WINDOW_MS,
};

/** Fastify's server options for these timeouts; node requires headers to time out no later than the request. */
export function serverTimeoutOptions(timeouts: HttpTimeouts) {
  const headersTimeout = Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs);
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    connectionTimeout: timeouts.connectionTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    http: {
      requestTimeout: timeouts.requestTimeoutMs,
      headersTimeout,
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(TIMEOUT_CHECK_INTERVAL_MS, Math.floor(timeouts.requestTimeoutMs / 4)),
      ),
    },
  };
}
