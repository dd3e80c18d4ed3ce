/** Installing an app through the authorization endpoint: who may choose a guild, and the guild it leaves. */
import { basePermissions } from '../permissions/channel-permissions.js';
import { hasAll, isDecimalBitSet, MANAGE_GUILD } from '../permissions/bits.js';
import { memberOf } from '../world/member-index.js';
import type { Guild, Install } from '../world/types.js';
import { Scope } from './scopes.js';

/** The authorize URL's `integration_type`: where the app is installed. */
export const IntegrationTypeParam = { Guild: 0, User: 1 } as const;

/** A user may install apps in a guild they own or hold MANAGE_GUILD in (administrators hold every bit). */
export function mayManageGuild(guild: Guild, userId: string): boolean {
  const member = memberOf(guild, userId);
  return member !== undefined && hasAll(basePermissions(guild, member), MANAGE_GUILD);
}

/**
 * The guild with the app installed by these scopes: the install-giving scopes of an earlier
 * install are kept (adding `bot` later keeps `applications.commands`), and with `bot` the
 * requested `permissions` become the bot's role; without `bot` the earlier permissions stay.
 */
export function withInstall(
  guild: Guild,
  applicationId: string,
  scopes: readonly string[],
  permissions: string | null,
): Guild {
  const earlier = guild.installs.find((i) => i.application_id === applicationId);
  const installScopes = new Set([
    ...(earlier?.scopes ?? []),
    ...scopes.filter((s) => s === Scope.Bot || s === Scope.Commands),
  ]);
  const install: Install = {
    application_id: applicationId,
    scopes: [...installScopes],
    permissions: scopes.includes(Scope.Bot) ? (permissions ?? '0') : (earlier?.permissions ?? null),
  };
  const installs = earlier
    ? guild.installs.map((i) => (i.application_id === applicationId ? install : i))
    : [...guild.installs, install];
  return { ...guild, installs };
}

/** The `permissions` parameter as a bit set string; null when absent, undefined when malformed. */
export function readPermissionsParam(value: string | undefined): string | null | undefined {
  if (value === undefined || value === '') return null;
  return isDecimalBitSet(value) ? BigInt(value).toString() : undefined;
}
