/**
 * Which PostgreSQL failures mean "the database is not serving right now" (refused, cut, stalled,
 * shutting down, out of connections) rather than "this statement is wrong": those are answered
 * with a v10 503 and mark the database down until a query succeeds again.
 */
import type { CallOutcome } from '../../core/dependencies.js';

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is not serving: admin or crash shutdown, starting up, too many
 * connections. Class 08 (connection exception) is matched by its prefix.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** The server cancelled a statement past `statement_timeout`. */
const STATEMENT_TIMEOUT_STATE = '57014';

/** pg's and pg-pool's own messages for a connection that timed out or went away (they carry no code). */
const CLIENT_TIMEOUTS = [
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
];
const CLIENT_LOST = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

function fieldOf(error: unknown, name: 'code' | 'message'): string {
  if (typeof error !== 'object' || error === null) return '';
  const value = (error as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/** How a failed call ended, as the metrics and the database's up/down state count it. */
export function postgresOutcome(error: unknown): CallOutcome {
  const code = fieldOf(error, 'code');
  const message = fieldOf(error, 'message');
  if (code === STATEMENT_TIMEOUT_STATE || CLIENT_TIMEOUTS.some((text) => message.startsWith(text))) return 'timeout';
  if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')) return 'unavailable';
  if (CLIENT_LOST.some((text) => message.startsWith(text))) return 'unavailable';
  return 'error';
}

/** Whether `error` means the database could not serve the call (a 503), not that the call was wrong. */
export function isPostgresUnavailable(error: unknown): boolean {
  return postgresOutcome(error) !== 'error';
}

/**
 * Whether the server itself answered (even with an error): a statement it cancelled after
 * `statement_timeout` is slow, not unreachable.
 */
export function answeredByServer(error: unknown): boolean {
  const code = fieldOf(error, 'code');
  return /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !UNAVAILABLE_STATES.has(code);
}
