/** The PostgreSQL AttachmentStore: files in bytea pieces, so that many nodes serve every file. */
import { randomBytes } from 'node:crypto';
import type { AttachmentFile, AttachmentOwner, AttachmentStore, StoredAttachmentFile } from './store.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import type { StoredAttachment } from './rules/model.js';

type Queryable = Pick<PostgresClient, 'query'>;

export class PostgresAttachmentStore implements AttachmentStore {
  constructor(private readonly conn: PostgresConnection) {}

  async putFiles(owner: AttachmentOwner, files: readonly AttachmentFile[]): Promise<void> {
    await this.conn.transaction(async (client) => {
      for (const file of files) {
        await client.query(
          'INSERT INTO attachment_files (channel_id, id, message_id, owner_id, doc, size) VALUES ($1, $2, $3, $4, $5, $6)',
          [owner.channelId, file.id, owner.messageId, owner.ownerId, JSON.stringify(file.attachment), file.size],
        );
        let seq = 0;
        for await (const chunk of file.chunks()) {
          await client.query(
            'INSERT INTO attachment_chunks (channel_id, attachment_id, seq, bytes) VALUES ($1, $2, $3, $4)',
            [owner.channelId, file.id, seq++, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)],
          );
        }
      }
    });
  }

  async findFile(channelId: string, attachmentId: string): Promise<StoredAttachmentFile | null> {
    const result = await this.conn.pool.query<{ owner_id: string; message_id: string; doc: string; size: string }>(
      'SELECT owner_id, message_id, doc, size FROM attachment_files WHERE channel_id = $1 AND id = $2',
      [channelId, attachmentId],
    );
    const row = result.rows[0];
    if (!row) return null;
    const attachment = JSON.parse(row.doc) as StoredAttachment;
    return { attachment, ownerId: row.owner_id, messageId: row.message_id, size: Number(row.size) };
  }

  async readFile(channelId: string, attachmentId: string): Promise<AsyncIterable<Uint8Array> | null> {
    if (!(await this.findFile(channelId, attachmentId))) return null;
    const pool = this.conn.pool;
    return (async function* pieces() {
      for (let seq = 0; ; seq += 1) {
        const result = await pool.query<{ bytes: Buffer }>(
          'SELECT bytes FROM attachment_chunks WHERE channel_id = $1 AND attachment_id = $2 AND seq = $3',
          [channelId, attachmentId, seq],
        );
        const row = result.rows[0];
        if (!row) return;
        yield row.bytes;
      }
    })();
  }

  async deleteFiles(channelId: string, attachmentIds: readonly string[]): Promise<void> {
    if (attachmentIds.length === 0) return;
    await this.conn.transaction(async (client) => {
      await client.query('DELETE FROM attachment_chunks WHERE channel_id = $1 AND attachment_id = ANY($2::text[])', [
        channelId,
        attachmentIds,
      ]);
      await client.query('DELETE FROM attachment_files WHERE channel_id = $1 AND id = ANY($2::text[])', [
        channelId,
        attachmentIds,
      ]);
    });
  }

  async storedBytes(ownerId: string): Promise<number> {
    const result = await this.conn.pool.query<{ total: string }>(
      'SELECT COALESCE(SUM(size), 0) AS total FROM attachment_files WHERE owner_id = $1',
      [ownerId],
    );
    return Number(result.rows[0]?.total ?? 0);
  }

  async urlSigningKey(): Promise<Uint8Array> {
    // Nodes starting together each offer a key; the row the first one wrote is everyone's.
    await this.conn.pool.query(
      'INSERT INTO attachment_url_keys (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
      [randomBytes(URL_KEY_BYTES)],
    );
    const result = await this.conn.pool.query<{ secret: Buffer }>(
      'SELECT secret FROM attachment_url_keys WHERE id = 1',
    );
    const row = result.rows[0];
    if (!row) throw new Error('the attachment URL key was not written');
    return row.secret;
  }
}

/** Bytes of the URL signing key: HMAC-SHA256's block of entropy. */
const URL_KEY_BYTES = 32;

/** A message's files, deleted inside the transaction that deletes the message. */
export async function deleteMessageFiles(db: Queryable, channelId: string, messageId: string): Promise<void> {
  await db.query(
    `DELETE FROM attachment_chunks WHERE channel_id = $1 AND attachment_id IN
     (SELECT id FROM attachment_files WHERE channel_id = $1 AND message_id = $2)`,
    [channelId, messageId],
  );
  await db.query('DELETE FROM attachment_files WHERE channel_id = $1 AND message_id = $2', [channelId, messageId]);
}
