/**
 * Everything an invocation is decided on, read from the store once: the app, the command, where
 * it runs (guild, channel, member) and who invokes it.
 */
import type { StoredCommand } from '../../core/commands/model.js';
import { apiError } from '../../core/io/errors.js';
import type { InvokeRequest } from './rules/request.js';
import { canReadMessages, canViewChannel } from '../../core/permissions/channel-permissions.js';
import { messageVisibleTo, type StoredMessage } from '../messages/rules/messages.js';
import { overwritesFor } from '../../core/permissions/command-permissions.js';
import type { CommandPermission } from '../../core/permissions/command-permissions.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import type { Channel, GroupDm, Guild, Member, User } from '../../core/world/types.js';
import { ChannelType } from 'discord-api-types/v10';
import type { Store, StoredApplication } from '../../store/store.js';
import { memberOf } from '../../core/world/member-index.js';

/** The stores a scene is read from. */
type SceneStores = Pick<Store, 'world' | 'members' | 'oauth2Grants' | 'commands' | 'dms'>;

/** Where a user acts: a channel of a guild they are a member of and can view, or the bot's DM. */
export interface PlaceInGuild {
  guild: Guild;
  member: Member;
  channel: Channel;
}

export interface Place {
  user: User;
  /** null for the bot's DM and a group DM. */
  inGuild: PlaceInGuild | null;
  /** In the bot's DM, a stand-in channel object; in a group DM, the group DM as a channel (type 3). */
  channel: Channel;
  /** The group DM the user acts in (context PRIVATE_CHANNEL); null elsewhere. */
  groupDm: GroupDm | null;
}

export interface GuildScene extends PlaceInGuild {
  installed: boolean;
  commandPermissions: readonly CommandPermission[] | null;
  appPermissions: readonly CommandPermission[] | null;
}

export interface InvocationScene {
  app: StoredApplication;
  user: User;
  command: StoredCommand;
  /** null for the bot's DM. */
  inGuild: GuildScene | null;
  /** In a DM, a stand-in channel object: the world has no DM channels. */
  channel: Channel;
  /** The user installed the app to their account (a user install): its user-installable commands follow them. */
  userInstalled: boolean;
  /** The group DM it is invoked in; null elsewhere. */
  groupDm: GroupDm | null;
}

/** From the scope lists, which the store keeps parsed: a command id names one in either scope. */
async function findCommand(store: SceneStores, request: InvokeRequest): Promise<StoredCommand> {
  const applicationId = request.application_id;
  const byId = (commands: readonly StoredCommand[]) => commands.find((c) => c.id === request.data.id);
  const found =
    byId(await store.commands.listCommands({ applicationId, guildId: null })) ??
    (request.guild_id
      ? byId(await store.commands.listCommands({ applicationId, guildId: request.guild_id }))
      : undefined);
  if (!found) throw apiError('UnknownApplicationCommand');
  return found;
}

/** Where the user acts (the same rules for invoking, clicking and submitting); throws the v10 refusal. */
export async function loadPlace(
  store: Pick<Store, 'members' | 'dms'>,
  user: User,
  where: { guild_id: string | null; channel_id: string },
): Promise<Place> {
  if (where.guild_id === null) {
    // The world has no DM channels: an id the world knows is a guild channel, never a DM's. Refused
    // as unknown, so that a DM invocation neither reaches a guild channel nor reveals it exists.
    if (await store.members.findGuildByChannelWithMembers(where.channel_id, [])) throw apiError('UnknownChannel');
    const groupDm = await store.dms.getGroupDm(where.channel_id);
    if (groupDm) {
      // A group DM the user is not in is refused as unknown, as a guild channel they cannot view.
      if (!groupDm.recipients.includes(user.id)) throw apiError('UnknownChannel');
      return { user, inGuild: null, channel: groupDmChannel(groupDm), groupDm };
    }
    const channel: Channel = {
      id: where.channel_id,
      type: 1,
      name: '',
      nsfw: false,
      parent_id: null,
      permission_overwrites: [],
    };
    return { user, inGuild: null, channel, groupDm: null };
  }
  // Only the user's member is read; what the request names is read by `withNamedMembers`.
  const guild = await store.members.getGuildWithMembers(where.guild_id, [user.id]);
  if (!guild) throw apiError('UnknownGuild');
  const member = memberOf(guild, user.id);
  if (!member) throw apiError('MissingAccess');
  const channel = guild.channels.find((c) => c.id === where.channel_id);
  // A channel the member cannot view is refused as unknown: v10 does not reveal that it exists.
  if (!channel || !canViewChannel(guild, member, channel)) throw apiError('UnknownChannel');
  return { user, inGuild: { guild, member, channel }, channel, groupDm: null };
}

/** A group DM as the channel an interaction names (type 3: no guild, no overwrites). */
function groupDmChannel(groupDm: GroupDm): Channel {
  return {
    id: groupDm.id,
    type: ChannelType.GroupDM,
    name: groupDm.name ?? '',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [],
  };
}

/**
 * The place (or scene) with its guild holding the members of `userIds` too, besides the user's:
 * the users a request names are resolved as members against it, and no other member is read.
 */
export async function withNamedMembers<P extends { user: User; inGuild: PlaceInGuild | null }>(
  store: Pick<Store, 'members'>,
  place: P,
  userIds: readonly string[],
): Promise<P> {
  const inGuild = place.inGuild;
  const named = userIds.filter((id) => id !== place.user.id);
  if (!inGuild || named.length === 0) return place;
  const guild = await store.members.getGuildWithMembers(inGuild.guild.id, [place.user.id, ...named]);
  return guild ? { ...place, inGuild: { ...inGuild, guild } } : place;
}

/** True when the user may read the channel's history (always in the bot's DM). */
export function mayReadHistory(place: Place): boolean {
  if (!place.inGuild) return true;
  const { guild, member, channel } = place.inGuild;
  return canReadMessages(guild, member, channel);
}

/**
 * Whether the user may read one of slashd's messages in the place's channel. A DM's channel id is
 * the client's word (the world has no DM channels), so there only the user's own interactions'
 * messages count: another user's DM under the same id stays unreadable.
 */
export function messageReadableIn(place: Place, message: StoredMessage): boolean {
  if (!messageVisibleTo(message, place.user.id) || !mayReadHistory(place)) return false;
  if (place.inGuild) return message.guild_id === place.inGuild.guild.id;
  // A group DM is the world's: every recipient reads what was said in it.
  if (place.groupDm) return message.guild_id === null && message.channel_id === place.groupDm.id;
  return message.guild_id === null && message.interaction_metadata?.user_id === place.user.id;
}

/**
 * The guild as the user sees it, for resolving ids: a channel they cannot view is refused as an
 * unknown channel, and the app never learns of it.
 */
export function viewableGuild(place: Place): Guild | null {
  if (!place.inGuild) return null;
  const { guild, member } = place.inGuild;
  return { ...guild, channels: guild.channels.filter((channel) => canViewChannel(guild, member, channel)) };
}

export async function loadScene(store: SceneStores, user: User, request: InvokeRequest): Promise<InvocationScene> {
  const app = await store.world.getApplication(request.application_id);
  if (!app) throw apiError('UnknownApplication');
  const command = await findCommand(store, request);
  const place = await loadPlace(store, user, request);
  const authorization = await store.oauth2Grants.getUserAuthorization(app.id, user.id);
  const userInstalled = authorization?.user_install ?? false;
  if (!place.inGuild) {
    return { app, user, command, inGuild: null, channel: place.channel, userInstalled, groupDm: place.groupDm };
  }
  const { guild, member, channel } = place.inGuild;
  const permissions = await store.commands.listCommandPermissions(app.id, guild.id);
  return {
    app,
    user,
    command,
    channel,
    userInstalled,
    groupDm: null,
    inGuild: {
      guild,
      member,
      channel,
      installed: isInstalledForCommands(guild, app.id),
      commandPermissions: overwritesFor(permissions, command.id),
      appPermissions: overwritesFor(permissions, app.id),
    },
  };
}
