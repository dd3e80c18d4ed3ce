/**
 * Messages as v10 message objects, and a channel's messages as one user sees them: the world's
 * messages and slashd's own (responses, follow-ups), newest first, ephemeral ones only for their
 * user.
 */
import {
  fromWorldMessage,
  messageVisibleTo,
  toWireMessage,
  type MessageRenderContext,
  type StoredMessage,
} from '../core/interactions/messages.js';
import { selectPage, type Page } from '../core/world/page-query.js';
import type { Channel, Guild } from '../core/world/types.js';
import type { Store } from '../store/store.js';
import { loadMessageContext } from './message-context.js';

export class MessageRenderer {
  /** `origin` is slashd's public URL, the origin of attachment URLs (read at each rendering: it is known once listening). */
  constructor(
    private readonly store: Pick<Store, 'world' | 'interactions'>,
    private readonly origin: () => string = () => '',
  ) {}

  /** Loads every user, application and replied-to message the messages name, so that rendering itself is pure. */
  private async contextFor(messages: StoredMessage[]): Promise<MessageRenderContext> {
    const context = await loadMessageContext({ world: this.store.world, messages: this.store.interactions }, messages);
    return { ...context, origin: this.origin() };
  }

  async render(message: StoredMessage): Promise<Record<string, unknown>> {
    return toWireMessage(message, await this.contextFor([message]));
  }

  /**
   * One page of the channel's messages, newest first (`selectPage`). `viewerId` is a user's id, or
   * an app's id for its bot: no ephemeral message is for a bot.
   */
  async channelMessages(
    guild: Guild,
    channel: Channel,
    viewerId: string,
    page: Page,
  ): Promise<Record<string, unknown>[]> {
    const { limit, before, after, around } = page;
    // The store pages its own messages; `around` takes a page on each side of the cursor.
    const own =
      around === undefined
        ? await this.store.interactions.listChannelMessages(channel.id, viewerId, limit, { before, after })
        : [
            ...(await this.store.interactions.listChannelMessages(channel.id, viewerId, limit, { after: around })),
            ...(await this.store.interactions.listChannelMessages(channel.id, viewerId, limit, {
              before: (BigInt(around) + 1n).toString(),
            })),
          ];
    const fromWorld = guild.messages
      .filter((m) => m.channel_id === channel.id)
      .map((m) => fromWorldMessage(m, guild.id));
    const candidates = [...own, ...fromWorld].filter((m) => messageVisibleTo(m, viewerId) && m.guild_id === guild.id);
    const visible = selectPage(candidates, page, (m) => m.id);
    const ctx = await this.contextFor(visible);
    return visible.map((m) => toWireMessage(m, ctx));
  }
}
