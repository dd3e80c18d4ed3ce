/**
 * Everything an invocation is decided on, read from the store once: the app, the command, where
 * it runs (guild, channel, member) and who invokes it.
 */
import type { StoredCommand } from '../core/commands/model.js';
import { apiError } from '../core/io/errors.js';
import type { InvokeRequest } from '../core/invocation/request.js';
import { canViewChannel } from '../core/permissions/channel-permissions.js';
import { overwritesFor } from '../core/permissions/command-permissions.js';
import type { CommandPermission } from '../core/permissions/command-permissions.js';
import { isInstalledForCommands } from '../core/permissions/install.js';
import type { Channel, Guild, Member, User } from '../core/world/types.js';
import type { Store, StoredApplication } from '../store/store.js';
import { memberOf } from '../core/world/member-index.js';

/** The stores a scene is read from. */
type SceneStores = Pick<Store, 'world' | 'commands'>;

export interface GuildScene {
  guild: Guild;
  member: Member;
  channel: Channel;
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
  /** The user installed the app to their account (a user install): its user-installable commands work in DMs. */
  userInstalled: boolean;
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

export async function loadScene(store: SceneStores, user: User, request: InvokeRequest): Promise<InvocationScene> {
  const app = await store.world.getApplication(request.application_id);
  if (!app) throw apiError('UnknownApplication');
  const command = await findCommand(store, request);
  if (request.guild_id === null) {
    // The world has no DM channels: an id the world knows is a guild channel, never a DM's. Refused
    // as unknown, so that a DM invocation neither reaches a guild channel nor reveals it exists.
    if (await store.world.findGuildByChannel(request.channel_id)) throw apiError('UnknownChannel');
    const channel: Channel = {
      id: request.channel_id,
      type: 1,
      name: '',
      nsfw: false,
      parent_id: null,
      permission_overwrites: [],
    };
    const authorization = await store.world.getUserAuthorization(app.id, user.id);
    return { app, user, command, inGuild: null, channel, userInstalled: authorization?.user_install ?? false };
  }
  const guild = await store.world.getGuild(request.guild_id);
  if (!guild) throw apiError('UnknownGuild');
  const member = memberOf(guild, user.id);
  if (!member) throw apiError('MissingAccess');
  const channel = guild.channels.find((c) => c.id === request.channel_id);
  // A channel the member cannot view is refused as unknown: v10 does not reveal that it exists.
  if (!channel || !canViewChannel(guild, member, channel)) throw apiError('UnknownChannel');
  const permissions = await store.commands.listCommandPermissions(app.id, guild.id);
  return {
    app,
    user,
    command,
    channel,
    userInstalled: false,
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
