/** The SQLite ApplicationEmojiStore: the application_emojis table. */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import {
  FIND_BY_IDS_MAX,
  type ApplicationEmojiCreation,
  type ApplicationEmojiFile,
  type ApplicationEmojiRename,
  type ApplicationEmojiStore,
  type StoredApplicationEmoji,
} from './store.js';

interface EmojiRow {
  id: string;
  application_id: string;
  name: string;
  animated: number;
}

const COLUMNS = 'id, application_id, name, animated';

function emojiOf(row: EmojiRow): StoredApplicationEmoji {
  return { id: row.id, application_id: row.application_id, name: row.name, animated: row.animated === 1 };
}

export class SqliteApplicationEmojiStore implements ApplicationEmojiStore {
  constructor(private readonly conn: SqliteConnection) {}

  async create(
    emoji: StoredApplicationEmoji,
    file: ApplicationEmojiFile,
    max: number,
  ): Promise<ApplicationEmojiCreation> {
    return this.conn.transaction(() => {
      const { n } = this.conn
        .sql('SELECT count(*) AS n FROM application_emojis WHERE application_id = ?')
        .get(emoji.application_id) as { n: number };
      if (n >= max) return 'full';
      if (this.named(emoji.application_id, emoji.name)) return 'name_taken';
      this.conn
        .sql(
          `INSERT INTO application_emojis (application_id, id, name, animated, content_type, bytes)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(
          emoji.application_id,
          emoji.id,
          emoji.name,
          emoji.animated ? 1 : 0,
          file.content_type,
          Buffer.from(file.bytes),
        );
      return 'created';
    });
  }

  async list(applicationId: string): Promise<StoredApplicationEmoji[]> {
    const rows = this.conn
      .sql(`SELECT ${COLUMNS} FROM application_emojis WHERE application_id = ? ORDER BY length(id), id`)
      .all(applicationId) as EmojiRow[];
    return rows.map(emojiOf);
  }

  async get(applicationId: string, id: string): Promise<StoredApplicationEmoji | null> {
    const row = this.conn
      .sql(`SELECT ${COLUMNS} FROM application_emojis WHERE application_id = ? AND id = ?`)
      .get(applicationId, id) as EmojiRow | undefined;
    return row ? emojiOf(row) : null;
  }

  async rename(applicationId: string, id: string, name: string): Promise<ApplicationEmojiRename> {
    return this.conn.transaction(() => {
      const holder = this.named(applicationId, name);
      if (holder !== undefined && holder !== id) return 'name_taken';
      const done = this.conn
        .sql('UPDATE application_emojis SET name = ? WHERE application_id = ? AND id = ?')
        .run(name, applicationId, id);
      return done.changes > 0 ? 'renamed' : 'unknown';
    });
  }

  async delete(applicationId: string, id: string): Promise<boolean> {
    return (
      this.conn.sql('DELETE FROM application_emojis WHERE application_id = ? AND id = ?').run(applicationId, id)
        .changes > 0
    );
  }

  async getFile(id: string): Promise<ApplicationEmojiFile | null> {
    const row = this.conn.sql('SELECT content_type, bytes FROM application_emojis WHERE id = ? LIMIT 1').get(id) as
      { content_type: string; bytes: Buffer } | undefined;
    return row ? { content_type: row.content_type, bytes: new Uint8Array(row.bytes) } : null;
  }

  async findByIds(ids: readonly string[]): Promise<StoredApplicationEmoji[]> {
    const wanted = [...new Set(ids)].slice(0, FIND_BY_IDS_MAX);
    if (wanted.length === 0) return [];
    const rows = this.conn
      .sql(`SELECT ${COLUMNS} FROM application_emojis WHERE id IN (${wanted.map(() => '?').join(', ')})`)
      .all(...wanted) as EmojiRow[];
    return rows.map(emojiOf);
  }

  /** The id of the application's emoji of that name, if any. */
  private named(applicationId: string, name: string): string | undefined {
    const row = this.conn
      .sql('SELECT id FROM application_emojis WHERE application_id = ? AND name = ?')
      .get(applicationId, name) as { id: string } | undefined;
    return row?.id;
  }
}
