/** The SQLite DmChannelStore: one `dm_channels` row per app's bot and user (`Store.dms`). */
import type { DmChannel, DmChannelStore } from './store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { GroupDm } from '../../core/world/types.js';
import { storedDocument } from '../../store/rows.js';

/**
 * Writes the world's group DMs (inside the world store's transaction): each one's document and its
 * recipients; with `replace`, the stored ones become exactly these.
 */
export function writeGroupDms(conn: SqliteConnection, groupDms: readonly GroupDm[], replace: boolean): void {
  if (replace) conn.db.exec('DELETE FROM group_dms; DELETE FROM group_dm_recipients;');
  const put = conn.sql(
    'INSERT INTO group_dms (channel_id, doc) VALUES (?, ?) ON CONFLICT (channel_id) DO UPDATE SET doc = excluded.doc',
  );
  const forget = conn.sql('DELETE FROM group_dm_recipients WHERE channel_id = ?');
  const add = conn.sql('INSERT INTO group_dm_recipients (channel_id, user_id) VALUES (?, ?)');
  for (const dm of groupDms) {
    put.run(dm.id, JSON.stringify(dm));
    forget.run(dm.id);
    for (const userId of dm.recipients) add.run(dm.id, userId);
  }
}

/** Every stored group DM, by id (the world's export). */
export function listGroupDms(conn: SqliteConnection): GroupDm[] {
  const rows = conn.sql('SELECT doc FROM group_dms ORDER BY length(channel_id), channel_id').all() as { doc: string }[];
  return rows.map((row) => storedDocument<GroupDm>(row.doc));
}

export class SqliteDmChannels implements DmChannelStore {
  constructor(private readonly conn: SqliteConnection) {}

  async openDmChannel(applicationId: string, userId: string, newId: string): Promise<DmChannel> {
    return this.conn.transaction(() => {
      this.conn
        .sql('INSERT INTO dm_channels (channel_id, application_id, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
        .run(newId, applicationId, userId);
      return this.conn
        .sql(
          'SELECT channel_id AS id, application_id, user_id FROM dm_channels WHERE application_id = ? AND user_id = ?',
        )
        .get(applicationId, userId) as DmChannel;
    });
  }

  async getDmChannel(channelId: string): Promise<DmChannel | null> {
    const row = this.conn
      .sql('SELECT channel_id AS id, application_id, user_id FROM dm_channels WHERE channel_id = ?')
      .get(channelId) as DmChannel | undefined;
    return row ?? null;
  }

  async listDmChannelsOfUser(userId: string): Promise<DmChannel[]> {
    return this.conn
      .sql(
        `SELECT channel_id AS id, application_id, user_id FROM dm_channels WHERE user_id = ?
         ORDER BY length(channel_id), channel_id`,
      )
      .all(userId) as DmChannel[];
  }

  async getGroupDm(channelId: string): Promise<GroupDm | null> {
    const row = this.conn.sql('SELECT doc FROM group_dms WHERE channel_id = ?').get(channelId) as
      { doc: string } | undefined;
    return row ? storedDocument<GroupDm>(row.doc) : null;
  }

  async listGroupDmsOfUser(userId: string): Promise<GroupDm[]> {
    const rows = this.conn
      .sql(
        `SELECT g.doc FROM group_dm_recipients AS r JOIN group_dms AS g ON g.channel_id = r.channel_id
         WHERE r.user_id = ? ORDER BY length(g.channel_id), g.channel_id`,
      )
      .all(userId) as { doc: string }[];
    return rows.map((row) => storedDocument<GroupDm>(row.doc));
  }
}
