/**
 * A channel as its callers see it: the command picker (the application command index) for a
 * member who can view the channel, and its messages for a member or an installed app's bot that
 * may read its history. Anyone else gets Missing Access; a channel no guild has, Unknown Channel.
 */
import { ChannelType } from 'discord-api-types/v10';
import type { Locale } from '../../core/locales.js';
import { apiError } from '../../core/io/errors.js';
import { VIEW_CHANNEL, hasAll } from '../../core/permissions/bits.js';
import { appCanReadMessages, canReadMessages, canViewChannel } from '../../core/permissions/channel-permissions.js';
import { BOT_SCOPE, findInstall } from '../../core/permissions/install.js';
import type { Page } from '../../core/world/page-query.js';
import type { Application, Channel, Guild, User } from '../../core/world/types.js';
import type { GuildMemberStore } from '../../store/store.js';
import type { AppExplanation, CommandIndexService } from './service.js';
import type { MessageRenderer } from '../messages/renderer.js';
import { memberOf } from '../../core/world/member-index.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { DmChannelsService } from '../dms/service.js';

/** Who reads a channel's messages: a user of the client, or an app's bot. */
export type ChannelReader = { kind: 'user'; user: User } | { kind: 'bot'; app: Application };

/** The answer of the "Why not?" endpoint. */
export interface CommandIndexExplanation {
  /** null in a group DM. */
  guild_id: string | null;
  channel: { id: string; name: string; type: number };
  user: { id: string; username: string };
  applications: AppExplanation[];
}

export class ChannelsService {
  constructor(
    private readonly store: Pick<GuildMemberStore, 'findGuildByChannelWithMembers'>,
    private readonly commandIndex: CommandIndexService,
    private readonly renderer: MessageRenderer,
    /** DM channels, whose messages are theirs. */
    private readonly dms: DmChannelsService,
  ) {}

  /** The channel and its guild, holding only the reader's member (no other member is read). */
  private async find(channelId: string, readerId: string): Promise<{ guild: Guild; channel: Channel }> {
    const guild = await this.store.findGuildByChannelWithMembers(channelId, [readerId]);
    const channel = guild?.channels.find((c) => c.id === channelId);
    if (!guild || !channel) throw apiError('UnknownChannel');
    return { guild, channel };
  }

  /** The channel's command picker as JSON bytes (kept while nothing it is made of changes: it is read on every picker open). */
  async commandIndexJson(user: User, channelId: string, locale: Locale | null): Promise<Buffer> {
    // The user's DM with a bot has a picker too (someone else's DM: 50001, by `find`).
    const dm = await this.dms.find({ kind: 'user', userId: user.id }, channelId);
    if (dm) return this.commandIndex.dmIndexBytes(dm.application_id, user, locale);
    // A group DM's picker: the apps its recipient installed to their account (anyone else: 50001).
    const groupDm = await this.dms.findGroupDm({ kind: 'user', userId: user.id }, channelId);
    if (groupDm) return this.commandIndex.groupDmIndexBytes(user, locale);
    const { guild, channel } = await this.find(channelId, user.id);
    const scene = this.commandIndex.sceneOf(guild, channel, user);
    // canViewChannel, from the permissions the scene already holds.
    if (!scene || !hasAll(scene.facts.channelBits, VIEW_CHANNEL)) throw apiError('MissingAccess');
    return this.commandIndex.buildBytes(scene, locale);
  }

  /**
   * "Why not?" for the caller in the channel: every command of the installed apps, with its verdict
   * and reason. Only about the caller, and only where the caller may open the picker.
   */
  async explainCommandIndex(user: User, channelId: string): Promise<CommandIndexExplanation> {
    const groupDm = await this.dms.findGroupDm({ kind: 'user', userId: user.id }, channelId);
    if (groupDm) {
      return {
        guild_id: null,
        channel: { id: groupDm.id, name: groupDm.name ?? '', type: ChannelType.GroupDM },
        user: { id: user.id, username: user.username },
        applications: await this.commandIndex.explainGroupDm(user),
      };
    }
    const { guild, channel } = await this.find(channelId, user.id);
    const member = memberOf(guild, user.id);
    if (!member || !canViewChannel(guild, member, channel)) throw apiError('MissingAccess');
    return {
      guild_id: guild.id,
      channel: { id: channel.id, name: channel.name, type: channel.type },
      user: { id: user.id, username: user.username },
      applications: await this.commandIndex.explain(guild, channel, user),
    };
  }

  /** One page of messages, newest first; a bot reads by its install's role bits (installed with the bot scope). */
  async messages(reader: ChannelReader, channelId: string, page: Page): Promise<Record<string, unknown>[]> {
    const viewer: Viewer =
      reader.kind === 'bot' ? { kind: 'bot', applicationId: reader.app.id } : { kind: 'user', userId: reader.user.id };
    const dm = await this.dms.find(viewer, channelId);
    if (dm) return this.dms.messages(viewer, dm, page);
    const groupDm = await this.dms.findGroupDm(viewer, channelId);
    if (groupDm) return this.dms.groupDmMessages(viewer, groupDm, page);
    const { guild, channel } = await this.find(channelId, reader.kind === 'bot' ? reader.app.id : reader.user.id);
    if (reader.kind === 'bot') {
      if (!findInstall(guild, reader.app.id)?.scopes.includes(BOT_SCOPE)) throw apiError('MissingAccess');
      if (!appCanReadMessages(guild, reader.app.id, channel)) throw apiError('MissingAccess');
      return this.renderer.channelMessages(guild, channel, reader.app.id, page);
    }
    const member = memberOf(guild, reader.user.id);
    if (!member || !canReadMessages(guild, member, channel)) throw apiError('MissingAccess');
    return this.renderer.channelMessages(guild, channel, reader.user.id, page);
  }
}
