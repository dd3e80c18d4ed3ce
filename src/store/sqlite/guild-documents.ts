/**
 * The reads and writes of a guild's document that several SQLite stores make (the world, members,
 * guild structure, threads): a guild's document holds neither its members nor its stored threads,
 * which are rows of their own, and every read of a guild joins them back the same way. One
 * instance per connection, handed to each store that needs it (the stores are composed, not
 * inherited), so each runs these inside its own transaction.
 */
import { approximateBytes } from '../../core/byte-lru.js';
import type { Guild, Member } from '../../core/world/types.js';
import { withoutStoredThreads, withStoredThreads } from '../../resources/threads/rows.js';
import { freezeDocument, guildDocument, storedDocument } from '../rows.js';
import type { SqliteConnection } from './connection.js';
import { cacheTag } from './read-caches.js';

export class SqliteGuildDocuments {
  /** `channelOwnedTables`: the tables whose rows belong to a channel (by `channel_id`) and go with it (`Resource.channelOwnedTables`). */
  constructor(
    private readonly conn: SqliteConnection,
    private readonly channelOwnedTables: readonly string[],
  ) {}

  /**
   * The guild a channel, or a stored thread, belongs to: what every request naming a channel asks
   * first, so a found one is cached (read outside a transaction only: a rolled back write is never
   * remembered) until its guild is written.
   */
  guildIdOfChannel(channelId: string): string | null {
    const cached = this.conn.caches().channelGuilds.get(channelId);
    if (cached !== undefined) return cached;
    const row = this.conn.sql('SELECT guild_id FROM channel_guilds WHERE channel_id = ?').get(channelId) as
      { guild_id: string } | undefined;
    const guildId =
      row?.guild_id ??
      (this.conn.sql('SELECT guild_id FROM guild_threads WHERE thread_id = ?').pluck().get(channelId) as
        string | undefined) ??
      null;
    if (guildId !== null && !this.conn.inUnit) {
      this.conn.cached.channelGuilds.set(channelId, guildId, approximateBytes(channelId.length + guildId.length), [
        cacheTag.guild(guildId),
      ]);
    }
    return guildId;
  }

  /** The guild's document (its member list empty, its stored threads among its channels), cached until the guild itself is written. */
  guildWithoutMembers(guildId: string): Guild | null {
    const cached = this.conn.caches().guildDocuments.get(guildId);
    if (cached) return cached;
    const row = this.conn.sql('SELECT doc FROM guilds WHERE id = ?').get(guildId) as { doc: string } | undefined;
    if (!row) return null;
    const guild = freezeDocument(this.withThreadRows(storedDocument<Guild>(row.doc)));
    this.conn.cached.guildDocuments.set(guildId, guild, approximateBytes(row.doc.length), [cacheTag.guild(guildId)]);
    return guild;
  }

  /** Every member of the guild, in the guild's order. */
  allMembers(guildId: string): Member[] {
    return (
      this.conn
        .sql('SELECT doc FROM guild_members WHERE guild_id = ? ORDER BY position, user_id')
        .pluck()
        .all(guildId) as string[]
    ).map((doc) => storedDocument<Member>(doc));
  }

  /** The guild's members as exactly `guild.members`, in that order (inside the caller's transaction). */
  writeMembers(guild: Guild): void {
    this.conn.sql('DELETE FROM guild_members WHERE guild_id = ?').run(guild.id);
    const insert = this.conn.sql(
      'INSERT OR IGNORE INTO guild_members (guild_id, user_id, position, doc) VALUES (?, ?, ?, ?)',
    );
    guild.members.forEach((member, position) => {
      insert.run(guild.id, member.user_id, position, JSON.stringify(member));
    });
  }

  /** The stored document of a guild: its members and its stored threads are rows of their own. */
  guildDocumentText(guild: Guild): string {
    return JSON.stringify(guildDocument(withoutStoredThreads(guild)));
  }

  /** `channel_guilds` as exactly the guild's channels. */
  linkChannels(guild: Guild): void {
    this.conn.sql('DELETE FROM channel_guilds WHERE guild_id = ?').run(guild.id);
    const link = this.conn.sql('INSERT OR REPLACE INTO channel_guilds (channel_id, guild_id) VALUES (?, ?)');
    for (const channel of guild.channels) link.run(channel.id, guild.id);
  }

  /**
   * The rows the dropped channels own, with the threads stored as rows under them (and their
   * members and messages), inside the caller's transaction.
   */
  dropChannelRows(guildId: string, channelIds: readonly string[]): void {
    if (channelIds.length === 0) return;
    const dropped = JSON.stringify(channelIds);
    const threadIds = this.conn
      .sql(
        `SELECT thread_id FROM guild_threads WHERE guild_id = ?
           AND (thread_id IN (SELECT value FROM json_each(?)) OR json_extract(doc, '$.parent_id') IN (SELECT value FROM json_each(?)))`,
      )
      .pluck()
      .all(guildId, dropped, dropped) as string[];
    for (const threadId of threadIds) {
      this.conn.sql('DELETE FROM guild_threads WHERE thread_id = ?').run(threadId);
      this.conn.sql('DELETE FROM thread_members WHERE thread_id = ?').run(threadId);
    }
    this.dropChannelOwnedRows([...new Set([...channelIds, ...threadIds])]);
  }

  /** The rows the channels own (messages, pins, reactions, files), not the threads under them (inside the caller's transaction). */
  dropChannelOwnedRows(channelIds: readonly string[]): void {
    for (const channelId of channelIds) {
      for (const table of this.channelOwnedTables) {
        this.conn.sql(`DELETE FROM ${table} WHERE channel_id = ?`).run(channelId);
      }
    }
  }

  /** The guild's document with its stored threads among its channels, each with its members' ids. */
  private withThreadRows(document: Guild): Guild {
    const threads = this.conn
      .sql('SELECT thread_id, doc FROM guild_threads WHERE guild_id = ? ORDER BY length(thread_id), thread_id')
      .all(document.id) as { thread_id: string; doc: string }[];
    if (threads.length === 0) return document;
    const members = this.conn
      .sql(
        `SELECT thread_id, user_id FROM thread_members WHERE guild_id = ?
         ORDER BY joined_at, length(user_id), user_id`,
      )
      .all(document.id) as { thread_id: string; user_id: string }[];
    const byThread = new Map<string, string[]>();
    for (const { thread_id, user_id } of members)
      byThread.set(thread_id, [...(byThread.get(thread_id) ?? []), user_id]);
    return withStoredThreads(
      document,
      threads.map((t) => ({ doc: t.doc, members: byThread.get(t.thread_id) ?? [] })),
    );
  }
}
