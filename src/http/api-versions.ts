/** Which API versions slashd serves, and under which paths (docs/v10-behaviour.md#conventions). */

/** API versions served; v9 is the same as v10 for everything here. */
export const SERVED_VERSIONS = ['v10', 'v9'] as const;
const VERSIONED_PATH = /^\/api\/v(\d+)(?:\/|$)/;
/** A path under /api without a version: v10 serves it as its default version (@buape/carbon calls these). */
const UNVERSIONED_PATH = /^\/api(?=\/|\?|$)(?!\/v\d+(?:[/?]|$))/;

/** `/api/users/@me` is routed as `/api/v10/users/@me`: one set of routes, buckets and 405s. */
export function servedAsV10(url: string): string {
  return url.replace(UNVERSIONED_PATH, '/api/v10');
}

/** Where a path stands: an API path of a served version (and the path below `/api/vN`), of another version, or no API path. */
export type ApiPath = { kind: 'served'; below: string } | { kind: 'unserved-version' } | { kind: 'other' };

export function apiPathOf(path: string): ApiPath {
  const match = VERSIONED_PATH.exec(path);
  if (!match) return { kind: 'other' };
  if (!SERVED_VERSIONS.includes(`v${match[1]}` as (typeof SERVED_VERSIONS)[number]))
    return { kind: 'unserved-version' };
  return { kind: 'served', below: path.slice(`/api/v${match[1]}`.length) || '/' };
}
