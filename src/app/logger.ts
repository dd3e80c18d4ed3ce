/**
 * The node's logger, made before anything that logs: the HTTP server (Fastify takes it as its
 * `loggerInstance`, and each request logs through a child of it) and the services given it at
 * construction. Off (null) when no level is set or the level is `silent`.
 */
import { pino, type Logger } from 'pino';
import { prettyLogStream } from '../http/log-format.js';
import { redactUrl } from '../http/server.js';
import type { LogDestination, SlashdConfig } from './config.js';

export function openLogger(config: Pick<SlashdConfig, 'logLevel' | 'logFormat' | 'logDestination'>): Logger | null {
  const level = config.logLevel;
  if (!level || level === 'silent') return null;
  const destination: LogDestination | undefined = config.logDestination;
  const out = destination ?? process.stdout;
  // pino's own standard output is faster than a stream object: a stream is given only when needed.
  const stream = (config.logFormat ?? 'json') === 'pretty' ? prettyLogStream((text) => out.write(text)) : destination;
  const options = {
    level,
    serializers: {
      // The default serializer would log the raw URL, which can hold an interaction token.
      req: (request: { method: string; url: string }) => ({ method: request.method, url: redactUrl(request.url) }),
    },
  };
  return stream ? pino(options, stream) : pino(options);
}

/** What a part given a logger writes to when logging is off. */
export const QUIET_LOG = {
  info: (): void => {},
  warn: (): void => {},
  error: (): void => {},
};
