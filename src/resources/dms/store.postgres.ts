/** The PostgreSQL DmChannelStore: one `dm_channels` row per app's bot and user (`Store.dms`). */
import type { DmChannel, DmChannelStore } from './store.js';
import type { PostgresConnection } from '../../store/postgres/connection.js';

const DM_COLUMNS = 'channel_id AS id, application_id, user_id';

export class PostgresDmChannels implements DmChannelStore {
  constructor(private readonly conn: PostgresConnection) {}

  async openDmChannel(applicationId: string, userId: string, newId: string): Promise<DmChannel> {
    // One statement: the insert's conflict makes a racing second open read the first one's row.
    const result = await this.conn.pool.query<DmChannel>(
      `WITH opened AS (
         INSERT INTO dm_channels (channel_id, application_id, user_id) VALUES ($1, $2, $3)
         ON CONFLICT (application_id, user_id) DO NOTHING RETURNING ${DM_COLUMNS}
       )
       SELECT * FROM opened
       UNION ALL SELECT ${DM_COLUMNS} FROM dm_channels WHERE application_id = $2 AND user_id = $3
       LIMIT 1`,
      [newId, applicationId, userId],
    );
    const row = result.rows[0];
    if (row) return row;
    // The racing insert committed after this statement's snapshot: read it now.
    const again = await this.conn.pool.query<DmChannel>(
      `SELECT ${DM_COLUMNS} FROM dm_channels WHERE application_id = $1 AND user_id = $2`,
      [applicationId, userId],
    );
    return again.rows[0]!;
  }

  async getDmChannel(channelId: string): Promise<DmChannel | null> {
    const result = await this.conn.pool.query<DmChannel>(
      `SELECT ${DM_COLUMNS} FROM dm_channels WHERE channel_id = $1`,
      [channelId],
    );
    return result.rows[0] ?? null;
  }

  async listDmChannelsOfUser(userId: string): Promise<DmChannel[]> {
    const result = await this.conn.pool.query<DmChannel>(
      `SELECT ${DM_COLUMNS} FROM dm_channels WHERE user_id = $1 ORDER BY length(channel_id), channel_id`,
      [userId],
    );
    return result.rows;
  }
}
