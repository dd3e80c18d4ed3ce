/**
 * How a node stops taking work (`Slashd.close()`): the HTTP server stops listening while the
 * requests under way finish (keep-alive.ts answers new ones 503), console streams end, gateway
 * clients are told to reconnect; past the drain timeout, every connection left is cut.
 */
import type { FastifyInstance } from 'fastify';

/**
 * How long a drain lets requests finish and gateway clients leave before it cuts every connection
 * left: shorter than an orchestrator's usual 30 s before it kills the process.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 20_000;

/** What holds connections while a node drains. */
export interface DrainedParts {
  server: FastifyInstance;
  gateway: { close(): Promise<void>; terminate(): void };
  /** Live streams (the console's): they never end on their own. */
  streams: { close(): void };
}

export async function drain(parts: DrainedParts, timeoutMs: number): Promise<void> {
  parts.streams.close();
  const drained = Promise.all([parts.server.close(), parts.gateway.close()]);
  if (await settlesWithin(drained, timeoutMs)) return;
  // A client that holds on past the deadline does not keep the node from stopping.
  parts.server.server.closeAllConnections();
  parts.gateway.terminate();
  await drained;
}

/** Whether `work` settles within `ms` (its rejection is still thrown). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
