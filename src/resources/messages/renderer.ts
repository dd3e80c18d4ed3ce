/**
 * Messages as v10 message objects, and a channel's messages as one user sees them: the world's
 * messages and slashd's own (responses, follow-ups), newest first, ephemeral ones only for their
 * user.
 */
import { MessageFlags } from 'discord-api-types/v10';
import {
  fromWorldMessage,
  messageVisibleTo,
  toWireMessage,
  type MessageRenderContext,
  type RenderedMessage,
  type StoredMessage,
} from './rules/messages.js';
import { isCustomEmojiKey, wireReaction } from '../reactions/rules.js';
import { guildEmojis } from '../../core/world/emojis.js';
import { selectPage, type Page } from '../../core/world/page-query.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { isThread } from '../../core/permissions/channels.js';
import { toWireThread } from '../../core/world/v10-objects.js';
import { withCounters, type CountersOf } from '../../core/world/channel-counters.js';
import type { Store } from '../../store/store.js';
import { loadMessageContext } from './context.js';
import type { AttachmentUrls } from '../attachments/urls.js';
import { toWirePoll } from '../polls/rules.js';
import { asWorldEmoji } from '../application-emojis/rules.js';

export class MessageRenderer {
  /**
   * The messages a viewer reads carry their `reactions` (docs/v10-behaviour.md#reactions).
   * `attachmentUrls` signs the files' URLs (on slashd's public URL) at each rendering.
   */
  constructor(
    private readonly store: Pick<
      Store,
      'world' | 'members' | 'interactions' | 'reactions' | 'polls' | 'applicationEmojis'
    >,
    private readonly attachmentUrls: Pick<AttachmentUrls, 'urlOf'>,
  ) {}

  /**
   * Loads every user, application and replied-to message the messages name, so that rendering
   * itself is pure; `created`: they were just stored (none is pinned yet).
   */
  private async contextFor(messages: StoredMessage[], created = false): Promise<MessageRenderContext> {
    const context = await loadMessageContext(
      { world: this.store.world, members: this.store.members, messages: this.store.interactions },
      messages,
      { created },
    );
    return { ...context, attachmentUrl: await this.attachmentUrls.urlOf() };
  }

  async render(message: StoredMessage): Promise<RenderedMessage> {
    return toWireMessage(message, await this.contextFor([message]));
  }

  /**
   * The render context of a message just stored (none of its own is pinned yet): what its answer
   * and its MESSAGE_CREATE are both rendered with, loaded once.
   */
  createdContext(message: StoredMessage): Promise<MessageRenderContext> {
    return this.contextFor([message], true);
  }

  /** The message as `viewerId` reads it: with its `reactions` (`me` meaning the viewer), when it has any. */
  async renderFor(message: StoredMessage, viewerId: string): Promise<RenderedMessage> {
    return this.withReactions(await this.render(message), message, viewerId, undefined);
  }

  /**
   * A guild channel's message as `viewerId` reads it, alone or in the channel's list (one builder
   * for both): with its `reactions`, and the thread started from it with HAS_THREAD.
   */
  async renderInGuild(guild: Guild, message: StoredMessage, viewerId: string): Promise<RenderedMessage> {
    const counters = await this.threadCounters(guild, [message.id]);
    return this.inGuild(guild, await this.render(message), message, viewerId, counters);
  }

  /** What a guild channel's message adds to its rendering, alone or listed: its reactions and its thread. */
  private inGuild(
    guild: Guild,
    wire: RenderedMessage,
    message: StoredMessage,
    viewerId: string,
    counters: CountersOf,
  ): Promise<RenderedMessage> {
    return this.withReactions(withThread(guild, wire, counters), message, viewerId, guild);
  }

  /** The counters of the threads started from these messages (a thread has its message's id): one read, none without a thread. */
  private async threadCounters(guild: Guild, messageIds: readonly string[]): Promise<CountersOf> {
    const ids = new Set(messageIds);
    const threads = guild.channels.filter((c) => ids.has(c.id) && isThread(c)).map((c) => c.id);
    return withCounters(guild, threads.length > 0 ? await this.store.interactions.channelCounters(threads) : undefined);
  }

  /**
   * What a reader's read adds: the poll's results as the viewer sees them (docs/v10-behaviour.md#polls).
   * v10 leaves `reactions` out of a message that has none. The guild's emojis name its custom ones:
   * `guild` when the caller has it, else read only when a custom emoji is there.
   */
  private async withReactions(
    read: RenderedMessage,
    message: StoredMessage,
    viewerId: string,
    guild: Pick<Guild, 'emojis'> | undefined,
  ): Promise<RenderedMessage> {
    const wire = await this.withPollResults(read, message, viewerId);
    const counts = await this.store.reactions.countReactions(message.channel_id, message.id, viewerId);
    if (counts.length === 0) return wire;
    const custom = counts.some((count) => isCustomEmojiKey(count.emoji));
    const emojisOf = custom ? (guild ?? (await this.guildOf(message))) : undefined;
    const emojis = emojisOf ? [...guildEmojis(emojisOf)] : [];
    // The rest are applications' own emojis (their bots react with them anywhere), read only when there.
    const unnamed = counts
      .map((count) => count.emoji)
      .filter((key) => isCustomEmojiKey(key) && !emojis.some((emoji) => emoji.id === key));
    if (unnamed.length > 0) emojis.push(...(await this.store.applicationEmojis.findByIds(unnamed)).map(asWorldEmoji));
    return { ...wire, reactions: counts.map((count) => wireReaction(count.emoji, count.count, count.me, emojis)) };
  }

  /** A poll's results as `viewerId` reads them: its counts, what they voted, whether it has ended. */
  async withPollResults(wire: RenderedMessage, message: StoredMessage, viewerId: string): Promise<RenderedMessage> {
    if (!message.poll) return wire;
    const tally = await this.store.polls.tally(message.channel_id, message.id, viewerId);
    if (!tally) return wire;
    return { ...wire, poll: toWirePoll(message.poll, { finalized: tally.endedAt !== null, counts: tally.counts }) };
  }

  private async guildOf(message: StoredMessage): Promise<Guild | undefined> {
    if (message.guild_id === null) return undefined;
    return (await this.store.members.getGuildWithMembers(message.guild_id, [])) ?? undefined;
  }

  /**
   * One page of the channel's messages, newest first (`selectPage`). `viewerId` is a user's id, or
   * an app's id for its bot: no ephemeral message is for a bot.
   */
  async channelMessages(guild: Guild, channel: Channel, viewerId: string, page: Page): Promise<RenderedMessage[]> {
    const own = await this.storedPage(channel.id, viewerId, page);
    const seeded = guild.messages.filter((m) => m.channel_id === channel.id);
    // Edited ones are read as their copies (among `own`), deleted ones not at all.
    const changed = new Set(
      await this.store.interactions.changedWorldMessages(
        channel.id,
        seeded.map((m) => m.id),
      ),
    );
    const fromWorld = seeded
      .filter((m) => !changed.has(m.id))
      .map((m) => fromWorldMessage(m, guild.id, guild.installs));
    const candidates = [...own, ...fromWorld].filter((m) => messageVisibleTo(m, viewerId) && m.guild_id === guild.id);
    const visible = selectPage(candidates, page, (m) => m.id);
    const ctx = await this.contextFor(visible);
    const counters = await this.threadCounters(
      guild,
      visible.map((m) => m.id),
    );
    const rendered: RenderedMessage[] = [];
    for (const m of visible) rendered.push(await this.inGuild(guild, toWireMessage(m, ctx), m, viewerId, counters));
    return rendered;
  }

  /** One page of a DM channel's messages, newest first: all are slashd's own. */
  async dmMessages(channelId: string, viewerId: string, page: Page): Promise<RenderedMessage[]> {
    const visible = selectPage(await this.storedPage(channelId, viewerId, page), page, (m) => m.id);
    const ctx = await this.contextFor(visible);
    const rendered: RenderedMessage[] = [];
    for (const m of visible) rendered.push(await this.withReactions(toWireMessage(m, ctx), m, viewerId, undefined));
    return rendered;
  }

  /** The store pages its own messages; `around` takes a page on each side of the cursor. */
  private async storedPage(channelId: string, viewerId: string, page: Page): Promise<StoredMessage[]> {
    const { limit, before, after, around } = page;
    if (around === undefined) {
      return this.store.interactions.listChannelMessages(channelId, viewerId, limit, { before, after });
    }
    return [
      ...(await this.store.interactions.listChannelMessages(channelId, viewerId, limit, { after: around })),
      ...(await this.store.interactions.listChannelMessages(channelId, viewerId, limit, {
        before: (BigInt(around) + 1n).toString(),
      })),
    ];
  }
}

/** A message a thread was started from carries the thread (its id is the message's) and HAS_THREAD. */
function withThread(guild: Guild, wire: RenderedMessage, counters: CountersOf): RenderedMessage {
  const thread = guild.channels.find((c) => c.id === wire.id && isThread(c));
  if (!thread) return wire;
  const flags = typeof wire.flags === 'number' ? wire.flags : 0;
  return { ...wire, flags: flags | MessageFlags.HasThread, thread: toWireThread(guild, thread, counters) };
}
