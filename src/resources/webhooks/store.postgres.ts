/** The PostgreSQL WebhookStore: the webhooks table (rows deleted with their channel, `channelOwnedTables`). */
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import type { StoredWebhook, WebhookAvatarImage, WebhookStore, WebhookWrite } from './store.js';

/** Every column but the avatar's bytes, which only the avatar read takes. */
const COLUMNS =
  'id, application_id, guild_id, channel_id, name, avatar, token_digest, created_at, type, source_guild_id, source_channel_id';

interface WebhookRow extends Omit<StoredWebhook, 'created_at'> {
  /** BIGINT comes back as text. */
  created_at: string | number;
}

function fromRow(row: WebhookRow): StoredWebhook {
  return { ...row, created_at: Number(row.created_at) };
}

export class PostgresWebhookStore implements WebhookStore {
  constructor(private readonly conn: PostgresConnection) {}

  /** One writer per channel at a time, so that two racing creates cannot both take its last place. */
  private async lockChannel(client: PostgresClient, channelId: string): Promise<void> {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd webhooks/' || $1, 0))", [channelId]);
  }

  private async countIn(client: PostgresClient, channelId: string): Promise<number> {
    const counted = await client.query<{ n: string }>('SELECT count(*) AS n FROM webhooks WHERE channel_id = $1', [
      channelId,
    ]);
    return Number(counted.rows[0]?.n ?? 0);
  }

  async createWebhook(
    webhook: StoredWebhook,
    avatar: WebhookAvatarImage | null,
    maxPerChannel: number,
  ): Promise<WebhookWrite> {
    return this.conn.transaction(async (client) => {
      await this.lockChannel(client, webhook.channel_id);
      if ((await this.countIn(client, webhook.channel_id)) >= maxPerChannel) return 'full';
      await client.query(
        `INSERT INTO webhooks (${COLUMNS}, avatar_type, avatar_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          webhook.id,
          webhook.application_id,
          webhook.guild_id,
          webhook.channel_id,
          webhook.name,
          webhook.avatar,
          webhook.token_digest,
          webhook.created_at,
          webhook.type,
          webhook.source_guild_id,
          webhook.source_channel_id,
          avatar?.contentType ?? null,
          avatar ? Buffer.from(avatar.bytes) : null,
        ],
      );
      return 'done';
    });
  }

  async findWebhook(id: string): Promise<StoredWebhook | null> {
    const found = await this.conn.pool.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1`, [id]);
    return found.rows[0] ? fromRow(found.rows[0]) : null;
  }

  async getWebhook(applicationId: string, id: string): Promise<StoredWebhook | null> {
    const found = await this.conn.pool.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE application_id = $1 AND id = $2`,
      [applicationId, id],
    );
    return found.rows[0] ? fromRow(found.rows[0]) : null;
  }

  async listChannelWebhooks(applicationId: string, channelId: string): Promise<StoredWebhook[]> {
    const found = await this.conn.pool.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE application_id = $1 AND channel_id = $2 ORDER BY length(id), id`,
      [applicationId, channelId],
    );
    return found.rows.map(fromRow);
  }

  async listGuildWebhooks(applicationId: string, guildId: string): Promise<StoredWebhook[]> {
    const found = await this.conn.pool.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE application_id = $1 AND guild_id = $2 ORDER BY length(id), id`,
      [applicationId, guildId],
    );
    return found.rows.map(fromRow);
  }

  async updateWebhook(
    applicationId: string,
    webhook: StoredWebhook,
    avatar: WebhookAvatarImage | null | undefined,
    maxPerChannel: number,
  ): Promise<WebhookWrite> {
    return this.conn.transaction(async (client) => {
      await this.lockChannel(client, webhook.channel_id);
      const before = await client.query<{ channel_id: string }>(
        'SELECT channel_id FROM webhooks WHERE application_id = $1 AND id = $2 FOR UPDATE',
        [applicationId, webhook.id],
      );
      const row = before.rows[0];
      if (!row) return 'gone';
      if (row.channel_id !== webhook.channel_id && (await this.countIn(client, webhook.channel_id)) >= maxPerChannel) {
        return 'full';
      }
      await client.query(
        'UPDATE webhooks SET channel_id = $1, name = $2, avatar = $3 WHERE application_id = $4 AND id = $5',
        [webhook.channel_id, webhook.name, webhook.avatar, applicationId, webhook.id],
      );
      if (avatar !== undefined) {
        await client.query(
          'UPDATE webhooks SET avatar_type = $1, avatar_bytes = $2 WHERE application_id = $3 AND id = $4',
          [avatar?.contentType ?? null, avatar ? Buffer.from(avatar.bytes) : null, applicationId, webhook.id],
        );
      }
      return 'done';
    });
  }

  async deleteWebhook(applicationId: string | null, id: string): Promise<StoredWebhook | null> {
    const deleted = await this.conn.pool.query<WebhookRow>(
      applicationId === null
        ? `DELETE FROM webhooks WHERE id = $1 RETURNING ${COLUMNS}`
        : `DELETE FROM webhooks WHERE id = $1 AND application_id = $2 RETURNING ${COLUMNS}`,
      applicationId === null ? [id] : [id, applicationId],
    );
    return deleted.rows[0] ? fromRow(deleted.rows[0]) : null;
  }

  async listFollowers(sourceChannelId: string, limit: number): Promise<StoredWebhook[]> {
    const found = await this.conn.pool.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE source_channel_id = $1 AND type = 2 ORDER BY length(id), id LIMIT $2`,
      [sourceChannelId, limit],
    );
    return found.rows.map(fromRow);
  }

  async getAvatar(webhookId: string, hash: string): Promise<WebhookAvatarImage | null> {
    const found = await this.conn.pool.query<{ avatar_type: string; avatar_bytes: Buffer }>(
      'SELECT avatar_type, avatar_bytes FROM webhooks WHERE id = $1 AND avatar = $2 AND avatar_bytes IS NOT NULL',
      [webhookId, hash],
    );
    const row = found.rows[0];
    return row ? { hash, contentType: row.avatar_type, bytes: new Uint8Array(row.avatar_bytes) } : null;
  }
}
