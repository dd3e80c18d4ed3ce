/** Every failure leaves as a v10 error body; nothing a client sends yields a 5xx. */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPE_INVALID } from '../core/io/codes.js';
import { ApiError, apiError, invalidFormBody, statusError } from '../core/io/errors.js';
import { issue } from '../core/io/issue.js';
import { unavailableDependency } from './dependency-errors.js';

export const invalidContentType = () =>
  invalidFormBody([
    issue([], CONTENT_TYPE_INVALID, 'Expected "Content-Type" header to be one of {\'application/json\'}.'),
  ]);

/** Maps Fastify's own errors (parsing, limits) onto v10 errors. */
function fromFastifyError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidContentType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return apiError('InvalidJson');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiError('TooLarge');
    default: {
      const status = error.statusCode ?? 500;
      // Fastify's messages can quote the URL (a malformed percent-encoding), and URLs carry tokens.
      return statusError(status, STATUS_CODES[status]);
    }
  }
}

/** Status of a connection-level failure node reports before any route runs. */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/**
 * Timeouts and unparsable requests never reach a route: they are answered on the socket, still
 * with a v10 body, and the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = clientErrorStatus(error.code);
  const body = JSON.stringify(statusError(status, STATUS_CODES[status]).toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const retryAfter = error.extra?.retry_after;
  if (error.status === 429 && typeof retryAfter === 'number') {
    reply.header('retry-after', Math.ceil(retryAfter).toString());
    // The rate-limit hook names its scope (user, global); other 429s (daily creates) are shared.
    if (!reply.hasHeader('x-ratelimit-scope')) reply.header('x-ratelimit-scope', 'shared');
  }
  // Bytes, not text: Fastify would append a charset to a string, also on paths that skip onSend hooks.
  return reply
    .code(error.status)
    .type('application/json')
    .send(Buffer.from(JSON.stringify(error.toBody())));
}

export function errorHandler(
  error: FastifyError | ApiError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof ApiError) return sendError(reply, error);
  if (error instanceof SyntaxError) return sendError(reply, apiError('InvalidJson'));
  const dependency = unavailableDependency(error);
  if (dependency !== null) {
    // The operator's alert is on the metrics; one line says which dependency, never a stack.
    request.log.warn({ dependency, reason: error.message }, 'answered 503: a dependency is unavailable');
    return sendError(reply, apiError('ServiceUnavailable'));
  }
  const mapped = fromFastifyError(error);
  if (mapped.status >= 500) request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, mapped);
}
