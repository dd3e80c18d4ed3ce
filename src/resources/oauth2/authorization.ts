/**
 * The authorization endpoint's decisions (docs/oauth2.md): reading the authorize query, what the
 * consent page shows, what Authorize and Cancel do (installs, the recorded consent, the code), and
 * `prompt=none`. The page itself and its forms are the routes' (src/http/routes/oauth2-pages.ts).
 */
import { ApplicationIntegrationType } from 'discord-api-types/v10';
import { randomUUID } from 'node:crypto';
import {
  checkAuthorizeQuery,
  clientIdOf,
  type AuthorizationRequest,
  type AuthorizeQuery,
  type AuthorizeReading,
} from './rules/authorize-request.js';
import { mayManageGuild, withheldPermissions, withInstall } from './rules/install.js';
import { withQuery } from './rules/redirect.js';
import { coversScopes, grantsToken, installsApp, Scope, SCOPE_WORDING } from './rules/scopes.js';
import { flagNames } from '../../core/permissions/flag-names.js';
import type { Guild, User } from '../../core/world/types.js';
import type { GuildMemberStore, OAuth2GrantStore, StoredApplication, WorldStore } from '../../store/store.js';
import { invalidRequest } from './oauth2-error.js';
import { newToken } from './tokens.js';

/** An authorization code is redeemable this long after it is issued (ms; RFC 6749 §4.1.2 advises at most 10 minutes). */
export const AUTHORIZATION_CODE_TTL_MS = 600_000;

/** The app (`world`), the user's guilds with their member (`members`), codes and the user's authorizations (`grants`). */
export interface AuthorizationStore {
  readonly world: Pick<WorldStore, 'getApplication'>;
  readonly members: Pick<GuildMemberStore, 'getGuildWithMembers' | 'guildIdsOfMember'>;
  readonly grants: Pick<OAuth2GrantStore, 'putAuthorizationCode' | 'putUserAuthorization' | 'getUserAuthorization'>;
}

/** Installs an app in a guild and tells the bots (the world service's job). */
export interface GuildInstaller {
  changeGuild(guildId: string, change: (guild: Guild) => Guild): Promise<boolean>;
}

/** A guild of the consent page's picker. */
export interface ConsentGuild {
  id: string;
  name: string;
  /** Requested bot permissions the user does not hold there: the bot will not get them (v10 flag names). */
  withheld: string[];
}

/** What the consent page shows for a request and a signed-in user. */
export interface ConsentView {
  appName: string;
  scopes: { scope: string; words: string }[];
  /**
   * A guild install: the guilds the user may install in (the requested one alone when selection is
   * disabled), each with the names of the requested bot permissions the user cannot grant there.
   */
  guilds: ConsentGuild[] | null;
  userInstall: boolean;
}

/** Where Authorize or Cancel sends the browser: back to the client, or a page saying what happened. */
export type AuthorizeOutcome = { redirect: string } | { done: string };

const installsInGuild = (request: AuthorizationRequest) =>
  installsApp(request.scopes) && request.integrationType === ApplicationIntegrationType.GuildInstall;
const installsForUser = (request: AuthorizationRequest) =>
  installsApp(request.scopes) && request.integrationType === ApplicationIntegrationType.UserInstall;

export class OAuth2Authorization {
  constructor(
    private readonly store: AuthorizationStore,
    private readonly now: () => number,
    private readonly installer: GuildInstaller,
  ) {}

  async read(query: AuthorizeQuery): Promise<AuthorizeReading> {
    const clientId = clientIdOf(query);
    return checkAuthorizeQuery(clientId ? await this.store.world.getApplication(clientId) : null, query);
  }

  async consentView(request: AuthorizationRequest, user: User): Promise<ConsentView> {
    const app = await this.appOf(request);
    return {
      appName: app.name,
      scopes: request.scopes.map((scope) => ({ scope, words: SCOPE_WORDING[scope] ?? scope })),
      guilds: installsInGuild(request) ? await this.manageableGuilds(request, user) : null,
      userInstall: installsForUser(request),
    };
  }

  /** prompt=none: approve at once when the user authorized these scopes before; else `consent_required`. */
  async silentOutcome(request: AuthorizationRequest, user: User | null): Promise<AuthorizeOutcome> {
    if (!user) return this.refusal(request, 'login_required', 'The user is not signed in');
    const earlier = await this.store.grants.getUserAuthorization(request.clientId, user.id);
    if (!earlier || installsApp(request.scopes) || !coversScopes(earlier.scopes, request.scopes)) {
      return this.refusal(request, 'consent_required', 'The user has not authorized these scopes');
    }
    return this.approve(request, user, null);
  }

  /** Authorize: installs what the scopes install, records the consent, and issues a code when a token was asked for. */
  async approve(request: AuthorizationRequest, user: User, chosenGuildId: string | null): Promise<AuthorizeOutcome> {
    const app = await this.appOf(request);
    const earlier = await this.store.grants.getUserAuthorization(app.id, user.id);
    let installedGuild: string | null = null;
    let installedPermissions = '0';
    if (installsInGuild(request)) {
      const guildId = request.disableGuildSelect ? request.guildId : (chosenGuildId ?? request.guildId);
      const guild = guildId ? await this.store.members.getGuildWithMembers(guildId, [user.id]) : null;
      if (!guild || !mayManageGuild(guild, user.id)) {
        return this.refusal(request, 'invalid_request', 'Choose a server you may manage');
      }
      await this.installer.changeGuild(guild.id, (current) => {
        // Decided on the guild as the change finds it: what the user holds now is what they may grant.
        const changed = withInstall(current, app.id, request.scopes, request.permissions, user.id);
        installedPermissions = changed.installs.find((i) => i.application_id === app.id)?.permissions ?? '0';
        return changed;
      });
      installedGuild = guild.id;
    }
    await this.store.grants.putUserAuthorization({
      application_id: app.id,
      user_id: user.id,
      scopes: [...new Set([...(earlier?.scopes ?? []), ...request.scopes])],
      user_install: (earlier?.user_install ?? false) || installsForUser(request),
    });
    // The redirect names the permissions the bot holds now, not those asked for.
    const guildParams = installedGuild ? { guild_id: installedGuild, permissions: installedPermissions } : {};
    if (request.redirectUri === null) {
      return { done: installedGuild ? `${app.name} was added to the server.` : `${app.name} was authorized.` };
    }
    if (!grantsToken(request.scopes)) {
      return { redirect: withQuery(request.redirectUri, { ...guildParams, state: request.state }) };
    }
    const code = newToken();
    await this.store.grants.putAuthorizationCode(code, {
      grant_id: randomUUID(),
      application_id: app.id,
      user_id: user.id,
      scopes: request.scopes,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      code_challenge_method: request.codeChallengeMethod,
      nonce: request.nonce,
      expires_at: this.now() + AUTHORIZATION_CODE_TTL_MS,
    });
    return { redirect: withQuery(request.redirectUri, { code, state: request.state, ...guildParams }) };
  }

  /** Cancel: `access_denied` with the state (RFC 6749 §4.1.2.1). */
  deny(request: AuthorizationRequest): AuthorizeOutcome {
    return this.refusal(request, 'access_denied', 'The user denied the request');
  }

  private refusal(request: AuthorizationRequest, error: string, description: string): AuthorizeOutcome {
    if (request.redirectUri === null) return { done: description };
    return {
      redirect: withQuery(request.redirectUri, { error, error_description: description, state: request.state }),
    };
  }

  private async appOf(request: AuthorizationRequest): Promise<StoredApplication> {
    const app = await this.store.world.getApplication(request.clientId);
    if (!app) throw invalidRequest('Unknown application');
    return app;
  }

  private async manageableGuilds(request: AuthorizationRequest, user: User): Promise<ConsentGuild[]> {
    const ids =
      request.disableGuildSelect && request.guildId
        ? [request.guildId]
        : await this.store.members.guildIdsOfMember(user.id);
    const asked = request.scopes.includes(Scope.Bot) ? request.permissions : null;
    const guilds: ConsentGuild[] = [];
    for (const id of ids) {
      const guild = await this.store.members.getGuildWithMembers(id, [user.id]);
      if (!guild || !mayManageGuild(guild, user.id)) continue;
      guilds.push({ id: guild.id, name: guild.name, withheld: flagNames(withheldPermissions(guild, user.id, asked)) });
    }
    return guilds;
  }
}
