/** The PostgreSQL ExpressionAssetStore: the expression_assets table. */
import type { PostgresConnection } from '../../store/postgres/connection.js';
import type { ExpressionAsset, ExpressionAssetStore, ExpressionKind } from './store.js';

interface AssetRow extends Omit<ExpressionAsset, 'bytes' | 'kind'> {
  kind: string;
  bytes: Buffer;
}

export class PostgresExpressionAssetStore implements ExpressionAssetStore {
  constructor(private readonly conn: PostgresConnection) {}

  async putAsset(asset: ExpressionAsset, maxPerGuild: number): Promise<'done' | 'full'> {
    return this.conn.transaction(async (client) => {
      // One writer per guild and kind at a time: two racing puts cannot both take the last place.
      await client.query(
        "SELECT pg_advisory_xact_lock(hashtextextended('slashd expressions/' || $1 || '/' || $2, 0))",
        [asset.guild_id, asset.kind],
      );
      const held = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM expression_assets WHERE guild_id = $1 AND kind = $2',
        [asset.guild_id, asset.kind],
      );
      if (Number(held.rows[0]?.n ?? 0) >= maxPerGuild) return 'full';
      await client.query(
        'INSERT INTO expression_assets (id, guild_id, kind, content_type, bytes) VALUES ($1, $2, $3, $4, $5)',
        [asset.id, asset.guild_id, asset.kind, asset.content_type, Buffer.from(asset.bytes)],
      );
      return 'done';
    });
  }

  async getAsset(kind: ExpressionKind, id: string): Promise<ExpressionAsset | null> {
    const found = await this.conn.pool.query<AssetRow>(
      'SELECT id, guild_id, kind, content_type, bytes FROM expression_assets WHERE id = $1 AND kind = $2',
      [id, kind],
    );
    const row = found.rows[0];
    return row ? { ...row, kind, bytes: new Uint8Array(row.bytes) } : null;
  }

  async deleteAsset(guildId: string, id: string): Promise<boolean> {
    const done = await this.conn.pool.query('DELETE FROM expression_assets WHERE guild_id = $1 AND id = $2', [
      guildId,
      id,
    ]);
    return (done.rowCount ?? 0) > 0;
  }
}
