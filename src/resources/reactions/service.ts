/**
 * Reactions on a channel's messages (docs/v10-behaviour.md#reactions). Reacting, and reading who
 * reacted, need VIEW_CHANNEL and READ_MESSAGE_HISTORY; the first reaction of an emoji on a message
 * needs ADD_REACTIONS too; removing others' needs MANAGE_MESSAGES. Each change is told to bots as
 * MESSAGE_REACTION_ADD/REMOVE/REMOVE_ALL/REMOVE_EMOJI (GUILD_MESSAGE_REACTIONS intent).
 */
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import type { APIUser } from 'discord-api-types/v10';
import type { WirePayload } from '../../core/wire-payload.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import {
  customEmojiIdOf,
  customReactionEmoji,
  emojiUsableBy,
  MAX_REACTION_EMOJIS_PER_MESSAGE,
  reactionAddDispatch,
  reactionRemoveAllDispatch,
  reactionRemoveDispatch,
  reactionRemoveEmojiDispatch,
  readReactionEmoji,
  readReactionUsersQuery,
  type ReactionEmoji,
  type ReactionPlace,
} from './rules.js';
import { ADD_REACTIONS, hasAll, MANAGE_MESSAGES, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import type { WorldDispatch } from '../../core/world/dispatch.js';
import { guildEmojis } from '../../core/world/emojis.js';
import { findGuildMember, type GuildMemberView } from '../../core/world/guild-members.js';
import { memberOf } from '../../core/world/member-index.js';
import type { Guild } from '../../core/world/types.js';
import { toWireGuildMember, toWireMemberUser } from '../../core/world/v10-objects.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { InteractionStore, ReactionStore } from '../../store/store.js';
import type { ApplicationEmojiStore } from '../application-emojis/store.js';
import { asWorldEmoji } from '../application-emojis/rules.js';
import { findChannelMessage } from '../messages/lookup.js';
import type { WorldEvents } from '../../events/world-events.js';
import { refuseWhileTimedOut, visibleChannel, type WorldReadStore } from '../world/reads.js';

export interface ReactionsDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  messages: Pick<InteractionStore, 'getMessage' | 'changedWorldMessages'>;
  reactions: ReactionStore;
  /** Applications' own emojis: their bots react with them in any guild, and anyone reads those reactions. */
  applicationEmojis: Pick<ApplicationEmojiStore, 'findByIds'>;
  events: WorldEvents;
  now: () => number;
}

/** A message the viewer may react to, where it is, and what the viewer may do there. */
interface Target {
  guild: Guild;
  place: ReactionPlace;
  message: StoredMessage;
  permissions: bigint;
  timedOut: boolean;
}

export class ReactionsService {
  constructor(private readonly deps: ReactionsDeps) {}

  /** `PUT …/reactions/{emoji}/@me`: reacting twice changes nothing and tells no one. */
  async add(viewer: Viewer, channelId: string, messageId: string, rawEmoji: string): Promise<void> {
    const target = await this.target(viewer, channelId, messageId);
    refuseWhileTimedOut(target);
    const emoji = await this.emojiOf(rawEmoji, target.guild, viewer);
    // A custom emoji the reactor may not use (unavailable, or locked to roles they lack) is as unknown to them.
    const roles = memberOf(target.guild, viewerId(viewer))?.roles ?? [];
    if (emoji.custom && !emojiUsableBy(emoji.custom, roles)) throw apiError('UnknownEmoji');
    const { place } = target;
    // An emoji new on the message needs ADD_REACTIONS: the store tells, in the transaction that adds it.
    const outcome = await this.deps.reactions.addReaction(
      place.channelId,
      place.messageId,
      emoji.key,
      viewerId(viewer),
      this.deps.now(),
      MAX_REACTION_EMOJIS_PER_MESSAGE,
      hasAll(target.permissions, ADD_REACTIONS),
    );
    if (outcome === 'forbidden') throw apiError('MissingPermissions');
    if (outcome === 'full') throw apiError('MaxReactions', { params: { limit: MAX_REACTION_EMOJIS_PER_MESSAGE } });
    if (outcome !== 'added') return;
    const member = await this.memberView(target.guild, viewerId(viewer));
    const wireMember = member ? toWireGuildMember(target.guild, member) : undefined;
    this.publish(reactionAddDispatch(place, emoji, viewerId(viewer), wireMember, target.message.author.id));
  }

  /** `DELETE …/reactions/{emoji}/@me`, and `…/{user}`: another's needs MANAGE_MESSAGES. */
  async remove(viewer: Viewer, channelId: string, messageId: string, rawEmoji: string, userId?: string): Promise<void> {
    const target = await this.target(viewer, channelId, messageId);
    const emoji = await this.emojiOf(rawEmoji, target.guild);
    const reactor = userId ?? viewerId(viewer);
    if (reactor !== viewerId(viewer) && !hasAll(target.permissions, MANAGE_MESSAGES)) {
      throw apiError('MissingPermissions');
    }
    const { place } = target;
    if (!(await this.deps.reactions.removeReaction(place.channelId, place.messageId, emoji.key, reactor))) return;
    this.publish(reactionRemoveDispatch(place, emoji, reactor));
  }

  /** `DELETE …/reactions`: every reaction on the message (MANAGE_MESSAGES). */
  async removeAll(viewer: Viewer, channelId: string, messageId: string): Promise<void> {
    const { place } = await this.moderated(viewer, channelId, messageId);
    if (await this.deps.reactions.removeAllReactions(place.channelId, place.messageId)) {
      this.publish(reactionRemoveAllDispatch(place));
    }
  }

  /** `DELETE …/reactions/{emoji}`: every reaction of one emoji (MANAGE_MESSAGES). */
  async removeEmoji(viewer: Viewer, channelId: string, messageId: string, rawEmoji: string): Promise<void> {
    const { guild, place } = await this.moderated(viewer, channelId, messageId);
    const emoji = await this.emojiOf(rawEmoji, guild);
    if (await this.deps.reactions.removeEmojiReactions(place.channelId, place.messageId, emoji.key)) {
      this.publish(reactionRemoveEmojiDispatch(place, emoji));
    }
  }

  /** `GET …/reactions/{emoji}`: the users who reacted so, by id, paged by `after` (user objects). */
  async listUsers(
    viewer: Viewer,
    channelId: string,
    messageId: string,
    rawEmoji: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<WirePayload<APIUser>[]> {
    const { limit, after, burst } = orThrow(readReactionUsersQuery(query));
    const { guild, place } = await this.target(viewer, channelId, messageId);
    const emoji = await this.emojiOf(rawEmoji, guild);
    if (burst) return [];
    const ids = await this.deps.reactions.listReactionUsers(place.channelId, place.messageId, emoji.key, limit, after);
    // The channel's guild holds the viewer's member alone; the reactors' are read now (members as rows).
    const withReactors = (await this.deps.members.getGuildWithMembers(guild.id, ids)) ?? guild;
    const users: WirePayload<APIUser>[] = [];
    for (const id of ids) {
      const view = await this.memberView(withReactors, id);
      if (view) users.push(toWireMemberUser(view));
    }
    return users;
  }

  private async target(viewer: Viewer, channelId: string, messageId: string): Promise<Target> {
    const { guild, channel, permissions, timedOut } = await visibleChannel(this.deps, viewer, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingPermissions');
    const message = await findChannelMessage(this.deps.messages, guild, channel, messageId, viewerId(viewer));
    if (!message || message.ephemeral_for_user_id !== null) throw apiError('UnknownMessage');
    const place = { guildId: guild.id, channelId: channel.id, messageId: message.id };
    return { guild, place, message, permissions, timedOut };
  }

  private async moderated(viewer: Viewer, channelId: string, messageId: string): Promise<Target> {
    const target = await this.target(viewer, channelId, messageId);
    if (!hasAll(target.permissions, MANAGE_MESSAGES)) throw apiError('MissingPermissions');
    return target;
  }

  /** The reactor as a member of the guild (a user, or an app's bot), or undefined once they left. */
  private async memberView(guild: Guild, id: string): Promise<GuildMemberView | undefined> {
    const user = await this.deps.world.getUser(id);
    const app = user ? undefined : await this.deps.world.getApplication(id);
    return findGuildMember(guild, id, {
      user: (wanted: string) => (wanted === user?.id ? user : undefined),
      application: (wanted: string) => (wanted === app?.id ? app : undefined),
    });
  }

  /**
   * The emoji of a path: unicode, one of the guild's own, or an application's own emoji; any other
   * is 10014. A `reactor` (one adding a reaction) uses an application's emoji only as that
   * application's bot; reading or removing such reactions is anyone's who may read them.
   */
  private async emojiOf(raw: string, guild: Guild, reactor?: Viewer): Promise<ReactionEmoji> {
    const emoji = readReactionEmoji(raw, guildEmojis(guild));
    if (emoji) return emoji;
    const id = customEmojiIdOf(raw);
    const [own] = id === undefined ? [] : await this.deps.applicationEmojis.findByIds([id]);
    const usable =
      own !== undefined &&
      (reactor === undefined || (reactor.kind === 'bot' && reactor.applicationId === own.application_id));
    if (!usable) throw apiError('UnknownEmoji');
    return customReactionEmoji(asWorldEmoji(own));
  }

  private publish(event: WorldDispatch): void {
    this.deps.events.publishAll([{ kind: 'dispatch', event }]);
  }
}
