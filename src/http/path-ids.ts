/**
 * Every id in a path is a snowflake, checked once here, before any guard, parser or store sees it:
 * a store must never meet `1%00` (PostgreSQL refuses a NUL byte in text with an error, not a miss),
 * 25 digits, or a sign. Which parameters are ids is read from each route's pattern as it is
 * registered (a name ending in `Id`, or `id`), so a new route is covered without naming it here.
 * A malformed id is answered as the route answers an id it does not know (what slashd answered
 * before this check, from its stores): the error of the collection the id stands in
 * (`/members/:userId` is Unknown Member, `/users/:userId` Unknown User), else of the id's name.
 * The admin API's PUT writes the object its last id names, so that id is a field of what is
 * written: a malformed one is a 50035 at that field (`id`, `user_id`), as its body reader says.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { apiError, invalidFormBody, type ApiError, type ErrorName } from '../core/io/errors.js';
import { reportNotSnowflake, type Issues } from '../core/io/report.js';
import { isSnowflake } from '../core/snowflake.js';

/** The error for an id by the path segment before it (the collection it names a member of). */
const UNKNOWN_IN_COLLECTION: Readonly<Record<string, ErrorName>> = {
  'activity-instances': 'UnknownActivityInstance',
  applications: 'UnknownApplication',
  attachments: 'UnknownChannel',
  bans: 'UnknownBan',
  channels: 'UnknownChannel',
  commands: 'UnknownApplicationCommand',
  emojis: 'UnknownEmoji',
  faults: 'NotFound',
  guilds: 'UnknownGuild',
  interactions: 'UnknownInteraction',
  members: 'UnknownMember',
  messages: 'UnknownMessage',
  permissions: 'UnknownOverwrite',
  pins: 'UnknownMessage',
  roles: 'UnknownRole',
  snapshots: 'UnknownSnapshot',
  'sticker-packs': 'UnknownStickerPack',
  stickers: 'UnknownSticker',
  'thread-members': 'UnknownMember',
  users: 'UnknownUser',
  webhooks: 'UnknownWebhook',
};

/** The error for an id by its parameter's name, where the segment before it names no collection. */
const UNKNOWN_BY_NAME: Readonly<Record<string, ErrorName>> = {
  applicationId: 'UnknownApplication',
  channelId: 'UnknownChannel',
  guildId: 'UnknownGuild',
  messageId: 'UnknownMessage',
  userId: 'UnknownUser',
};

/**
 * The admin API's own objects, whose absent ids are a plain 404 (`{"code": 0}`, not v10's): a
 * malformed id is answered the same.
 */
const ADMIN_PLAIN_NOT_FOUND: ReadonlySet<string> = new Set([
  '/admin/applications/:id',
  '/admin/applications/:id/command-creates',
  '/admin/guilds/:id',
  '/admin/users/:id',
]);

/** One id parameter of a route, and what a malformed value of it is answered with. */
export interface PathId {
  readonly name: string;
  /** The unknown-object error, or null where the id is a field of the object written. */
  readonly error: ErrorName | null;
}

/** `userId` as the body field it stands for, `user_id`. */
const fieldOf = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function refusal(id: PathId, value: unknown): ApiError {
  if (id.error !== null) return apiError(id.error);
  const issues: Issues = [];
  reportNotSnowflake(issues, [fieldOf(id.name)], value);
  return invalidFormBody(issues);
}

const isIdName = (name: string): boolean => name === 'id' || name.endsWith('Id');

/**
 * Words v10 takes in place of an id: the interaction webhook's `messages/@original`. Elsewhere the
 * word reaches the service as an id it does not know, as before this check.
 */
const ID_WORDS: ReadonlySet<string> = new Set(['@original']);

const isPathId = (value: string | undefined): boolean =>
  isSnowflake(value) || (value !== undefined && ID_WORDS.has(value));

/** The id parameters of a route pattern, in path order. */
export function pathIdsOf(method: string, url: string): PathId[] {
  const segments = url.split('/');
  const written = method === 'PUT' && url.startsWith('/admin/') ? segments.findLastIndex((s) => s.startsWith(':')) : -1;
  const ids: PathId[] = [];
  segments.forEach((segment, index) => {
    if (!segment.startsWith(':')) return;
    const name = segment.slice(1);
    if (!isIdName(name)) return;
    const before = segments[index - 1] ?? '';
    const error =
      index === written
        ? null
        : ADMIN_PLAIN_NOT_FOUND.has(url)
          ? 'NotFound'
          : (UNKNOWN_IN_COLLECTION[before] ?? UNKNOWN_BY_NAME[name] ?? 'NotFound');
    ids.push({ name, error });
  });
  return ids;
}

/** The routes registered on each server with at least one id parameter (tests walk them all). */
const routesWithIds = new WeakMap<FastifyInstance, { method: string; url: string; ids: PathId[] }[]>();

/** Every route of `app` with an id parameter, as registered so far. */
export function pathIdRoutes(app: FastifyInstance): readonly { method: string; url: string; ids: PathId[] }[] {
  return routesWithIds.get(app) ?? [];
}

type Hooks = RouteOptions['onRequest'];

function hookList(hooks: Hooks): unknown[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Adds the check to every route registered on `app` after this call. It is the last of a route's
 * onRequest hooks: after authentication and the 401 guards (a caller without a valid token learns
 * nothing more), before the body is read and before the preHandler guards look the ids up.
 */
export function checkPathIds(app: FastifyInstance): void {
  const list: { method: string; url: string; ids: PathId[] }[] = [];
  routesWithIds.set(app, list);
  app.addHook('onRoute', (route) => {
    const byMethod = new Map<string, PathId[]>();
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      const ids = pathIdsOf(method, route.url);
      if (ids.length === 0) continue;
      byMethod.set(method, ids);
      list.push({ method, url: route.url, ids });
    }
    if (byMethod.size === 0) return;
    const check = async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
      const params = request.params as Record<string, string | undefined>;
      for (const id of byMethod.get(request.method) ?? []) {
        const value = params[id.name];
        if (!isPathId(value)) throw refusal(id, value);
      }
    };
    route.onRequest = [...hookList(route.onRequest), check] as NonNullable<RouteOptions['onRequest']>;
  });
}
