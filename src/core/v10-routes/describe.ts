/**
 * How a request slashd does not serve is named, in its 404 (or 405) and in the log: by its v10
 * route template where the path is a v10 route (`GET /guilds/{guild.id}/audit-logs`), so the
 * request's ids and tokens never appear; otherwise by its path with ids and anything token-like
 * masked, and bounded in length (docs/v10-behaviour.md#routes-slashd-does-not-serve).
 */
import { V10_ROUTES } from './templates.js';

/** Segments of a path that is no v10 route kept when naming it; the rest become one `…`. */
export const UNKNOWN_PATH_SEGMENTS_MAX = 12;
/** A segment of a path that is no v10 route longer than this is masked (it may be a token). */
export const UNKNOWN_SEGMENT_LENGTH_MAX = 32;

/** A request named without any of its ids or tokens. */
export interface RouteDescription {
  /** The method and the path below `/api/vN`: `GET /guilds/{guild.id}/audit-logs`. */
  readonly route: string;
  /** The path is a v10 route template. */
  readonly v10Path: boolean;
  /** ... and v10 serves this method there (HEAD counting as GET). */
  readonly v10Method: boolean;
}

interface CompiledRoute {
  readonly template: string;
  /** Each segment: the literal, or null for a placeholder. */
  readonly segments: readonly (string | null)[];
  readonly methods: readonly string[];
}

function compile([template, methods]: readonly [string, string]): CompiledRoute {
  return {
    template,
    segments: template
      .split('/')
      .slice(1)
      .map((segment) => (segment.startsWith('{') ? null : segment)),
    methods: methods.split(' '),
  };
}

/** The routes by their number of segments: a path is tried only against those of its length. */
const ROUTES_BY_LENGTH = new Map<number, CompiledRoute[]>();
for (const route of V10_ROUTES.map(compile)) {
  const sameLength = ROUTES_BY_LENGTH.get(route.segments.length) ?? [];
  sameLength.push(route);
  ROUTES_BY_LENGTH.set(route.segments.length, sameLength);
}

/** The path's segments; a trailing slash is ignored, as the router ignores it. */
function segmentsOf(path: string): string[] {
  const segments = path.split('/').slice(1);
  while (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  return segments;
}

function matches(route: CompiledRoute, segments: readonly string[]): boolean {
  if (route.segments.length !== segments.length) return false;
  return route.segments.every((literal, index) =>
    literal === null ? segments[index] !== '' : literal === segments[index],
  );
}

/** Of two matching routes, the one with a literal where the other first has a placeholder (`@me` over `{user.id}`). */
function moreSpecific(a: CompiledRoute, b: CompiledRoute): CompiledRoute {
  for (let index = 0; index < a.segments.length; index++) {
    const aLiteral = a.segments[index] !== null;
    const bLiteral = b.segments[index] !== null;
    if (aLiteral !== bLiteral) return aLiteral ? a : b;
  }
  return a;
}

/** The v10 route a path below `/api/vN` is, if any. */
export function v10RouteOf(path: string): CompiledRoute | undefined {
  const segments = segmentsOf(path);
  let best: CompiledRoute | undefined;
  for (const route of ROUTES_BY_LENGTH.get(segments.length) ?? []) {
    if (matches(route, segments)) best = best ? moreSpecific(best, route) : route;
  }
  return best;
}

const ID_SEGMENT = /^\d{1,20}$/;
const PLAIN_SEGMENT = /^[A-Za-z0-9._~@:-]+$/;

/** A segment of a path that is no v10 route: ids become `{id}`; long or unusual ones are masked. */
function maskSegment(segment: string): string {
  if (ID_SEGMENT.test(segment)) return '{id}';
  if (segment === '' || (segment.length <= UNKNOWN_SEGMENT_LENGTH_MAX && PLAIN_SEGMENT.test(segment))) return segment;
  return '{…}';
}

function maskedPath(path: string): string {
  const segments = segmentsOf(path);
  const kept = segments.slice(0, UNKNOWN_PATH_SEGMENTS_MAX).map(maskSegment);
  if (segments.length > UNKNOWN_PATH_SEGMENTS_MAX) kept.push('…');
  return `/${kept.join('/')}`;
}

/** `method` on `path` (below `/api/vN` for the API), named without the request's ids or tokens. */
export function describeRoute(method: string, path: string, api: boolean): RouteDescription {
  const route = api ? v10RouteOf(path) : undefined;
  if (!route) return { route: `${method} ${maskedPath(path)}`, v10Path: false, v10Method: false };
  const lookup = method === 'HEAD' ? 'GET' : method;
  return { route: `${method} ${route.template}`, v10Path: true, v10Method: route.methods.includes(lookup) };
}
