/**
 * Which bucket a route is in (v10 rate limits): one bucket per method and route, its limits from
 * the route's group, its counter per major parameter (application, guild, channel, interaction or
 * webhook id and token), and whether the per-bot global limit applies. Routes are Fastify's
 * templates without the `/api/vN` prefix, so v9 and v10 share buckets.
 */

/** A family of routes with the same limits. */
export type BucketGroup =
  'commandWrites' | 'commandBulk' | 'reads' | 'permissionWrites' | 'interactionCallback' | 'webhook' | 'other';

export interface BucketSpec {
  /** `METHOD /route/:template`: what the bucket hash is made of. */
  readonly name: string;
  /** The opaque `X-RateLimit-Bucket` value. */
  readonly hash: string;
  readonly group: BucketGroup;
  /** Path parameters that split the bucket's counter, in order. */
  readonly majorParams: readonly string[];
  /** Whether the caller's global limit applies (not to interaction callbacks and webhooks, whose credential is the path). */
  readonly global: boolean;
  /** Whether the path's major parameters identify the caller (token in path) rather than an Authorization header. */
  readonly pathIsCaller: boolean;
}

/** Path parameter names that are major parameters in v10 (a webhook's id and token among them). */
const MAJOR_PARAMS = ['applicationId', 'guildId', 'channelId', 'interactionId', 'webhookId', 'token'] as const;

const VERSION_PREFIX = /^\/api\/v\d+(?=\/)/;
const COMMANDS = /^\/applications\/:applicationId(?:\/guilds\/:guildId)?\/commands(?:\/:commandId)?$/;
const PERMISSIONS = /\/permissions$/;
const CALLBACK = /^\/interactions\/:interactionId\/:token\/callback$/;
/** An interaction's webhook (`:applicationId`) or a channel webhook (`:webhookId`), by its token. */
const WEBHOOK = /^\/webhooks\/:(?:applicationId|webhookId)\/:token(?:\/|$)/;

/** The route template as v9 and v10 share it. */
export function routeOf(template: string): string {
  return template.replace(VERSION_PREFIX, '');
}

function groupOf(method: string, route: string): BucketGroup {
  if (CALLBACK.test(route)) return 'interactionCallback';
  if (WEBHOOK.test(route)) return 'webhook';
  if (method === 'GET') return 'reads';
  if (PERMISSIONS.test(route)) return 'permissionWrites';
  if (COMMANDS.test(route)) return method === 'PUT' && !route.endsWith(':commandId') ? 'commandBulk' : 'commandWrites';
  return 'other';
}

/**
 * An opaque, stable id for a bucket: 32 hex digits of two FNV-1a 32-bit hashes (no secret goes
 * in, so no cryptographic hash is needed; stable across nodes and restarts).
 */
export function bucketHash(name: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(a)}${hex(b)}${hex(Math.imul(a, 0x9e3779b1) >>> 0)}${hex(Math.imul(b ^ a, 0x85ebca6b) >>> 0)}`;
}

/**
 * The bucket of `method` on the route `template` (with or without its `/api/vN` prefix). HEAD,
 * which Fastify adds beside every GET, is a GET without its body: it shares the GET's bucket
 * rather than falling into a write group with a hash of its own.
 */
export function bucketOf(requestMethod: string, template: string): BucketSpec {
  const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
  const route = routeOf(template);
  const name = `${method} ${route}`;
  const group = groupOf(method, route);
  const pathIsCaller = group === 'interactionCallback' || group === 'webhook';
  const params = new Set(Array.from(route.matchAll(/:(\w+)/g), (match) => match[1]));
  return {
    name,
    hash: bucketHash(name),
    group,
    majorParams: MAJOR_PARAMS.filter((param) => params.has(param)),
    global: !pathIsCaller,
    pathIsCaller,
  };
}
