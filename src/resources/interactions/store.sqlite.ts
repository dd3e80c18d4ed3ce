/**
 * The SQLite InteractionStore: interactions, the messages slashd holds, and launched Activities.
 * The status of each interaction this connection writes is kept in the read caches, so that its
 * user's polls (GET /interactions/{id}) are answered without parsing the record and without a
 * statement that could wait on delivery's writes. What empties the read caches forgets them too:
 * another process's commit to the file (SQLite's data_version moves), a snapshot restored, the
 * world replaced; deleting the application forgets its own. The next read goes to the table.
 */
import { approximateBytes } from '../../core/byte-lru.js';
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
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import { cacheTag, deepFreeze } from '../../store/sqlite/read-caches.js';
import { messageRowValues, modalClaimable, storedDocument } from '../../store/rows.js';
import { deleteMessageFiles, deleteMessagesFiles } from '../attachments/store.sqlite.js';
import type { ChannelCounters, StoredChannelCounters } from '../../core/world/channel-counters.js';

/**
 * Adds to a channel's counters (`last_message_id` the newer of the two, ids ordered as numbers):
 * one upsert, in the caller's transaction. Parameters: channel, message id or null, count, total.
 */
const COUNT_MESSAGES = `
  INSERT INTO channel_message_counters (channel_id, last_message_id, message_count, total_message_sent)
  VALUES (?, ?, ?, ?)
  ON CONFLICT (channel_id) DO UPDATE SET
    last_message_id = CASE
      WHEN excluded.last_message_id IS NULL THEN channel_message_counters.last_message_id
      WHEN channel_message_counters.last_message_id IS NULL
        OR length(excluded.last_message_id) > length(channel_message_counters.last_message_id)
        OR (length(excluded.last_message_id) = length(channel_message_counters.last_message_id)
          AND excluded.last_message_id > channel_message_counters.last_message_id)
      THEN excluded.last_message_id
      ELSE channel_message_counters.last_message_id END,
    message_count = channel_message_counters.message_count + excluded.message_count,
    total_message_sent = channel_message_counters.total_message_sent + excluded.total_message_sent`;

/** A status's size beyond its response: its ids, state and reasons as JSON (generously). */
const STATUS_FIELDS_CHARS = 400;

export class SqliteInteractionStore implements InteractionStore {
  constructor(private readonly conn: SqliteConnection) {}

  /** The status of a record as written (or read): kept for its user's reads. */
  private remember(record: InteractionRecord): void {
    const responseChars = record.response === null ? 0 : JSON.stringify(record.response).length;
    this.conn.cached.interactionStatuses.set(
      record.id,
      deepFreeze(statusOf(record)),
      approximateBytes(STATUS_FIELDS_CHARS + responseChars),
      [cacheTag.application(record.application_id)],
    );
  }

  /**
   * The remembered status, unless another connection has committed since (then every cached read
   * is forgotten): checked on every read, as a poll must see another process's answer at once.
   */
  private remembered(id: string): InteractionStatus | undefined {
    return this.conn.freshCaches().interactionStatuses.get(id);
  }

  async putInteraction(record: InteractionRecord): Promise<void> {
    this.conn
      .sql('INSERT INTO interactions (application_id, id, user_id, state, doc) VALUES (?, ?, ?, ?, ?)')
      .run(record.application_id, record.id, record.user_id, record.state, JSON.stringify(record));
    this.remember(record);
  }

  async getInteraction(applicationId: string, id: string): Promise<InteractionRecord | null> {
    const row = this.conn
      .sql('SELECT doc FROM interactions WHERE application_id = ? AND id = ?')
      .get(applicationId, id) as { doc: string } | undefined;
    return row ? storedDocument<InteractionRecord>(row.doc) : null;
  }

  async getInteractionState(applicationId: string, id: string): Promise<InteractionState | null> {
    const status = this.remembered(id);
    if (status?.application_id === applicationId) return status.state;
    const row = this.conn
      .sql('SELECT state FROM interactions WHERE application_id = ? AND id = ?')
      .get(applicationId, id) as { state: InteractionState } | undefined;
    return row?.state ?? null;
  }

  async findUserInteractionStatus(userId: string, id: string): Promise<InteractionStatus | null> {
    const status = this.remembered(id);
    if (status) return status.user_id === userId ? status : null;
    const row = this.conn.sql('SELECT doc FROM interactions WHERE user_id = ? AND id = ?').get(userId, id) as
      { doc: string } | undefined;
    if (!row) return null;
    const record = storedDocument<InteractionRecord>(row.doc);
    this.remember(record);
    return statusOf(record);
  }

  async listUserInteractions(userId: string, limit: number): Promise<InteractionRecord[]> {
    const rows = this.conn
      .sql('SELECT doc FROM interactions WHERE user_id = ? ORDER BY length(id) DESC, id DESC LIMIT ?')
      .all(userId, limit) as { doc: string }[];
    return rows.map((row) => storedDocument<InteractionRecord>(row.doc));
  }

  async claimModal(applicationId: string, id: string, submissionId: string): Promise<boolean> {
    return this.conn.transaction(() => {
      const row = this.conn
        .sql('SELECT doc FROM interactions WHERE application_id = ? AND id = ?')
        .get(applicationId, id) as { doc: string } | undefined;
      if (!row) return false;
      const record = storedDocument<InteractionRecord>(row.doc);
      if (!modalClaimable(record)) return false;
      this.conn
        .sql('UPDATE interactions SET doc = ? WHERE application_id = ? AND id = ?')
        .run(JSON.stringify({ ...record, modal_submission_id: submissionId }), applicationId, id);
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
    const next = this.conn.transaction(() => {
      const row = this.conn
        .sql('SELECT doc FROM interactions WHERE application_id = ? AND id = ?')
        .get(applicationId, id) as { doc: string } | undefined;
      if (!row) return null;
      const record = storedDocument<InteractionRecord>(row.doc);
      if (!from.includes(record.state)) return null;
      const changed = { ...record, ...patch };
      this.conn
        .sql('UPDATE interactions SET state = ?, doc = ? WHERE application_id = ? AND id = ?')
        .run(changed.state, JSON.stringify(changed), applicationId, id);
      if (message) {
        this.writeMessage(message);
        this.countCreated(message);
      }
      for (const step of steps) this.appendStep(applicationId, id, step);
      return changed;
    });
    // Once committed: a rolled back change is never remembered.
    if (next) this.remember(next);
    return next !== null;
  }

  async putMessage(message: StoredMessage): Promise<void> {
    this.conn.transaction(() => {
      this.writeMessage(message);
      this.countCreated(message);
    });
  }

  /** A new message counted in its channel (not an ephemeral one); inside the caller's transaction. */
  private countCreated(message: StoredMessage): void {
    if (message.ephemeral_for_user_id !== null) return;
    const counted = message.id === message.channel_id ? 0 : 1;
    this.conn.sql(COUNT_MESSAGES).run(message.channel_id, message.id, counted, counted);
  }

  /** `ids` of the channel deleted: counted down (a forum post's starter never was); inside the caller's transaction. */
  private countDeleted(channelId: string, ids: readonly string[]): void {
    const counted = ids.filter((id) => id !== channelId).length;
    if (counted > 0) this.conn.sql(COUNT_MESSAGES).run(channelId, null, -counted, 0);
  }

  async channelCounters(channelIds: readonly string[]): Promise<StoredChannelCounters> {
    const counters = new Map<string, ChannelCounters>();
    if (channelIds.length === 0) return counters;
    const rows = this.conn
      .sql(
        `SELECT channel_id, last_message_id, message_count, total_message_sent FROM channel_message_counters
         WHERE channel_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(channelIds)) as (ChannelCounters & { channel_id: string })[];
    for (const { channel_id, ...row } of rows) counters.set(channel_id, row);
    return counters;
  }

  /** An edit rewrites the message of that id; a message that is gone stays gone. */
  async editMessage(message: StoredMessage): Promise<boolean> {
    return (
      this.conn
        .sql('UPDATE messages SET doc = ?, visible_to = ? WHERE channel_id = ? AND id = ?')
        .run(JSON.stringify(message), message.ephemeral_for_user_id, message.channel_id, message.id).changes > 0
    );
  }

  /** A plain INSERT: a new message whose id is taken fails loudly rather than overwrite another. */
  private writeMessage(message: StoredMessage): void {
    this.conn
      .sql(
        'INSERT INTO messages (channel_id, id, application_id, interaction_id, visible_to, doc) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(...messageRowValues(message));
  }

  async crosspostMessage(
    original: StoredMessage,
    copies: readonly StoredMessage[],
    flag: number,
  ): Promise<'done' | 'already' | 'gone'> {
    return this.conn.transaction(() => {
      const row = this.conn
        .sql('SELECT doc FROM messages WHERE channel_id = ? AND id = ?')
        .get(original.channel_id, original.id) as { doc: string } | undefined;
      if (!row) return 'gone';
      if ((storedDocument<StoredMessage>(row.doc).flags & flag) !== 0) return 'already';
      this.conn
        .sql('UPDATE messages SET doc = ? WHERE channel_id = ? AND id = ?')
        .run(JSON.stringify(original), original.channel_id, original.id);
      for (const copy of copies) {
        this.writeMessage(copy);
        this.countCreated(copy);
      }
      return 'done';
    });
  }

  async getMessage(channelId: string, id: string): Promise<StoredMessage | null> {
    const row = this.conn.sql('SELECT doc FROM messages WHERE channel_id = ? AND id = ?').get(channelId, id) as
      { doc: string } | undefined;
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
    const rows = this.conn
      .sql(
        `SELECT doc FROM messages WHERE channel_id = ? AND (visible_to IS NULL OR visible_to = ?)
       AND (? IS NULL OR length(id) < length(?) OR (length(id) = length(?) AND id < ?))
       AND (? IS NULL OR length(id) > length(?) OR (length(id) = length(?) AND id > ?))
       ORDER BY length(id) ${ascending ? 'ASC' : 'DESC'}, id ${ascending ? 'ASC' : 'DESC'} LIMIT ?`,
      )
      .all(
        channelId,
        viewerId,
        ...Array<string | null>(4).fill(range.before ?? null),
        ...Array<string | null>(4).fill(range.after ?? null),
        limit,
      ) as {
      doc: string;
    }[];
    const messages = rows.map((r) => storedDocument<StoredMessage>(r.doc));
    return ascending ? messages.reverse() : messages;
  }

  /** The message and its attachments' bytes, in one transaction. */
  async deleteMessage(channelId: string, id: string, ofWorldFile = false): Promise<boolean> {
    return this.conn.transaction(() => {
      const tombstoned = ofWorldFile && this.tombstone(channelId, [id]).length > 0;
      deleteMessageFiles(this.conn, channelId, id);
      this.conn.sql('DELETE FROM message_pins WHERE channel_id = ? AND message_id = ?').run(channelId, id);
      this.conn.sql('DELETE FROM message_reactions WHERE channel_id = ? AND message_id = ?').run(channelId, id);
      const row = this.conn
        .sql('DELETE FROM messages WHERE channel_id = ? AND id = ? RETURNING visible_to')
        .get(channelId, id) as { visible_to: string | null } | undefined;
      const deleted = ofWorldFile ? tombstoned : row !== undefined;
      // An ephemeral message was never counted; a world-file message's copy is counted as the message.
      if (deleted && (ofWorldFile || row?.visible_to === null)) this.countDeleted(channelId, [id]);
      return deleted;
    });
  }

  /** Records these world-file messages deleted; the ids not deleted before. Inside a transaction. */
  private tombstone(channelId: string, ids: readonly string[]): string[] {
    if (ids.length === 0) return [];
    const rows = this.conn
      .sql(
        `INSERT INTO world_message_changes (channel_id, message_id, state)
         SELECT ?, value, ? FROM json_each(?) WHERE true
         ON CONFLICT (channel_id, message_id) DO UPDATE SET state = excluded.state
         WHERE world_message_changes.state <> excluded.state RETURNING message_id`,
      )
      .all(channelId, WORLD_MESSAGE_DELETED, JSON.stringify(ids)) as { message_id: string }[];
    return rows.map((row) => row.message_id);
  }

  async editWorldMessage(message: StoredMessage): Promise<boolean> {
    return this.conn.transaction(() => {
      const first = this.conn
        .sql(
          `INSERT INTO world_message_changes (channel_id, message_id, state) VALUES (?, ?, ?)
           ON CONFLICT (channel_id, message_id) DO NOTHING`,
        )
        .run(message.channel_id, message.id, WORLD_MESSAGE_COPIED);
      if (first.changes > 0) {
        this.writeMessage(message);
        return true;
      }
      return (
        this.conn
          .sql('UPDATE messages SET doc = ?, visible_to = ? WHERE channel_id = ? AND id = ?')
          .run(JSON.stringify(message), message.ephemeral_for_user_id, message.channel_id, message.id).changes > 0
      );
    });
  }

  async changedWorldMessages(channelId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = this.conn
      .sql(
        'SELECT message_id FROM world_message_changes WHERE channel_id = ? AND message_id IN (SELECT value FROM json_each(?))',
      )
      .all(channelId, JSON.stringify(ids)) as { message_id: string }[];
    return rows.map((row) => row.message_id);
  }

  async pinMessage(channelId: string, messageId: string, pinnedAt: string, limit: number): Promise<PinOutcome> {
    return this.conn.transaction(() => {
      const pinned = this.conn
        .sql('SELECT 1 FROM message_pins WHERE channel_id = ? AND message_id = ?')
        .get(channelId, messageId);
      if (pinned) return 'already';
      const { n } = this.conn.sql('SELECT count(*) AS n FROM message_pins WHERE channel_id = ?').get(channelId) as {
        n: number;
      };
      if (n >= limit) return 'full';
      this.conn
        .sql('INSERT INTO message_pins (channel_id, message_id, pinned_at) VALUES (?, ?, ?)')
        .run(channelId, messageId, pinnedAt);
      return 'pinned';
    });
  }

  async unpinMessage(channelId: string, messageId: string): Promise<boolean> {
    return (
      this.conn.sql('DELETE FROM message_pins WHERE channel_id = ? AND message_id = ?').run(channelId, messageId)
        .changes > 0
    );
  }

  async listPins(channelId: string, limit: number, before?: string): Promise<Pin[]> {
    // Ties in time: the newer message (ids ordered as numbers by length, then text) first.
    const rows = this.conn
      .sql(
        `SELECT message_id, pinned_at FROM message_pins WHERE channel_id = ? AND (? IS NULL OR pinned_at < ?)
         ORDER BY pinned_at DESC, length(message_id) DESC, message_id DESC LIMIT ?`,
      )
      .all(channelId, before ?? null, before ?? null, limit) as { message_id: string; pinned_at: string }[];
    return rows.map((row) => ({ messageId: row.message_id, pinnedAt: row.pinned_at }));
  }

  async pinnedAmong(channelId: string, messageIds: readonly string[]): Promise<string[]> {
    if (messageIds.length === 0) return [];
    const rows = this.conn
      .sql(
        'SELECT message_id FROM message_pins WHERE channel_id = ? AND message_id IN (SELECT value FROM json_each(?))',
      )
      .all(channelId, JSON.stringify(messageIds)) as { message_id: string }[];
    return rows.map((row) => row.message_id);
  }

  async deleteMessages(
    channelId: string,
    ids: readonly string[],
    worldFileIds: readonly string[] = [],
  ): Promise<string[]> {
    return this.conn.transaction(() => {
      const tombstoned = this.tombstone(channelId, worldFileIds);
      const rows = this.conn
        .sql(
          `DELETE FROM messages WHERE channel_id = ? AND visible_to IS NULL
           AND id IN (SELECT value FROM json_each(?)) RETURNING id`,
        )
        .all(channelId, JSON.stringify(ids)) as { id: string }[];
      const gone = [...new Set([...rows.map((row) => row.id), ...tombstoned])];
      this.conn
        .sql('DELETE FROM message_pins WHERE channel_id = ? AND message_id IN (SELECT value FROM json_each(?))')
        .run(channelId, JSON.stringify(gone));
      this.conn
        .sql('DELETE FROM message_reactions WHERE channel_id = ? AND message_id IN (SELECT value FROM json_each(?))')
        .run(channelId, JSON.stringify(gone));
      deleteMessagesFiles(this.conn, channelId, gone);
      this.countDeleted(channelId, gone);
      return gone;
    });
  }

  async appendTranscript(applicationId: string, interactionId: string, entry: TranscriptEntry): Promise<void> {
    this.appendStep(applicationId, interactionId, entry);
  }

  private appendStep(applicationId: string, interactionId: string, entry: TranscriptEntry): void {
    // The next step number and the bound in one statement (SQLite has one writer).
    this.conn
      .sql(
        `INSERT INTO interaction_transcripts (application_id, interaction_id, seq, doc)
         SELECT ?, ?, count(*) + 1, ? FROM interaction_transcripts WHERE application_id = ? AND interaction_id = ?
         HAVING count(*) < ?`,
      )
      .run(applicationId, interactionId, JSON.stringify(entry), applicationId, interactionId, MAX_TRANSCRIPT_ENTRIES);
  }

  async listTranscript(applicationId: string, interactionId: string): Promise<TranscriptEntry[]> {
    const rows = this.conn
      .sql('SELECT doc FROM interaction_transcripts WHERE application_id = ? AND interaction_id = ? ORDER BY seq')
      .all(applicationId, interactionId) as { doc: string }[];
    return rows.map((row) => storedDocument<TranscriptEntry>(row.doc));
  }

  async putActivityInstance(instance: ActivityInstance): Promise<void> {
    this.conn
      .sql('INSERT INTO activity_instances (application_id, id, doc) VALUES (?, ?, ?)')
      .run(instance.application_id, instance.id, JSON.stringify(instance));
  }

  async listActivityInstances(applicationId: string): Promise<ActivityInstance[]> {
    return (
      this.conn.sql('SELECT doc FROM activity_instances WHERE application_id = ? ORDER BY id').all(applicationId) as {
        doc: string;
      }[]
    ).map((r) => storedDocument<ActivityInstance>(r.doc));
  }

  async getActivityInstance(applicationId: string, id: string): Promise<ActivityInstance | null> {
    const row = this.conn
      .sql('SELECT doc FROM activity_instances WHERE application_id = ? AND id = ?')
      .get(applicationId, id) as { doc: string } | undefined;
    return row ? storedDocument<ActivityInstance>(row.doc) : null;
  }
}

/**
 * Forgets what the API made of the world file's messages, copies included: the world replaced,
 * its messages are the file's again. Inside the caller's transaction.
 */
export function forgetWorldMessageChanges(conn: SqliteConnection): void {
  conn.db.exec(
    `DELETE FROM attachment_chunks WHERE EXISTS (SELECT 1 FROM attachment_files AS f, world_message_changes AS c
       WHERE f.channel_id = attachment_chunks.channel_id AND f.id = attachment_chunks.attachment_id
       AND c.channel_id = f.channel_id AND c.message_id = f.message_id);
     DELETE FROM attachment_files WHERE EXISTS (SELECT 1 FROM world_message_changes AS c
       WHERE c.channel_id = attachment_files.channel_id AND c.message_id = attachment_files.message_id);
     DELETE FROM messages WHERE EXISTS (SELECT 1 FROM world_message_changes AS c
       WHERE c.channel_id = messages.channel_id AND c.message_id = messages.id);
     DELETE FROM world_message_changes;
     UPDATE channel_message_counters SET message_count = (SELECT count(*) FROM messages AS m
       WHERE m.channel_id = channel_message_counters.channel_id AND m.visible_to IS NULL AND m.id <> m.channel_id);`,
  );
}
