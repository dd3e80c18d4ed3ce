/** The PostgreSQL InteractionStore: interactions, the messages slashd holds, and launched Activities. */
import type { InteractionRecord, InteractionState } from './rules/lifecycle.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import type { ActivityInstance, InteractionStore, MessageRange, Pin, PinOutcome } from '../../store/store.js';
import {
  MAX_TRANSCRIPT_ENTRIES,
  statusOf,
  WORLD_MESSAGE_COPIED,
  WORLD_MESSAGE_DELETED,
  type InteractionStatus,
  type TranscriptEntry,
} from './store.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import { ScopeQueue } from '../commands/scope-queue.postgres.js';
import { messageRowValues, modalClaimable, storedDocument } from '../../store/rows.js';
import { deleteMessageFiles } from '../attachments/store.postgres.js';
import type { ChannelCounters, StoredChannelCounters } from '../../core/world/channel-counters.js';

/**
 * Adds to a channel's counters (`last_message_id` the newer of the two, ids ordered as numbers):
 * one upsert, in the caller's transaction. Parameters: channel, message id or null, count, total.
 */
const COUNT_MESSAGES = `
  INSERT INTO channel_message_counters (channel_id, last_message_id, message_count, total_message_sent)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (channel_id) DO UPDATE SET
    last_message_id = CASE
      WHEN excluded.last_message_id IS NULL THEN channel_message_counters.last_message_id
      WHEN channel_message_counters.last_message_id IS NULL
        OR (length(excluded.last_message_id), excluded.last_message_id)
          > (length(channel_message_counters.last_message_id), channel_message_counters.last_message_id)
      THEN excluded.last_message_id
      ELSE channel_message_counters.last_message_id END,
    message_count = channel_message_counters.message_count + excluded.message_count,
    total_message_sent = channel_message_counters.total_message_sent + excluded.total_message_sent`;

/** One transcript step, on `client` (the pool, or a transaction's connection). */
async function appendStep(
  client: Queryable,
  applicationId: string,
  interactionId: string,
  entry: TranscriptEntry,
): Promise<void> {
  // Two appends racing for one step number: the second is dropped (ON CONFLICT), never an error.
  await client.query(
    `INSERT INTO interaction_transcripts (application_id, interaction_id, seq, doc)
     SELECT $1, $2, count(*) + 1, $3 FROM interaction_transcripts WHERE application_id = $1 AND interaction_id = $2
     HAVING count(*) < $4
     ON CONFLICT DO NOTHING`,
    [applicationId, interactionId, JSON.stringify(entry), MAX_TRANSCRIPT_ENTRIES],
  );
}

/** A new message counted in its channel (not an ephemeral one); inside the caller's transaction. */
async function countCreated(db: Queryable, message: StoredMessage): Promise<void> {
  if (message.ephemeral_for_user_id !== null) return;
  const counted = message.id === message.channel_id ? 0 : 1;
  await db.query(COUNT_MESSAGES, [message.channel_id, message.id, counted, counted]);
}

/** `ids` of the channel deleted: counted down (a forum post's starter never was); inside the caller's transaction. */
async function countDeleted(db: Queryable, channelId: string, ids: readonly string[]): Promise<void> {
  const counted = ids.filter((id) => id !== channelId).length;
  if (counted > 0) await db.query(COUNT_MESSAGES, [channelId, null, -counted, 0]);
}

type Queryable = Pick<PostgresClient, 'query'>;

/**
 * Pooled connections the invoking users' status reads may hold at once: polls queue for these
 * (in memory, holding nothing) and never take the connections delivery and answers need.
 */
export const STATUS_READ_CONNECTIONS = 2;

export class PostgresInteractionStore implements InteractionStore {
  /** One lane per connection status reads may hold; reads take turns on them. */
  private readonly statusLanes = new ScopeQueue();
  private nextLane = 0;

  constructor(private readonly conn: PostgresConnection) {}

  async putInteraction(record: InteractionRecord): Promise<void> {
    await this.conn.pool.query(
      'INSERT INTO interactions (application_id, id, user_id, state, doc) VALUES ($1, $2, $3, $4, $5)',
      [record.application_id, record.id, record.user_id, record.state, JSON.stringify(record)],
    );
  }

  async getInteraction(applicationId: string, id: string): Promise<InteractionRecord | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM interactions WHERE application_id = $1 AND id = $2',
      [applicationId, id],
    );
    const row = result.rows[0];
    return row ? storedDocument<InteractionRecord>(row.doc) : null;
  }

  async getInteractionState(applicationId: string, id: string): Promise<InteractionState | null> {
    const result = await this.conn.pool.query<{ state: InteractionState }>(
      'SELECT state FROM interactions WHERE application_id = $1 AND id = $2',
      [applicationId, id],
    );
    return result.rows[0]?.state ?? null;
  }

  async findUserInteractionStatus(userId: string, id: string): Promise<InteractionStatus | null> {
    const lane = String(this.nextLane++ % STATUS_READ_CONNECTIONS);
    const result = await this.statusLanes.run(lane, () =>
      this.conn.pool.query<{ doc: string }>('SELECT doc FROM interactions WHERE user_id = $1 AND id = $2', [
        userId,
        id,
      ]),
    );
    const row = result.rows[0];
    return row ? statusOf(storedDocument<InteractionRecord>(row.doc)) : null;
  }

  async listUserInteractions(userId: string, limit: number): Promise<InteractionRecord[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM interactions WHERE user_id = $1 ORDER BY length(id) DESC, id DESC LIMIT $2',
      [userId, limit],
    );
    return result.rows.map((row) => storedDocument<InteractionRecord>(row.doc));
  }

  async claimModal(applicationId: string, id: string, submissionId: string): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const result = await client.query<{ doc: string }>(
        'SELECT doc FROM interactions WHERE application_id = $1 AND id = $2 FOR UPDATE',
        [applicationId, id],
      );
      const row = result.rows[0];
      if (!row) return false;
      const record = storedDocument<InteractionRecord>(row.doc);
      if (!modalClaimable(record)) return false;
      await client.query('UPDATE interactions SET doc = $1 WHERE application_id = $2 AND id = $3', [
        JSON.stringify({ ...record, modal_submission_id: submissionId }),
        applicationId,
        id,
      ]);
      return true;
    });
  }

  async updateInteraction(
    applicationId: string,
    id: string,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    message?: StoredMessage,
    steps: readonly TranscriptEntry[] = [],
  ): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const result = await client.query<{ doc: string }>(
        'SELECT doc FROM interactions WHERE application_id = $1 AND id = $2 AND state = ANY($3::text[]) FOR UPDATE',
        [applicationId, id, from],
      );
      const row = result.rows[0];
      if (!row) return false;
      const next = { ...storedDocument<InteractionRecord>(row.doc), ...patch };
      // The compare-and-set itself: the row lock above already holds it, the condition says so.
      const updated = await client.query(
        'UPDATE interactions SET state = $1, doc = $2 WHERE application_id = $3 AND id = $4 AND state = ANY($5::text[])',
        [next.state, JSON.stringify(next), applicationId, id, from],
      );
      if (!updated.rowCount) return false;
      if (message) {
        await this.writeMessage(client, message);
        await countCreated(client, message);
      }
      for (const step of steps) await appendStep(client, applicationId, id, step);
      return true;
    });
  }

  async putMessage(message: StoredMessage): Promise<void> {
    await this.conn.transaction(async (client) => {
      await this.writeMessage(client, message);
      await countCreated(client, message);
    });
  }

  async channelCounters(channelIds: readonly string[]): Promise<StoredChannelCounters> {
    const counters = new Map<string, ChannelCounters>();
    if (channelIds.length === 0) return counters;
    const result = await this.conn.pool.query<ChannelCounters & { channel_id: string }>(
      `SELECT channel_id, last_message_id, message_count, total_message_sent FROM channel_message_counters
       WHERE channel_id = ANY($1::text[])`,
      [[...channelIds]],
    );
    for (const { channel_id, ...row } of result.rows) counters.set(channel_id, row);
    return counters;
  }

  /** An edit rewrites the message of that id; a message that is gone stays gone. */
  async editMessage(message: StoredMessage): Promise<boolean> {
    const result = await this.conn.pool.query(
      'UPDATE messages SET doc = $1, visible_to = $2 WHERE channel_id = $3 AND id = $4',
      [JSON.stringify(message), message.ephemeral_for_user_id, message.channel_id, message.id],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** A plain INSERT: a new message whose id is taken fails loudly rather than overwrite another. */
  private async writeMessage(db: Queryable, message: StoredMessage): Promise<void> {
    await db.query(
      `INSERT INTO messages (channel_id, id, application_id, interaction_id, visible_to, doc)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      messageRowValues(message),
    );
  }

  async crosspostMessage(
    original: StoredMessage,
    copies: readonly StoredMessage[],
    flag: number,
  ): Promise<'done' | 'already' | 'gone'> {
    return this.conn.transaction(async (client) => {
      // The row is held until the commit: of two racing crossposts, the second finds the flag.
      const found = await client.query<{ doc: string }>(
        'SELECT doc FROM messages WHERE channel_id = $1 AND id = $2 FOR UPDATE',
        [original.channel_id, original.id],
      );
      const row = found.rows[0];
      if (!row) return 'gone';
      if ((storedDocument<StoredMessage>(row.doc).flags & flag) !== 0) return 'already';
      await client.query('UPDATE messages SET doc = $1 WHERE channel_id = $2 AND id = $3', [
        JSON.stringify(original),
        original.channel_id,
        original.id,
      ]);
      for (const copy of copies) {
        await this.writeMessage(client, copy);
        await countCreated(client, copy);
      }
      return 'done';
    });
  }

  async getMessage(channelId: string, id: string): Promise<StoredMessage | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM messages WHERE channel_id = $1 AND id = $2',
      [channelId, id],
    );
    const row = result.rows[0];
    return row ? storedDocument<StoredMessage>(row.doc) : null;
  }

  async listChannelMessages(
    channelId: string,
    viewerId: string,
    limit: number,
    range: MessageRange = {},
  ): Promise<StoredMessage[]> {
    // Ids are decimal strings: ordered as numbers by (length, text).
    const ascending = range.after !== undefined && range.before === undefined;
    const direction = ascending ? 'ASC' : 'DESC';
    const result = await this.conn.pool.query<{ doc: string }>(
      `SELECT doc FROM messages WHERE channel_id = $1 AND (visible_to IS NULL OR visible_to = $2)
       AND ($3::text IS NULL OR (length(id), id) < (length($3::text), $3::text))
       AND ($4::text IS NULL OR (length(id), id) > (length($4::text), $4::text))
       ORDER BY length(id) ${direction}, id ${direction} LIMIT $5`,
      [channelId, viewerId, range.before ?? null, range.after ?? null, limit],
    );
    const messages = result.rows.map((r) => storedDocument<StoredMessage>(r.doc));
    return ascending ? messages.reverse() : messages;
  }

  /** The message and its attachments' bytes, in one transaction. */
  async deleteMessage(channelId: string, id: string, ofWorldFile = false): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const tombstoned = ofWorldFile && (await tombstone(client, channelId, [id])).length > 0;
      await deleteMessageFiles(client, channelId, id);
      await client.query('DELETE FROM message_pins WHERE channel_id = $1 AND message_id = $2', [channelId, id]);
      await client.query('DELETE FROM message_reactions WHERE channel_id = $1 AND message_id = $2', [channelId, id]);
      const result = await client.query<{ visible_to: string | null }>(
        'DELETE FROM messages WHERE channel_id = $1 AND id = $2 RETURNING visible_to',
        [channelId, id],
      );
      const row = result.rows[0];
      const deleted = ofWorldFile ? tombstoned : row !== undefined;
      // An ephemeral message was never counted; a world-file message's copy is counted as the message.
      if (deleted && (ofWorldFile || row?.visible_to === null)) await countDeleted(client, channelId, [id]);
      return deleted;
    });
  }

  async editWorldMessage(message: StoredMessage): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      // A racing first edit waits on this row, then finds the copy the other one wrote.
      const first = await client.query(
        `INSERT INTO world_message_changes (channel_id, message_id, state) VALUES ($1, $2, $3)
         ON CONFLICT (channel_id, message_id) DO NOTHING`,
        [message.channel_id, message.id, WORLD_MESSAGE_COPIED],
      );
      if ((first.rowCount ?? 0) > 0) {
        await this.writeMessage(client, message);
        return true;
      }
      const result = await client.query(
        'UPDATE messages SET doc = $1, visible_to = $2 WHERE channel_id = $3 AND id = $4',
        [JSON.stringify(message), message.ephemeral_for_user_id, message.channel_id, message.id],
      );
      return (result.rowCount ?? 0) > 0;
    });
  }

  async changedWorldMessages(channelId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const result = await this.conn.pool.query<{ message_id: string }>(
      'SELECT message_id FROM world_message_changes WHERE channel_id = $1 AND message_id = ANY($2::text[])',
      [channelId, [...ids]],
    );
    return result.rows.map((row) => row.message_id);
  }

  async pinMessage(channelId: string, messageId: string, pinnedAt: string, limit: number): Promise<PinOutcome> {
    return this.conn.transaction(async (client) => {
      // One pinner of a channel at a time, so that two racing pins cannot both take its last place.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd pins/' || $1, 0))", [channelId]);
      const pinned = await client.query('SELECT 1 FROM message_pins WHERE channel_id = $1 AND message_id = $2', [
        channelId,
        messageId,
      ]);
      if (pinned.rowCount) return 'already';
      const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM message_pins WHERE channel_id = $1', [
        channelId,
      ]);
      if (Number(count.rows[0]?.n ?? 0) >= limit) return 'full';
      await client.query('INSERT INTO message_pins (channel_id, message_id, pinned_at) VALUES ($1, $2, $3)', [
        channelId,
        messageId,
        pinnedAt,
      ]);
      return 'pinned';
    });
  }

  async unpinMessage(channelId: string, messageId: string): Promise<boolean> {
    const result = await this.conn.pool.query('DELETE FROM message_pins WHERE channel_id = $1 AND message_id = $2', [
      channelId,
      messageId,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async listPins(channelId: string, limit: number, before?: string): Promise<Pin[]> {
    // Ties in time: the newer message (ids ordered as numbers by length, then text) first.
    const result = await this.conn.pool.query<{ message_id: string; pinned_at: string }>(
      `SELECT message_id, pinned_at FROM message_pins WHERE channel_id = $1 AND ($2::text IS NULL OR pinned_at < $2::text)
       ORDER BY pinned_at DESC, length(message_id) DESC, message_id DESC LIMIT $3`,
      [channelId, before ?? null, limit],
    );
    return result.rows.map((row) => ({ messageId: row.message_id, pinnedAt: row.pinned_at }));
  }

  async pinnedAmong(channelId: string, messageIds: readonly string[]): Promise<string[]> {
    if (messageIds.length === 0) return [];
    const result = await this.conn.pool.query<{ message_id: string }>(
      'SELECT message_id FROM message_pins WHERE channel_id = $1 AND message_id = ANY($2::text[])',
      [channelId, messageIds],
    );
    return result.rows.map((row) => row.message_id);
  }

  async deleteMessages(
    channelId: string,
    ids: readonly string[],
    worldFileIds: readonly string[] = [],
  ): Promise<string[]> {
    return this.conn.transaction(async (client) => {
      const tombstoned = await tombstone(client, channelId, worldFileIds);
      // The messages, their pins, their reactions and their files' bytes go together.
      const result = await client.query<{ id: string }>(
        `WITH gone AS (
           DELETE FROM messages WHERE channel_id = $1 AND visible_to IS NULL AND id = ANY($2::text[]) RETURNING id
         ), deleted AS (
           SELECT id FROM gone UNION SELECT unnest($3::text[])
         ), unpinned AS (
           DELETE FROM message_pins WHERE channel_id = $1 AND message_id IN (SELECT id FROM deleted)
         ), unreacted AS (
           DELETE FROM message_reactions WHERE channel_id = $1 AND message_id IN (SELECT id FROM deleted)
         ), files AS (
           DELETE FROM attachment_files WHERE channel_id = $1 AND message_id IN (SELECT id FROM gone) RETURNING id
         ), pieces AS (
           DELETE FROM attachment_chunks WHERE channel_id = $1 AND attachment_id IN (SELECT id FROM files)
         )
         SELECT id FROM deleted`,
        [channelId, [...ids], tombstoned],
      );
      const gone = result.rows.map((row) => row.id);
      await countDeleted(client, channelId, gone);
      return gone;
    });
  }

  async appendTranscript(applicationId: string, interactionId: string, entry: TranscriptEntry): Promise<void> {
    await appendStep(this.conn.pool, applicationId, interactionId, entry);
  }

  async listTranscript(applicationId: string, interactionId: string): Promise<TranscriptEntry[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM interaction_transcripts WHERE application_id = $1 AND interaction_id = $2 ORDER BY seq',
      [applicationId, interactionId],
    );
    return result.rows.map((row) => storedDocument<TranscriptEntry>(row.doc));
  }

  async putActivityInstance(instance: ActivityInstance): Promise<void> {
    await this.conn.pool.query('INSERT INTO activity_instances (application_id, id, doc) VALUES ($1, $2, $3)', [
      instance.application_id,
      instance.id,
      JSON.stringify(instance),
    ]);
  }

  async listActivityInstances(applicationId: string): Promise<ActivityInstance[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM activity_instances WHERE application_id = $1 ORDER BY id',
      [applicationId],
    );
    return result.rows.map((r) => storedDocument<ActivityInstance>(r.doc));
  }

  async getActivityInstance(applicationId: string, id: string): Promise<ActivityInstance | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM activity_instances WHERE application_id = $1 AND id = $2',
      [applicationId, id],
    );
    return result.rows[0] ? storedDocument<ActivityInstance>(result.rows[0].doc) : null;
  }
}

/** Records these world-file messages deleted; the ids not deleted before. Inside a transaction. */
async function tombstone(client: Queryable, channelId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const result = await client.query<{ message_id: string }>(
    `INSERT INTO world_message_changes (channel_id, message_id, state)
     SELECT $1::text, id, $3::text FROM (SELECT DISTINCT unnest($2::text[]) AS id) AS ids
     ON CONFLICT (channel_id, message_id) DO UPDATE SET state = excluded.state
     WHERE world_message_changes.state <> excluded.state RETURNING message_id`,
    [channelId, [...ids], WORLD_MESSAGE_DELETED],
  );
  return result.rows.map((row) => row.message_id);
}

/**
 * Forgets what the API made of the world file's messages, copies included: the world replaced,
 * its messages are the file's again. Inside the caller's transaction.
 */
export async function forgetWorldMessageChanges(client: Queryable): Promise<void> {
  await client.query(
    `WITH files AS (
       DELETE FROM attachment_files AS f USING world_message_changes AS c
       WHERE c.channel_id = f.channel_id AND c.message_id = f.message_id RETURNING f.channel_id, f.id
     ), pieces AS (
       DELETE FROM attachment_chunks AS p USING files
       WHERE p.channel_id = files.channel_id AND p.attachment_id = files.id
     ), copies AS (
       DELETE FROM messages AS m USING world_message_changes AS c
       WHERE c.channel_id = m.channel_id AND c.message_id = m.id
     )
     DELETE FROM world_message_changes`,
  );
  // The copies gone, what the store counts now is the messages it holds (the world file's are counted when rendered).
  await client.query(
    `UPDATE channel_message_counters SET message_count = (SELECT count(*) FROM messages AS m
       WHERE m.channel_id = channel_message_counters.channel_id AND m.visible_to IS NULL AND m.id <> m.channel_id)`,
  );
}
