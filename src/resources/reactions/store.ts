/**
 * Reactions on messages (docs/v10-behaviour.md#reactions): one row per user per emoji per message,
 * of slashd's messages and the world file's alike (by id). An emoji is kept as its key: the unicode
 * text itself, or `name:id` for a custom emoji.
 */

/** One emoji's reactions on a message, as a message object's `reactions` counts them. */
export interface ReactionCount {
  readonly emoji: string;
  readonly count: number;
  /** True when `viewerId` (of `countReactions`) is among them. */
  readonly me: boolean;
}

/**
 * What adding did: added now, there already, or refused: the message holds the most emojis
 * (`full`), or the emoji would be new on it and the reactor may not add new ones (`forbidden`).
 */
export type ReactionOutcome = 'added' | 'already' | 'full' | 'forbidden';

export interface ReactionStore {
  /**
   * Adds `userId`'s reaction unless the message already holds `maxEmojis` other emojis, or the
   * emoji is not on the message yet and `mayAddEmoji` is false (ADD_REACTIONS): one transaction,
   * so that two racing new emojis cannot both take the last place. `at` is epoch ms.
   */
  addReaction(
    channelId: string,
    messageId: string,
    emoji: string,
    userId: string,
    at: number,
    maxEmojis: number,
    mayAddEmoji?: boolean,
  ): Promise<ReactionOutcome>;
  /** False when the user had not reacted so. */
  removeReaction(channelId: string, messageId: string, emoji: string, userId: string): Promise<boolean>;
  /** Every reaction on the message; false when it had none. */
  removeAllReactions(channelId: string, messageId: string): Promise<boolean>;
  /** Every reaction of one emoji on the message; false when it had none. */
  removeEmojiReactions(channelId: string, messageId: string, emoji: string): Promise<boolean>;
  /** The users who reacted with `emoji`, ascending by id (as snowflakes), after `after` when given. */
  listReactionUsers(
    channelId: string,
    messageId: string,
    emoji: string,
    limit: number,
    after?: string,
  ): Promise<string[]>;
  /** Each emoji on the message with its count, in the order each was first added. */
  countReactions(channelId: string, messageId: string, viewerId: string): Promise<ReactionCount[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Messages' reactions. */
    readonly reactions: ReactionStore;
  }
}
