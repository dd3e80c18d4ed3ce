/**
 * Messages as v10 message objects, and a channel's messages as one user sees them: the world's
 * messages and slashd's own (responses, follow-ups), newest first, ephemeral ones only for their
 * user.
 */
import { messageVisibleTo, toWireMessage, type StoredMessage } from '../core/interactions/messages.js';
import { toWireBotUser, toWirePublicUser } from '../core/world/wire.js';
import type { Channel, Guild, Message, User } from '../core/world/types.js';
import { snowflakeTimestampMs } from '../core/snowflake.js';
import type { Store } from '../store/store.js';

export class MessageRenderer {
  constructor(private readonly store: Store) {}

  private async userObject(userId: string): Promise<Record<string, unknown> | null> {
    const user = await this.store.getUser(userId);
    return user ? toWirePublicUser(user) : null;
  }

  async render(message: StoredMessage): Promise<Record<string, unknown>> {
    let author: Record<string, unknown> | null;
    if (message.author.kind === 'app') {
      const app = await this.store.getApplication(message.author.id);
      author = app ? toWireBotUser(app) : null;
    } else {
      author = await this.userObject(message.author.id);
    }
    const interactionUser = message.interaction_metadata ? await this.userObject(message.interaction_metadata.user_id) : null;
    return toWireMessage(message, { author: author ?? { id: message.author.id }, interactionUser });
  }

  /** A message of the world file, in the same shape as slashd's own. */
  private fromWorld(message: Message, guild: Guild): StoredMessage {
    return {
      id: message.id,
      channel_id: message.channel_id,
      guild_id: guild.id,
      author: { kind: 'user', id: message.author_id },
      content: message.content,
      embeds: [],
      components: [],
      flags: 0,
      timestamp: new Date(snowflakeTimestampMs(message.id)).toISOString(),
      edited_timestamp: null,
      ephemeral_for_user_id: null,
    };
  }

  async channelMessages(guild: Guild, channel: Channel, viewer: User, limit: number): Promise<Record<string, unknown>[]> {
    const own = await this.store.listChannelMessages(channel.id, limit * 2);
    const fromWorld = guild.messages.filter((m) => m.channel_id === channel.id).map((m) => this.fromWorld(m, guild));
    const visible = [...own, ...fromWorld]
      .filter((m) => messageVisibleTo(m, viewer.id))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0))
      .slice(0, limit);
    return Promise.all(visible.map((m) => this.render(m)));
  }
}
