/**
 * Names → ids in the world, the way a person refers to things: a user by username or id, a
 * channel by name (with or without `#`) or id, a guild by name or id, a role by name (with or
 * without `@`) or id. Names match without regard to case; an ambiguous name is an error that lists
 * the candidates.
 */
import type { Channel, Guild, Role, User, World } from '../../core/world/types.js';
import { UsageError } from '../usage.js';

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

function withoutPrefix(reference: string, prefix: string): string {
  return reference.startsWith(prefix) ? reference.slice(prefix.length) : reference;
}

export function findUser(world: World, reference: string): User {
  const name = withoutPrefix(reference, '@');
  const user = world.users.find((u) => u.id === reference) ?? world.users.find((u) => sameName(u.username, name));
  if (!user) {
    throw new UsageError(
      `no user '${reference}'; the users are: ${world.users.map((u) => u.username).join(', ')}`,
      false,
    );
  }
  return user;
}

export function findGuild(world: World, reference: string): Guild {
  const guild = world.guilds.find((g) => g.id === reference) ?? world.guilds.find((g) => sameName(g.name, reference));
  if (!guild) {
    throw new UsageError(
      `no guild '${reference}'; the guilds are: ${world.guilds.map((g) => g.name).join(', ')}`,
      false,
    );
  }
  return guild;
}

function findChannelIn(guild: Guild, reference: string): Channel | undefined {
  const name = withoutPrefix(reference, '#');
  return guild.channels.find((c) => c.id === reference) ?? guild.channels.find((c) => sameName(c.name, name));
}

/** The channel, and its guild: `guildReference` decides when several guilds have such a channel. */
export function findChannel(
  world: World,
  reference: string,
  guildReference?: string,
): { guild: Guild; channel: Channel } {
  const guilds = guildReference === undefined ? world.guilds : [findGuild(world, guildReference)];
  const found = guilds.flatMap((guild) => {
    const channel = findChannelIn(guild, reference);
    return channel ? [{ guild, channel }] : [];
  });
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    const names = found.map(({ guild }) => `'${guild.name}' (${guild.id})`).join(', ');
    throw new UsageError(`several guilds have a channel '${reference}': ${names}; say which with --guild`, false);
  }
  const where = guildReference === undefined ? '' : ` in '${guilds[0]!.name}'`;
  throw new UsageError(`no channel '${reference}'${where}; \`slashd world\` lists them`, false);
}

export function findRole(guild: Guild, reference: string): Role | undefined {
  const name = withoutPrefix(reference, '@');
  return guild.roles.find((r) => r.id === reference) ?? guild.roles.find((r) => sameName(r.name, name));
}

/** A user option's or USER command's target: a user by username or id. */
export function findUserId(world: World, reference: string): string {
  return findUser(world, reference).id;
}

export function findChannelId(guild: Guild, reference: string): string {
  const channel = findChannelIn(guild, reference);
  if (!channel) throw new UsageError(`no channel '${reference}' in '${guild.name}'`, false);
  return channel.id;
}

export function findRoleId(guild: Guild, reference: string): string {
  const role = findRole(guild, reference);
  if (!role) throw new UsageError(`no role '${reference}' in '${guild.name}'`, false);
  return role.id;
}
