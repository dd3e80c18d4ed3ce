/**
 * How stored threads join a guild's document when it is read, and leave it when it is written:
 * shared by both stores. A stored thread wins over a channel of the same id in the document (a
 * world-file thread once joined through the API is stored, and the stored one is the current one).
 */
import type { Channel, Guild } from '../../core/world/types.js';
import { storedDocument } from '../../store/rows.js';

/** A stored thread's row: its document and its members' ids (by join time). */
export interface StoredThreadRow {
  doc: string;
  members: readonly string[];
}

/** The guild with its stored threads among its channels. */
export function withStoredThreads(guild: Guild, rows: readonly StoredThreadRow[]): Guild {
  if (rows.length === 0) return guild;
  const threads = rows.map((row) => ({ ...storedDocument<Channel>(row.doc), thread_member_ids: [...row.members] }));
  const stored = new Set(threads.map((thread) => thread.id));
  return { ...guild, channels: [...guild.channels.filter((c) => !stored.has(c.id)), ...threads] };
}

/** The guild as its document keeps it: stored threads (those with `thread`) are rows of their own. */
export function withoutStoredThreads(guild: Guild): Guild {
  if (!guild.channels.some((c) => c.thread)) return guild;
  return { ...guild, channels: guild.channels.filter((c) => !c.thread) };
}

/** A stored thread's document: its members are rows of their own. */
export function threadDocument(thread: Channel): string {
  const { thread_member_ids: _members, ...doc } = thread;
  return JSON.stringify(doc);
}
