/** The SQLite AttachmentStore: files in BLOB pieces next to the messages that hold them. */
import { randomBytes } from 'node:crypto';
import type { AttachmentFile, AttachmentOwner, AttachmentStore, StoredAttachmentFile } from './store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { StoredAttachment } from './rules/model.js';

/** Lets the event loop run what waits (other requests, timers) before the next piece. */
function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class SqliteAttachmentStore implements AttachmentStore {
  constructor(private readonly conn: SqliteConnection) {}

  /**
   * The pieces go in one by one, each its own short write, the loop let go between them: a whole
   * file in one transaction would hold the event loop (and every other request) for its length.
   * The files' rows, which make them found, come last in one transaction; a failure removes the
   * pieces written.
   */
  async putFiles(owner: AttachmentOwner, files: readonly AttachmentFile[]): Promise<void> {
    const insertFile = this.conn.sql(
      'INSERT INTO attachment_files (channel_id, id, message_id, owner_id, doc, size) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertChunk = this.conn.sql(
      'INSERT INTO attachment_chunks (channel_id, attachment_id, seq, bytes) VALUES (?, ?, ?, ?)',
    );
    const written = new Map<string, number>();
    try {
      for (const file of files) {
        let seq = 0;
        for await (const chunk of file.chunks()) {
          insertChunk.run(owner.channelId, file.id, seq, chunk);
          written.set(file.id, ++seq);
          await yieldToOthers();
        }
      }
      this.conn.transaction(() => {
        for (const file of files) {
          insertFile.run(
            owner.channelId,
            file.id,
            owner.messageId,
            owner.ownerId,
            JSON.stringify(file.attachment),
            file.size,
          );
        }
      });
    } catch (error) {
      const removeChunks = this.conn.sql(
        'DELETE FROM attachment_chunks WHERE channel_id = ? AND attachment_id = ? AND seq < ?',
      );
      this.conn.transaction(() => {
        for (const [id, count] of written) removeChunks.run(owner.channelId, id, count);
      });
      throw error;
    }
  }

  async findFile(channelId: string, attachmentId: string): Promise<StoredAttachmentFile | null> {
    const row = this.conn
      .sql('SELECT owner_id, message_id, doc, size FROM attachment_files WHERE channel_id = ? AND id = ?')
      .get(channelId, attachmentId) as { owner_id: string; message_id: string; doc: string; size: number } | undefined;
    if (!row) return null;
    const attachment = JSON.parse(row.doc) as StoredAttachment;
    return { attachment, ownerId: row.owner_id, messageId: row.message_id, size: row.size };
  }

  async readFile(channelId: string, attachmentId: string): Promise<AsyncIterable<Uint8Array> | null> {
    if (!(await this.findFile(channelId, attachmentId))) return null;
    const piece = this.conn
      .sql('SELECT bytes FROM attachment_chunks WHERE channel_id = ? AND attachment_id = ? AND seq = ?')
      .pluck();
    return (async function* pieces() {
      for (let seq = 0; ; seq += 1) {
        const bytes = piece.get(channelId, attachmentId, seq) as Buffer | undefined;
        if (bytes === undefined) return;
        yield bytes;
      }
    })();
  }

  async deleteFiles(channelId: string, attachmentIds: readonly string[]): Promise<void> {
    if (attachmentIds.length === 0) return;
    this.conn.transaction(() => {
      for (const id of attachmentIds) deleteFileRows(this.conn, channelId, id);
    });
  }

  async storedBytes(ownerId: string): Promise<number> {
    const total = this.conn
      .sql('SELECT COALESCE(SUM(size), 0) FROM attachment_files WHERE owner_id = ?')
      .pluck()
      .get(ownerId) as number;
    return total;
  }

  async urlSigningKey(): Promise<Uint8Array> {
    this.conn
      .sql('INSERT OR IGNORE INTO attachment_url_keys (id, secret) VALUES (1, ?)')
      .run(randomBytes(URL_KEY_BYTES));
    return this.conn.sql('SELECT secret FROM attachment_url_keys WHERE id = 1').pluck().get() as Buffer;
  }
}

/** Bytes of the URL signing key: HMAC-SHA256's block of entropy. */
const URL_KEY_BYTES = 32;

function deleteFileRows(conn: SqliteConnection, channelId: string, id: string): void {
  conn.sql('DELETE FROM attachment_chunks WHERE channel_id = ? AND attachment_id = ?').run(channelId, id);
  conn.sql('DELETE FROM attachment_files WHERE channel_id = ? AND id = ?').run(channelId, id);
}

/** A message's files, deleted inside the transaction that deletes the message. */
export function deleteMessageFiles(conn: SqliteConnection, channelId: string, messageId: string): void {
  conn
    .sql(
      `DELETE FROM attachment_chunks WHERE channel_id = ? AND attachment_id IN
       (SELECT id FROM attachment_files WHERE channel_id = ? AND message_id = ?)`,
    )
    .run(channelId, channelId, messageId);
  conn.sql('DELETE FROM attachment_files WHERE channel_id = ? AND message_id = ?').run(channelId, messageId);
}

/** The files of the messages `messageIds` (a bulk delete), inside the caller's transaction. */
export function deleteMessagesFiles(conn: SqliteConnection, channelId: string, messageIds: readonly string[]): void {
  const ids = JSON.stringify(messageIds);
  conn
    .sql(
      `DELETE FROM attachment_chunks WHERE channel_id = ? AND attachment_id IN
       (SELECT id FROM attachment_files WHERE channel_id = ? AND message_id IN (SELECT value FROM json_each(?)))`,
    )
    .run(channelId, channelId, ids);
  conn
    .sql('DELETE FROM attachment_files WHERE channel_id = ? AND message_id IN (SELECT value FROM json_each(?))')
    .run(channelId, ids);
}
