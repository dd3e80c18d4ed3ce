/**
 * A request that carries no body (`Content-Length: 0`, no `Transfer-Encoding`) has nothing to parse,
 * whatever its `Content-Type` says. aiohttp (discord.py) labels the empty POST of `typing()` as
 * `application/octet-stream`; v10 answers it 204, so slashd must not refuse the label.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Whether the request says a body follows its headers (a length above 0, or chunks). */
export function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function hasNoBody(request: FastifyRequest): boolean {
  return request.headers['content-length'] === '0' && request.headers['transfer-encoding'] === undefined;
}

export function ignoreTypeOfEmptyBodies(app: FastifyInstance): void {
  // Callback style: an async hook costs every request a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined && hasNoBody(request)) delete request.headers['content-type'];
    done();
  });
}
