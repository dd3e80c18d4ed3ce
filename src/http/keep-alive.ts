/**
 * What keeps a kept-alive connection sound. A reply sent before its request's body was read (a
 * refused multipart upload, a 429) would leave the rest of the body on the wire, where a client
 * that reuses the connection (aiohttp under discord.py stops writing a body once it has its answer)
 * gets its next request read as that body's tail: so the body is read to its end first, up to the
 * route's body limit, and past that the reply says `Connection: close`. While the server closes,
 * every reply says `Connection: close`, and a request that arrives gets v10's 503 body.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../core/io/errors.js';
import { DEFAULT_BODY_LIMIT_BYTES } from './limits.js';

/** Whether the connection closes after this reply anyway (an onRequest guard's 401 does not read the body). */
function closesAfterReply(reply: FastifyReply): boolean {
  return String(reply.getHeader('connection') ?? '').toLowerCase() === 'close';
}

/**
 * Reads and drops what is left of a body, at most `limit` bytes more: true once it ended, false
 * when it was longer or the connection went. The time it may take is the request timeout's
 * (node closes a request still incomplete at `requestTimeout`).
 */
function discardBody(raw: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    let read = 0;
    const finish = (ended: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(false);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.once('error', onClose);
    raw.resume();
  });
}

/** Whether the request's body may still be on the wire (`complete` is node's: an injected request has none). */
function bodyUnread(request: FastifyRequest): boolean {
  return request.raw.complete === false && !request.raw.destroyed;
}

/** Before a reply leaves: the unread rest of the request's body is drained, or the connection closes after it. */
async function settleUnreadBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  const limit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
  const declared = Number(raw.headers['content-length'] ?? Number.NaN);
  if ((Number.isFinite(declared) && declared > limit) || !(await discardBody(raw, limit))) {
    reply.header('connection', 'close');
  }
}

/** Adds the hooks to `app`: bodies settled before every reply, and the 503 and `Connection: close` while closing. */
export function keepAliveHooks(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Before every route's own hooks (authentication among them): nothing is looked up while closing.
  // Both hooks in callback style: the usual request costs them no promise.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(apiError('ShuttingDown'));
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    if (!bodyUnread(request) || closesAfterReply(reply)) return done(null, payload);
    settleUnreadBody(request, reply).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
