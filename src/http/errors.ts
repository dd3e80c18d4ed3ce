/** Every failure leaves as a v10 error body; nothing a client sends yields a 5xx. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, issue, JsonCode, invalidFormBody } from '../core/errors.js';

export const invalidJson = () => new ApiError(400, JsonCode.InvalidJson, 'The request body contains invalid JSON.');

export const invalidContentType = () =>
  invalidFormBody([
    issue([], 'CONTENT_TYPE_INVALID', 'Expected "Content-Type" header to be one of {\'application/json\'}.'),
  ]);

export const invalidApiVersion = () => new ApiError(400, JsonCode.InvalidApiVersion, 'Invalid API version');

/** Maps Fastify's own errors (parsing, limits) onto v10 errors. */
function fromFastifyError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidContentType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidJson();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 0, 'Request entity too large');
    default: {
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) return new ApiError(status, 0, `${status}: ${error.message}`);
      return new ApiError(500, 0, '500: Internal Server Error');
    }
  }
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  const retryAfter = error.extra?.retry_after;
  if (error.status === 429 && typeof retryAfter === 'number') {
    reply.header('retry-after', Math.ceil(retryAfter).toString());
    reply.header('x-ratelimit-scope', 'shared');
  }
  return reply.code(error.status).type('application/json').send(JSON.stringify(error.toBody()));
}

export function errorHandler(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) return sendError(reply, error);
  if (error instanceof SyntaxError) return sendError(reply, invalidJson());
  const mapped = fromFastifyError(error);
  if (mapped.status >= 500) request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, mapped);
}
