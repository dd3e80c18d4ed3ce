/** The PostgreSQL DmChannelStore: one `dm_channels` row per app's bot and user (`Store.dms`). */
import type { DmChannel, DmChannelStore } from './store.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import type { GroupDm } from '../../core/world/types.js';
import { storedDocument } from '../../store/rows.js';

type Queryable = Pick<PostgresClient, 'query'>;

/**
 * Writes the world's group DMs (inside the world store's transaction): each one's document and its
 * recipients; with `replace`, the stored ones become exactly these.
 */
export async function writeGroupDms(client: Queryable, groupDms: readonly GroupDm[], replace: boolean): Promise<void> {
  if (replace) {
    await client.query('DELETE FROM group_dms');
    await client.query('DELETE FROM group_dm_recipients');
  }
  for (const dm of groupDms) {
    await client.query(
      'INSERT INTO group_dms (channel_id, doc) VALUES ($1, $2) ON CONFLICT (channel_id) DO UPDATE SET doc = excluded.doc',
      [dm.id, JSON.stringify(dm)],
    );
    await client.query('DELETE FROM group_dm_recipients WHERE channel_id = $1', [dm.id]);
    await client.query('INSERT INTO group_dm_recipients (channel_id, user_id) SELECT $1, unnest($2::text[])', [
      dm.id,
      dm.recipients,
    ]);
  }
}

/** Every stored group DM, by id (the world's export). */
export async function listGroupDms(client: Queryable): Promise<GroupDm[]> {
  const result = await client.query<{ doc: string }>(
    'SELECT doc FROM group_dms ORDER BY length(channel_id), channel_id',
  );
  return result.rows.map((row) => storedDocument<GroupDm>(row.doc));
}

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

  async getGroupDm(channelId: string): Promise<GroupDm | null> {
    const result = await this.conn.pool.query<{ doc: string }>('SELECT doc FROM group_dms WHERE channel_id = $1', [
      channelId,
    ]);
    const row = result.rows[0];
    return row ? storedDocument<GroupDm>(row.doc) : null;
  }

  async listGroupDmsOfUser(userId: string): Promise<GroupDm[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      `SELECT g.doc FROM group_dm_recipients AS r JOIN group_dms AS g ON g.channel_id = r.channel_id
       WHERE r.user_id = $1 ORDER BY length(g.channel_id), g.channel_id`,
      [userId],
    );
    return result.rows.map((row) => storedDocument<GroupDm>(row.doc));
  }
}
