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

/** What creating a thread did ('full': the guild holds `maxActive` active stored threads already). */
export type ThreadCreation = 'created' | 'exists' | 'no-guild' | 'full';

export interface ThreadStore {
  /**
   * Stores a new thread (a channel with `thread` set) and its first members, in one transaction.
   * 'exists' (nothing written) when a thread of that id is stored; 'no-guild' when there is no guild.
   * With `maxActive`, an active thread is stored only while the guild's active (not archived) stored
   * threads are fewer ('full' otherwise, nothing written), decided under the guild's lock so that
   * racing creates never pass the cap together.
   */
  createThread(
    guildId: string,
    thread: Channel,
    members: readonly ThreadMemberRow[],
    maxActive?: number,
  ): Promise<ThreadCreation>;
  /**
   * Rewrites a stored thread (its members stay); false when the guild has no such stored thread.
   * With `maxActive` (an unarchive), an active thread is written only while the guild's other active
   * stored threads are fewer: 'full' otherwise, nothing written, under the same lock as creates.
   */
  updateThread(guildId: string, thread: Channel, maxActive?: number): Promise<boolean | 'full'>;
  /** The thread, its members and its messages (with their pins, reactions and files); false when the guild has no such stored thread. */
  deleteThread(guildId: string, threadId: string): Promise<boolean>;
  /** Null when the guild has no such stored thread; false when the user was a member already. */
  addThreadMember(guildId: string, threadId: string, member: ThreadMemberRow): Promise<boolean | null>;
  /** False when the user was not a member of the stored thread. */
  removeThreadMember(guildId: string, threadId: string, userId: string): Promise<boolean>;
  /** The thread's members, by join time then id. */
  listThreadMembers(guildId: string, threadId: string): Promise<ThreadMemberRow[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Threads created through the API and their members. */
    readonly threads: ThreadStore;
  }
}
