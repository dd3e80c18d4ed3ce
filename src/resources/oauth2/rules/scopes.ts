/**
 * OAuth2 scopes slashd grants (docs/oauth2.md): which exist, which a client may grant itself, which
 * install the app, and the SDK scopes that stand for a set of others.
 */

export const Scope = {
  Identify: 'identify',
  Email: 'email',
  Guilds: 'guilds',
  GuildsMembersRead: 'guilds.members.read',
  GuildsJoin: 'guilds.join',
  Commands: 'applications.commands',
  CommandsUpdate: 'applications.commands.update',
  CommandsPermissionsUpdate: 'applications.commands.permissions.update',
  Bot: 'bot',
  OpenId: 'openid',
  Connections: 'connections',
  RoleConnectionsWrite: 'role_connections.write',
  SdkSocialLayer: 'sdk.social_layer',
  SdkSocialLayerPresence: 'sdk.social_layer_presence',
} as const;

/** Every scope the authorization and token endpoints accept. */
export const KNOWN_SCOPES: ReadonlySet<string> = new Set(Object.values(Scope));

/**
 * What each SDK scope grants besides itself. The game SDK asks for one scope and expects the set
 * its integration needs: the presence layer needs to know who the player is (identify, and an ID
 * token to sign them in with: openid); the social layer adds the player's guilds and e-mail.
 */
export const SDK_SCOPE_EXPANSION: Readonly<Record<string, readonly string[]>> = Object.freeze({
  [Scope.SdkSocialLayerPresence]: [Scope.Identify, Scope.OpenId],
  [Scope.SdkSocialLayer]: [Scope.SdkSocialLayerPresence, Scope.Identify, Scope.OpenId, Scope.Email, Scope.Guilds],
});

/**
 * Scopes a client may grant itself with its secret alone (client credentials: the token acts for
 * the app's owner). Anything a user must grant, `applications.commands.permissions.update` above
 * all, is absent: it comes only from an authorization code, so a leaked secret cannot edit permissions.
 */
export const CLIENT_CREDENTIALS_SCOPES: ReadonlySet<string> = new Set([
  Scope.CommandsUpdate,
  Scope.Commands,
  Scope.Identify,
  Scope.Guilds,
  Scope.Connections,
  Scope.Email,
]);

/** Scopes that install the app (its commands, and with `bot` its bot user) rather than grant a token. */
export const INSTALL_SCOPES: ReadonlySet<string> = new Set([Scope.Bot, Scope.Commands]);

/** Longest `scope` parameter read (characters): every known scope spelled out fits many times over. */
export const MAX_SCOPE_PARAMETER_LENGTH = 1000;

/** The scopes read, or the first scope that is not one (OAuth2 refuses the request with `invalid_scope`, not field issues). */
export type ScopeReading = { readonly scopes: string[] } | { readonly unknown: string };

/**
 * The scopes of a space-separated `scope` parameter, SDK scopes expanded, each once, in the order
 * first named; the first unknown scope refuses the whole request (RFC 6749 `invalid_scope`).
 */
export function parseScopes(text: string | undefined): ScopeReading {
  if (text !== undefined && text.length > MAX_SCOPE_PARAMETER_LENGTH) return { unknown: '(too long)' };
  const scopes = new Set<string>();
  for (const scope of (text ?? '').split(/[ +]+/).filter(Boolean)) {
    if (!KNOWN_SCOPES.has(scope)) return { unknown: scope };
    scopes.add(scope);
    for (const implied of SDK_SCOPE_EXPANSION[scope] ?? []) scopes.add(implied);
  }
  return { scopes: [...scopes] };
}

/** The first scope a client may not grant itself; undefined when it may grant them all. */
export function refusedClientCredentialsScope(scopes: readonly string[]): string | undefined {
  return scopes.find((s) => !CLIENT_CREDENTIALS_SCOPES.has(s));
}

/** True when the scopes install the app somewhere (a guild, or the user's account). */
export function installsApp(scopes: readonly string[]): boolean {
  return scopes.some((s) => INSTALL_SCOPES.has(s));
}

/** True when an authorization of these scopes yields a token (anything beyond an install). */
export function grantsToken(scopes: readonly string[]): boolean {
  return scopes.some((s) => !INSTALL_SCOPES.has(s));
}

/** Every scope of `wanted` is among `granted`. */
export function coversScopes(granted: readonly string[], wanted: readonly string[]): boolean {
  const have = new Set(granted);
  return wanted.every((s) => have.has(s));
}

/** How the consent page words each scope (what the app will be able to do). */
export const SCOPE_WORDING: Readonly<Record<string, string>> = Object.freeze({
  [Scope.Identify]: 'Know your username and avatar',
  [Scope.Email]: 'Know your e-mail address',
  [Scope.Guilds]: 'Know which servers you are in',
  [Scope.GuildsMembersRead]: 'Read your member profile in your servers',
  [Scope.GuildsJoin]: 'Join servers for you',
  [Scope.Commands]: 'Add commands',
  [Scope.CommandsUpdate]: 'Update its own commands',
  [Scope.CommandsPermissionsUpdate]: 'Change who may use its commands in servers you manage',
  [Scope.Bot]: 'Add a bot to a server',
  [Scope.OpenId]: 'Sign you in with your account (OpenID Connect)',
  [Scope.Connections]: 'Know your linked accounts',
  [Scope.SdkSocialLayer]: 'Use the social layer of its game SDK',
  [Scope.SdkSocialLayerPresence]: 'Show your presence through its game SDK',
});
