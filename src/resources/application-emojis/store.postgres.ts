/**
 * The PostgreSQL ApplicationEmojiStore: the application_emojis table. An application's creates and
 * renames run one at a time under its scope lock, so two cannot both take its last place or a name.
 */
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import {
  FIND_BY_IDS_MAX,
  type ApplicationEmojiCreation,
  type ApplicationEmojiFile,
  type ApplicationEmojiRename,
  type ApplicationEmojiStore,
  type StoredApplicationEmoji,
} from './store.js';

/** The scope lock of an application's emoji writes. */
const WRITE_SCOPE = 'application-emojis';
const COLUMNS = 'id, application_id, name, animated';

type EmojiRow = StoredApplicationEmoji;

function emojiOf(row: EmojiRow): StoredApplicationEmoji {
  return { id: row.id, application_id: row.application_id, name: row.name, animated: row.animated };
}

export class PostgresApplicationEmojiStore implements ApplicationEmojiStore {
  constructor(private readonly conn: PostgresConnection) {}

  async create(
    emoji: StoredApplicationEmoji,
    file: ApplicationEmojiFile,
    max: number,
  ): Promise<ApplicationEmojiCreation> {
    return this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, emoji.application_id, WRITE_SCOPE);
      const count = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM application_emojis WHERE application_id = $1',
        [emoji.application_id],
      );
      if (Number(count.rows[0]?.n ?? 0) >= max) return 'full';
      if ((await named(client, emoji.application_id, emoji.name)) !== undefined) return 'name_taken';
      await client.query(
        `INSERT INTO application_emojis (application_id, id, name, animated, content_type, bytes)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [emoji.application_id, emoji.id, emoji.name, emoji.animated, file.content_type, Buffer.from(file.bytes)],
      );
      return 'created';
    });
  }

  async list(applicationId: string): Promise<StoredApplicationEmoji[]> {
    const result = await this.conn.pool.query<EmojiRow>(
      `SELECT ${COLUMNS} FROM application_emojis WHERE application_id = $1 ORDER BY length(id), id`,
      [applicationId],
    );
    return result.rows.map(emojiOf);
  }

  async get(applicationId: string, id: string): Promise<StoredApplicationEmoji | null> {
    const result = await this.conn.pool.query<EmojiRow>(
      `SELECT ${COLUMNS} FROM application_emojis WHERE application_id = $1 AND id = $2`,
      [applicationId, id],
    );
    return result.rows[0] ? emojiOf(result.rows[0]) : null;
  }

  async rename(applicationId: string, id: string, name: string): Promise<ApplicationEmojiRename> {
    return this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, applicationId, WRITE_SCOPE);
      const holder = await named(client, applicationId, name);
      if (holder !== undefined && holder !== id) return 'name_taken';
      const done = await client.query('UPDATE application_emojis SET name = $1 WHERE application_id = $2 AND id = $3', [
        name,
        applicationId,
        id,
      ]);
      return (done.rowCount ?? 0) > 0 ? 'renamed' : 'unknown';
    });
  }

  async delete(applicationId: string, id: string): Promise<boolean> {
    const done = await this.conn.pool.query('DELETE FROM application_emojis WHERE application_id = $1 AND id = $2', [
      applicationId,
      id,
    ]);
    return (done.rowCount ?? 0) > 0;
  }

  async getFile(id: string): Promise<ApplicationEmojiFile | null> {
    const result = await this.conn.pool.query<{ content_type: string; bytes: Buffer }>(
      'SELECT content_type, bytes FROM application_emojis WHERE id = $1 LIMIT 1',
      [id],
    );
    const row = result.rows[0];
    return row ? { content_type: row.content_type, bytes: new Uint8Array(row.bytes) } : null;
  }

  async findByIds(ids: readonly string[]): Promise<StoredApplicationEmoji[]> {
    const wanted = [...new Set(ids)].slice(0, FIND_BY_IDS_MAX);
    if (wanted.length === 0) return [];
    const result = await this.conn.pool.query<EmojiRow>(
      `SELECT ${COLUMNS} FROM application_emojis WHERE id = ANY($1::text[])`,
      [wanted],
    );
    return result.rows.map(emojiOf);
  }
}

/** The id of the application's emoji of that name, if any (inside the caller's transaction). */
async function named(client: PostgresClient, applicationId: string, name: string): Promise<string | undefined> {
  const result = await client.query<{ id: string }>(
    'SELECT id FROM application_emojis WHERE application_id = $1 AND name = $2',
    [applicationId, name],
  );
  return result.rows[0]?.id;
}
