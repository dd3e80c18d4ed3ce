/**
 * Who may call a route, declared next to its schema. Guards in `onRequest` only admit or refuse a
 * kind of caller (401, before the body is read); guards in `preHandler` decide what an admitted
 * caller may do with the path's resources (403), after the body, as v10 orders its errors. Each
 * guard reads `request.principal`, set once by the authentication hook (./authentication.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../core/io/errors.js';
import type { Guild, User } from '../core/world/types.js';
import type { Viewer } from '../core/world/viewer.js';
import type { StoredApplication } from '../store/store.js';
import { sameSecret } from '../store/tokens.js';
import { Scope } from '../resources/oauth2/rules/scopes.js';
import type { Principal } from '../resources/applications/principal-lookup.js';
import { guard } from './authentication.js';
import { checkCredential } from './credential-throttle.js';
import { carriesBody } from './empty-body.js';

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
type AppPrincipal = Exclude<Principal, { kind: 'user' }>;

/**
 * An onRequest guard: a body is not drained, so a request carrying one has its connection closed
 * once the 401 is sent; one without keeps its connection (a refusal costs less than a success).
 */
function admit(admits: (principal: Principal) => boolean): Guard {
  return guard(async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.principal && admits(request.principal)) return;
    if (carriesBody(request)) reply.header('connection', 'close');
    throw apiError('Unauthorized');
  });
}

/** onRequest: a user of the client (`Authorization: <token>`). */
export const requireUser = admit((p) => p.kind === 'user');
/** onRequest: an app, by its bot token or a Bearer token. */
export const requireApp = admit((p) => p.kind !== 'user');
/** onRequest: an app's bot token only. */
export const requireBot = admit((p) => p.kind === 'bot');
/** onRequest: any valid token. */
export const requireAnyCaller = admit(() => true);

/** preHandler: a user or a bot, not a Bearer token (the caller was admitted by `requireAnyCaller`). */
export const requireUserOrBot: Guard = guard(async (request: FastifyRequest) => {
  const kind = request.principal?.kind;
  if (kind !== 'user' && kind !== 'bot') throw apiError('Unauthorized');
});

/** The app caller, refused unless it is the app the path names. */
function ownApp(request: FastifyRequest): AppPrincipal {
  const principal = request.principal;
  if (!principal || principal.kind === 'user') throw apiError('Unauthorized');
  const { applicationId } = request.params as { applicationId?: string };
  if (principal.app.id !== applicationId) throw apiError('NotAuthorizedForApplication');
  return principal;
}

/**
 * preHandler of the applications/{id}/commands family: the caller must be that app's bot, or a
 * Bearer token of that app with `applications.commands.update`. Another app's token learns
 * nothing of this one.
 */
export const requireCommandsCaller: Guard = guard(async (request: FastifyRequest) => {
  const principal = ownApp(request);
  if (principal.kind === 'bearer' && !principal.token.scopes.includes(Scope.CommandsUpdate))
    throw apiError('MissingOAuth2Scope');
});

/**
 * preHandler of an application's own resources (`/applications/{application.id}/...`: its emojis,
 * its Activity instances): the caller is the app the path names; another app's token is 20012 and
 * learns nothing of this one.
 */
export const requireOwnApp: Guard = guard(async (request: FastifyRequest) => {
  ownApp(request);
});

/** Finds a guild by the path's id if the app is installed there for commands. */
export interface InstalledGuilds {
  /** The guild holds only the members of `memberIds` (none when absent): no other member is read. */
  installedGuild(applicationId: string, guildId: string, memberIds?: readonly string[]): Promise<Guild | null>;
}

/**
 * preHandler: the caller is the path's app, and the path's guild has it installed for commands
 * (else Missing Access, also for a guild that does not exist). Sets `request.guild`, holding the
 * members `namedMembers` names for the request (none by default).
 */
export function requireAppInGuild(
  guilds: InstalledGuilds,
  namedMembers: (request: FastifyRequest) => readonly string[] = () => [],
): Guard {
  return guard(async (request: FastifyRequest) => {
    const principal = ownApp(request);
    const { guildId } = request.params as { guildId?: string };
    const guild =
      guildId === undefined ? null : await guilds.installedGuild(principal.app.id, guildId, namedMembers(request));
    if (!guild) throw apiError('MissingAccess');
    request.guild = guild;
  });
}

/** onRequest of the admin API: its own secret, compared in constant time, under the failed-credential throttle. */
export function requireAdminToken(adminToken: string): Guard {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    if (!header) throw apiError('Unauthorized');
    const secret = header.replace(/^(Bearer|Admin)\s+/i, '');
    const admitted = await checkCredential(request, reply, () => (sameSecret(secret, adminToken) ? true : null));
    if (!admitted) throw apiError('Unauthorized');
  };
}

/** A guard this route declares was left out: a mistake in the route table, never the caller's. */
export function missingGuard(what: string): Error {
  return new Error(`route reads ${what} without the guard that sets it`);
}

/** The admitted caller (any guard). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw missingGuard('the principal');
  return request.principal;
}

/** The app calling, after `requireApp` or `requireBot`. */
export function appOf(request: FastifyRequest): StoredApplication {
  const principal = principalOf(request);
  if (principal.kind === 'user') throw missingGuard('an app caller');
  return principal.app;
}

/** The user calling, after `requireUser`. */
export function userOf(request: FastifyRequest): User {
  const principal = principalOf(request);
  if (principal.kind !== 'user') throw missingGuard('a user caller');
  return principal.user;
}

/** The path's guild, after `requireAppInGuild`. */
export function guildOf(request: FastifyRequest): Guild {
  if (!request.guild) throw missingGuard('the guild');
  return request.guild;
}

/** The caller as a reader of the world, after `requireUserOrBot`. */
export function viewerOf(request: FastifyRequest): Viewer {
  const principal = principalOf(request);
  if (principal.kind === 'bot') return { kind: 'bot', applicationId: principal.app.id };
  if (principal.kind === 'user') return { kind: 'user', userId: principal.user.id };
  throw missingGuard('a user or bot caller');
}
