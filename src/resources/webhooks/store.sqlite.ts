/** The SQLite WebhookStore: the webhooks table (rows deleted with their channel, `channelOwnedTables`). */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { StoredWebhook, WebhookAvatarImage, WebhookStore, WebhookWrite } from './store.js';

/** Every column but the avatar's bytes, which only the avatar read takes. */
const COLUMNS =
  'id, application_id, guild_id, channel_id, name, avatar, token_digest, created_at, type, source_guild_id, source_channel_id';

export class SqliteWebhookStore implements WebhookStore {
  constructor(private readonly conn: SqliteConnection) {}

  async createWebhook(
    webhook: StoredWebhook,
    avatar: WebhookAvatarImage | null,
    maxPerChannel: number,
  ): Promise<WebhookWrite> {
    return this.conn.transaction(() => {
      if (this.countIn(webhook.channel_id) >= maxPerChannel) return 'full';
      this.conn
        .sql(
          `INSERT INTO webhooks (${COLUMNS}, avatar_type, avatar_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...values(webhook), avatar?.contentType ?? null, avatar ? Buffer.from(avatar.bytes) : null);
      return 'done';
    });
  }

  private countIn(channelId: string): number {
    return (this.conn.sql('SELECT count(*) AS n FROM webhooks WHERE channel_id = ?').get(channelId) as { n: number }).n;
  }

  async findWebhook(id: string): Promise<StoredWebhook | null> {
    return (this.conn.sql(`SELECT ${COLUMNS} FROM webhooks WHERE id = ?`).get(id) as StoredWebhook | undefined) ?? null;
  }

  async getWebhook(applicationId: string, id: string): Promise<StoredWebhook | null> {
    return (
      (this.conn.sql(`SELECT ${COLUMNS} FROM webhooks WHERE application_id = ? AND id = ?`).get(applicationId, id) as
        StoredWebhook | undefined) ?? null
    );
  }

  async listChannelWebhooks(applicationId: string, channelId: string): Promise<StoredWebhook[]> {
    return this.conn
      .sql(`SELECT ${COLUMNS} FROM webhooks WHERE application_id = ? AND channel_id = ? ORDER BY length(id), id`)
      .all(applicationId, channelId) as StoredWebhook[];
  }

  async listGuildWebhooks(applicationId: string, guildId: string): Promise<StoredWebhook[]> {
    return this.conn
      .sql(`SELECT ${COLUMNS} FROM webhooks WHERE application_id = ? AND guild_id = ? ORDER BY length(id), id`)
      .all(applicationId, guildId) as StoredWebhook[];
  }

  async updateWebhook(
    applicationId: string,
    webhook: StoredWebhook,
    avatar: WebhookAvatarImage | null | undefined,
    maxPerChannel: number,
  ): Promise<WebhookWrite> {
    return this.conn.transaction(() => {
      const before = this.conn
        .sql('SELECT channel_id FROM webhooks WHERE application_id = ? AND id = ?')
        .get(applicationId, webhook.id) as { channel_id: string } | undefined;
      if (!before) return 'gone';
      if (before.channel_id !== webhook.channel_id && this.countIn(webhook.channel_id) >= maxPerChannel) return 'full';
      this.conn
        .sql('UPDATE webhooks SET channel_id = ?, name = ?, avatar = ? WHERE application_id = ? AND id = ?')
        .run(webhook.channel_id, webhook.name, webhook.avatar, applicationId, webhook.id);
      if (avatar !== undefined) {
        this.conn
          .sql('UPDATE webhooks SET avatar_type = ?, avatar_bytes = ? WHERE application_id = ? AND id = ?')
          .run(avatar?.contentType ?? null, avatar ? Buffer.from(avatar.bytes) : null, applicationId, webhook.id);
      }
      return 'done';
    });
  }

  async deleteWebhook(applicationId: string | null, id: string): Promise<StoredWebhook | null> {
    return this.conn.transaction(() => {
      const row = (
        applicationId === null
          ? this.conn.sql(`SELECT ${COLUMNS} FROM webhooks WHERE id = ?`).get(id)
          : this.conn.sql(`SELECT ${COLUMNS} FROM webhooks WHERE application_id = ? AND id = ?`).get(applicationId, id)
      ) as StoredWebhook | undefined;
      if (!row) return null;
      this.conn.sql('DELETE FROM webhooks WHERE id = ?').run(id);
      return row;
    });
  }

  async listFollowers(sourceChannelId: string, limit: number): Promise<StoredWebhook[]> {
    return this.conn
      .sql(`SELECT ${COLUMNS} FROM webhooks WHERE source_channel_id = ? AND type = 2 ORDER BY length(id), id LIMIT ?`)
      .all(sourceChannelId, limit) as StoredWebhook[];
  }

  async getAvatar(webhookId: string, hash: string): Promise<WebhookAvatarImage | null> {
    const row = this.conn
      .sql('SELECT avatar_type, avatar_bytes FROM webhooks WHERE id = ? AND avatar = ? AND avatar_bytes IS NOT NULL')
      .get(webhookId, hash) as { avatar_type: string; avatar_bytes: Buffer } | undefined;
    return row ? { hash, contentType: row.avatar_type, bytes: new Uint8Array(row.avatar_bytes) } : null;
  }
}

function values(webhook: StoredWebhook): unknown[] {
  return [
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
  ];
}
