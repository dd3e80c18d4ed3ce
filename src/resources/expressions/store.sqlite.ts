/** The SQLite ExpressionAssetStore: the expression_assets table. */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { ExpressionAsset, ExpressionAssetStore, ExpressionKind } from './store.js';

interface AssetRow extends Omit<ExpressionAsset, 'bytes' | 'kind'> {
  kind: string;
  bytes: Buffer;
}

export class SqliteExpressionAssetStore implements ExpressionAssetStore {
  constructor(private readonly conn: SqliteConnection) {}

  async putAsset(asset: ExpressionAsset, maxPerGuild: number): Promise<'done' | 'full'> {
    return this.conn.transaction(() => {
      const held = this.conn
        .sql('SELECT count(*) AS n FROM expression_assets WHERE guild_id = ? AND kind = ?')
        .get(asset.guild_id, asset.kind) as { n: number };
      if (held.n >= maxPerGuild) return 'full';
      this.conn
        .sql('INSERT INTO expression_assets (id, guild_id, kind, content_type, bytes) VALUES (?, ?, ?, ?, ?)')
        .run(asset.id, asset.guild_id, asset.kind, asset.content_type, Buffer.from(asset.bytes));
      return 'done';
    });
  }

  async getAsset(kind: ExpressionKind, id: string): Promise<ExpressionAsset | null> {
    const row = this.conn
      .sql('SELECT id, guild_id, kind, content_type, bytes FROM expression_assets WHERE id = ? AND kind = ?')
      .get(id, kind) as AssetRow | undefined;
    return row ? { ...row, kind, bytes: new Uint8Array(row.bytes) } : null;
  }

  async deleteAsset(guildId: string, id: string): Promise<boolean> {
    return this.conn.sql('DELETE FROM expression_assets WHERE guild_id = ? AND id = ?').run(guildId, id).changes > 0;
  }
}
