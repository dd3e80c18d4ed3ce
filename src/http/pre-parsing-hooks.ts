/** Adding a `preParsing` hook to a route as it is declared (the rate limits' and the faults' `onRoute`). */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

export type PreParsingHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
) => void;

type Hooks = RouteOptions['preParsing'];

/** The route's `preParsing` hooks with `hook` after them. */
export function withPreParsing(hooks: Hooks, hook: PreParsingHook): NonNullable<Hooks> {
  const list: unknown[] = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  return [...list, hook] as NonNullable<Hooks>;
}
