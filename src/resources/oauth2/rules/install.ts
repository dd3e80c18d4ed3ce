/**
 * Installing an app through the authorization endpoint: who may choose a guild, which bot
 * permissions a user may grant there, and the guild it leaves.
 */
import { basePermissions } from '../../../core/permissions/channel-permissions.js';
import {
  formatPermissions,
  hasAll,
  isDecimalBitSet,
  MANAGE_GUILD,
  NONE,
  parsePermissions,
} from '../../../core/permissions/bits.js';
import { memberOf } from '../../../core/world/member-index.js';
import type { Guild, Install } from '../../../core/world/types.js';
import { Scope } from './scopes.js';

/** A user may install apps in a guild they own or hold MANAGE_GUILD in (administrators hold every bit). */
export function mayManageGuild(guild: Guild, userId: string): boolean {
  const member = memberOf(guild, userId);
  return member !== undefined && hasAll(basePermissions(guild, member), MANAGE_GUILD);
}

/**
 * The bot permissions a user may grant in a guild: the bits they hold there themselves (v10),
 * every defined bit for the owner and administrators; nothing for a non-member.
 */
export function grantablePermissions(guild: Guild, userId: string): bigint {
  const member = memberOf(guild, userId);
  return member === undefined ? NONE : basePermissions(guild, member);
}

/** The requested bits a user cannot grant in the guild (the consent page names them). */
export function withheldPermissions(guild: Guild, userId: string, requested: string | null): bigint {
  return parsePermissions(requested ?? '0') & ~grantablePermissions(guild, userId);
}

/**
 * The bot's permissions after a user authorizes `requested`: the user decides only the bits they
 * may grant (granting the requested ones, clearing the others); every other bit stays as the
 * earlier install had it. So an authorization never raises a bot beyond what its user holds, and
 * a lesser user's re-authorization never takes away what a greater one granted
 * (docs/decisions.md#oauth2-authorization-server).
 */
export function grantedBotPermissions(requested: bigint, grantable: bigint, earlier: bigint): bigint {
  return (requested & grantable) | (earlier & ~grantable);
}

/**
 * The guild with the app installed by `userId` with these scopes: the install-giving scopes of an
 * earlier install are kept (adding `bot` later keeps `applications.commands`), and with `bot` the
 * bot's role becomes what `grantedBotPermissions` allows; without `bot` the earlier permissions stay.
 */
export function withInstall(
  guild: Guild,
  applicationId: string,
  scopes: readonly string[],
  requested: string | null,
  userId: string,
): Guild {
  const earlier = guild.installs.find((i) => i.application_id === applicationId);
  const installScopes = new Set([
    ...(earlier?.scopes ?? []),
    ...scopes.filter((s) => s === Scope.Bot || s === Scope.Commands),
  ]);
  const botPermissions = () =>
    formatPermissions(
      grantedBotPermissions(
        parsePermissions(requested ?? '0'),
        grantablePermissions(guild, userId),
        parsePermissions(earlier?.permissions ?? null),
      ),
    );
  const install: Install = {
    application_id: applicationId,
    scopes: [...installScopes],
    permissions: scopes.includes(Scope.Bot) ? botPermissions() : (earlier?.permissions ?? null),
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
