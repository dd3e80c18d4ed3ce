/**
 * Failures of what slashd depends on, seen at the HTTP edge: the database refused, cut or stalled
 * (its client's timeouts), Redis away (`DependencyUnavailableError`), or the request's handling
 * deadline passed. None is the client's fault nor a bug of slashd: each is a v10 503
 * (`ServiceUnavailable`) and one warning line, never a 500 with a stack.
 */
import { DependencyUnavailableError, type DependencyName } from '../core/dependencies.js';
import { isPostgresUnavailable } from '../store/postgres/unavailable.js';

/** SQLite's codes for a file locked by another process past the busy timeout: it will be free again. */
const SQLITE_BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** A request's handling outlived its deadline (./deadlines.ts). */
export class HandlerDeadlineError extends Error {
  constructor(deadlineMs: number, url: string | undefined) {
    super(`the handling of ${url ?? 'a request'} passed its deadline of ${deadlineMs} ms`);
    this.name = 'HandlerDeadlineError';
  }
}

function codeOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}

/** Which dependency `error` says is away, or null when it is some other error. */
export function unavailableDependency(error: unknown): DependencyName | 'deadline' | null {
  if (error instanceof DependencyUnavailableError) return error.dependency;
  const code = codeOf(error);
  if (error instanceof HandlerDeadlineError) return 'deadline';
  if (SQLITE_BUSY_CODES.has(code) || isPostgresUnavailable(error)) return 'database';
  return null;
}
