/**
 * The reads and writes of a guild's document that several PostgreSQL stores make (the world,
 * members, guild structure, threads): a guild's document holds neither its members nor its stored
 * threads, which are rows of their own, and every read of a guild joins them back in the same
 * statement. One instance per connection, handed to each store that needs it (the stores are
 * composed, not inherited); the writes run on the caller's client, inside its transaction.
 */
import type { Guild, Member } from '../../core/world/types.js';
import { withoutStoredThreads, withStoredThreads, type StoredThreadRow } from '../../resources/threads/rows.js';
import { guildDocument, storedDocument, withMembers } from '../rows.js';
import type { PostgresClient, PostgresConnection } from './connection.js';

/**
 * `g.id` as the member and thread tables' `guild_id` compare it. Every id column is in one
 * collation (src/store/migrations/2026-12-02-id-collation.ts): an equality of two collations
 * would use neither column's index and scan every member of the world.
 */
export const GUILD_ID_OF_G = 'g.id';

/** The members of the guild `g` (a query's alias), in the guild's order, as one JSON array text (NULL: none). */
export const MEMBERS_OF_G = `(SELECT '[' || string_agg(m.doc, ',' ORDER BY m.position, m.user_id) || ']'
  FROM guild_members m WHERE m.guild_id = ${GUILD_ID_OF_G})`;

/**
 * The stored threads of the guild `g` (a query's alias), each with its members' ids by join time, as
 * one JSON array text (NULL: none).
 */
export const THREADS_OF_G = `(SELECT json_agg(json_build_object('doc', t.doc, 'members',
    (SELECT COALESCE(json_agg(tm.user_id ORDER BY tm.joined_at, length(tm.user_id), tm.user_id), '[]'::json)
     FROM thread_members tm WHERE tm.guild_id = t.guild_id AND tm.thread_id = t.thread_id))
    ORDER BY length(t.thread_id), t.thread_id)::text
  FROM guild_threads t WHERE t.guild_id = ${GUILD_ID_OF_G})`;

/** A guild of its document, its members' JSON array text and its stored threads' (THREADS_OF_G). */
export function guildOfRow(row: { doc: string; members: string | null; threads?: string | null }): Guild {
  const members = row.members === null ? [] : storedDocument<Member[]>(row.members);
  const threads = row.threads ? storedDocument<StoredThreadRow[]>(row.threads) : [];
  return withStoredThreads(withMembers(storedDocument<Guild>(row.doc), members), threads);
}

export class PostgresGuildDocuments {
  /** `channelOwnedTables`: the tables whose rows belong to a channel (by `channel_id`) and go with it (`Resource.channelOwnedTables`). */
  constructor(
    private readonly conn: PostgresConnection,
    private readonly channelOwnedTables: readonly string[],
  ) {}

  /** The guild a channel, or a stored thread, belongs to. */
  async guildIdOfChannel(channelId: string): Promise<string | null> {
    const result = await this.conn.pool.query<{ guild_id: string }>(
      `SELECT guild_id FROM channel_guilds WHERE channel_id = $1
       UNION ALL SELECT guild_id FROM guild_threads WHERE thread_id = $1 LIMIT 1`,
      [channelId],
    );
    return result.rows[0]?.guild_id ?? null;
  }

  /** The guild's members as exactly `guild.members`, in that order (inside the caller's transaction). */
  async writeMembers(client: PostgresClient, guild: Guild): Promise<void> {
    await client.query('DELETE FROM guild_members WHERE guild_id = $1', [guild.id]);
    await client.query(
      `INSERT INTO guild_members (guild_id, user_id, position, doc)
       SELECT $1, m.user_id, m.position, m.doc
       FROM unnest($2::text[], $3::int[], $4::text[]) AS m(user_id, position, doc)
       ON CONFLICT DO NOTHING`,
      [
        guild.id,
        guild.members.map((m) => m.user_id),
        guild.members.map((_, position) => position),
        guild.members.map((m) => JSON.stringify(m)),
      ],
    );
  }

  /** The stored document of a guild: its members and its stored threads are rows of their own. */
  guildDocumentText(guild: Guild): string {
    return JSON.stringify(guildDocument(withoutStoredThreads(guild)));
  }

  /** `channel_guilds` as exactly the guild's channels (a channel moved here from another guild now belongs to this one). */
  async linkChannels(client: PostgresClient, guild: Guild): Promise<void> {
    await client.query('DELETE FROM channel_guilds WHERE guild_id = $1', [guild.id]);
    await client.query(
      `INSERT INTO channel_guilds (channel_id, guild_id) SELECT DISTINCT unnest($1::text[]), $2
       ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id`,
      [guild.channels.map((c) => c.id), guild.id],
    );
  }

  /**
   * The rows the dropped channels own, with the threads stored as rows under them (and their
   * members and messages), inside the caller's transaction.
   */
  async dropChannelRows(client: PostgresClient, guildId: string, channelIds: readonly string[]): Promise<void> {
    if (channelIds.length === 0) return;
    const threads = await client.query<{ thread_id: string }>(
      `DELETE FROM guild_threads WHERE guild_id = $1
         AND (thread_id = ANY($2::text[]) OR (doc::jsonb ->> 'parent_id') = ANY($2::text[]))
       RETURNING thread_id`,
      [guildId, channelIds],
    );
    const threadIds = threads.rows.map((row) => row.thread_id);
    await client.query('DELETE FROM thread_members WHERE guild_id = $1 AND thread_id = ANY($2::text[])', [
      guildId,
      threadIds,
    ]);
    await this.dropChannelOwnedRows(client, [...new Set([...channelIds, ...threadIds])]);
  }

  /** The rows the channels own (messages, pins, reactions, files), not the threads under them (inside the caller's transaction). */
  async dropChannelOwnedRows(client: PostgresClient, channelIds: readonly string[]): Promise<void> {
    if (channelIds.length === 0) return;
    for (const table of this.channelOwnedTables) {
      await client.query(`DELETE FROM ${table} WHERE channel_id = ANY($1::text[])`, [channelIds]);
    }
  }
}
