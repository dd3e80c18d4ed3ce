/** What both stores do alike around `changeGuildStructure`: the new document and what it drops. */
import type { Emoji, Guild, Member, Role } from '../../core/world/types.js';
import type { GuildStructure } from './store.js';

/** The guild's document (members left out) with the structure written in. */
export function withStructure(document: Guild, structure: GuildStructure): Guild {
  const channelIds = new Set(structure.channels.map((c) => c.id));
  const emojis = emojisOfRoles(structure.emojis ?? document.emojis, structure.roles);
  const stickers = structure.stickers ?? document.stickers;
  return {
    ...document,
    members: [],
    roles: structure.roles,
    channels: structure.channels,
    // The world file's messages of a channel that is gone go with it.
    messages: document.messages.filter((m) => channelIds.has(m.channel_id)),
    ...(emojis ? { emojis } : {}),
    ...(stickers ? { stickers } : {}),
  };
}

/** The emojis with a deleted role taken from those it locked (v10: the emoji is then everyone's, or its other roles'). */
function emojisOfRoles(emojis: Emoji[] | undefined, roles: readonly Role[]): Emoji[] | undefined {
  if (!emojis?.some((emoji) => emoji.roles.length > 0)) return emojis;
  const kept = new Set(roles.map((role) => role.id));
  return emojis.map((emoji) =>
    emoji.roles.every((id) => kept.has(id)) ? emoji : { ...emoji, roles: emoji.roles.filter((id) => kept.has(id)) },
  );
}

/** The ids of `before` that `after` no longer has. */
function gone(before: readonly { id: string }[], after: readonly { id: string }[]): string[] {
  const kept = new Set(after.map((item) => item.id));
  return before.filter((item) => !kept.has(item.id)).map((item) => item.id);
}

/** What a change drops: roles to take from the members, channels whose rows go. */
export function structureDrops(before: Guild, after: Guild): { roleIds: string[]; channelIds: string[] } {
  return { roleIds: gone(before.roles, after.roles), channelIds: gone(before.channels, after.channels) };
}

/** The member without the roles of `roleIds`; null when it had none of them (nothing to write). */
export function withoutRoles(member: Member, roleIds: ReadonlySet<string>): Member | null {
  if (!member.roles.some((id) => roleIds.has(id))) return null;
  return { ...member, roles: member.roles.filter((id) => !roleIds.has(id)) };
}
