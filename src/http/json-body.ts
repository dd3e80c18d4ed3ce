/** JSON request bodies: read with the project's one JSON reader, refused as v10 errors. */
import type { FastifyRequest } from 'fastify';
import { apiError, invalidFormBody, type ApiError } from '../core/io/errors.js';
import { quoteUnsafeIntegers } from '../core/io/json-integers.js';
import { readJsonText } from '../core/io/json-text.js';

/** An empty body is no body; invalid JSON is 50109; a prototype-poisoning key is 50035 at its path. */
export function parseJsonBody(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: ApiError | null, value?: unknown) => void,
): void {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') return done(null, undefined);
  let read;
  try {
    read = readJsonText(text);
  } catch {
    return done(apiError('InvalidJson'), undefined);
  }
  done(read.ok ? null : invalidFormBody(read.issues), read.ok ? read.value : undefined);
}

/**
 * `parseJsonBody` for routes whose bodies carry snowflakes that clients send as JSON integers
 * (discord.py's message routes): integers past 2^53 are read as their exact decimal strings.
 */
export function parseJsonBodyKeepingIds(
  request: FastifyRequest,
  body: string | Buffer,
  done: (error: ApiError | null, value?: unknown) => void,
): void {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  parseJsonBody(request, quoteUnsafeIntegers(text), done);
}
