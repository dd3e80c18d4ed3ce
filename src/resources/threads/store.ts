/**
 * Threads created through the API and their members, as rows of their own (not in the guild's
 * document): a join or a leave writes one row, and a thread write never races a write of the
 * guild's document (docs/decisions.md, "Threads"). A guild read holds its stored threads among its
 * channels, each with its members' ids in `thread_member_ids`. `Store.threads`.
 */
import type { Channel } from '../../core/world/types.js';

/** One member of a thread: a user, or an app's bot by its application id. */
export interface ThreadMemberRow {
  user_id: string;
  /** ISO 8601. */
  join_timestamp: string;
}

/** What creating a thread did. */
export type ThreadCreation = 'created' | 'exists' | 'no-guild';

export interface ThreadStore {
  /**
   * Stores a new thread (a channel with `thread` set) and its first members, in one transaction.
   * 'exists' (nothing written) when a thread of that id is stored; 'no-guild' when there is no guild.
   */
  createThread(guildId: string, thread: Channel, members: readonly ThreadMemberRow[]): Promise<ThreadCreation>;
  /** Rewrites a stored thread (its members stay); false when the guild has no such stored thread. */
  updateThread(guildId: string, thread: Channel): Promise<boolean>;
  /** The thread, its members and its messages (with their pins, reactions and files); false when the guild has no such stored thread. */
  deleteThread(guildId: string, threadId: string): Promise<boolean>;
  /** Null when the guild has no such stored thread; false when the user was a member already. */
  addThreadMember(guildId: string, threadId: string, member: ThreadMemberRow): Promise<boolean | null>;
  /** False when the user was not a member of the stored thread. */
  removeThreadMember(guildId: string, threadId: string, userId: string): Promise<boolean>;
  /** The thread's members, by join time then id. */
  listThreadMembers(guildId: string, threadId: string): Promise<ThreadMemberRow[]>;
}
