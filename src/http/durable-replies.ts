/**
 * No reply leaves before the writes made so far are committed: with one commit per turn of the
 * event loop (src/store/sqlite/connection.ts), what a request wrote, or read of another request's
 * writes, is on disk before anyone learns of it. A turn whose commit failed answers 500.
 */
import type { FastifyInstance } from 'fastify';

export function durableReplies(app: FastifyInstance, durable: () => Promise<void> | undefined): void {
  // Callback style: the usual reply (nothing waiting) costs no promise.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const pending = durable();
    if (pending === undefined) return done(null, payload);
    pending.then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
