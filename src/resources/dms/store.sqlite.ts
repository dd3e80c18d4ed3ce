/** The SQLite DmChannelStore: one `dm_channels` row per app's bot and user (`Store.dms`). */
import type { DmChannel, DmChannelStore } from './store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

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
}
