/**
 * The PostgreSQL EntitlementStore: the skus and entitlements tables. An application's creates run
 * one at a time under its scope lock, so two cannot both take its last place.
 */
import type { PostgresConnection } from '../../store/postgres/connection.js';
import type { StoredEntitlement, StoredSku } from './rules.js';
import {
  entitlementOfDoc,
  ownerIdOf,
  skuOfDoc,
  type EntitlementCreation,
  type EntitlementPage,
  type EntitlementStore,
} from './store.js';

/** The scope lock of an application's entitlement creates. */
const CREATE_SCOPE = 'entitlements';

export class PostgresEntitlementStore implements EntitlementStore {
  constructor(private readonly conn: PostgresConnection) {}

  async listSkus(applicationId: string): Promise<StoredSku[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM skus WHERE application_id = $1 ORDER BY position',
      [applicationId],
    );
    return result.rows.map((row) => skuOfDoc(row.doc));
  }

  async putSkus(applicationId: string, skus: readonly StoredSku[]): Promise<void> {
    await this.conn.transaction(async (client) => {
      await client.query('DELETE FROM skus WHERE application_id = $1', [applicationId]);
      for (const [position, sku] of skus.entries()) {
        await client.query('INSERT INTO skus (application_id, id, position, doc) VALUES ($1, $2, $3, $4)', [
          applicationId,
          sku.id,
          position,
          JSON.stringify(sku),
        ]);
      }
    });
  }

  async createEntitlement(entitlement: StoredEntitlement, max: number): Promise<EntitlementCreation> {
    return this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, entitlement.application_id, CREATE_SCOPE);
      const count = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM entitlements WHERE application_id = $1',
        [entitlement.application_id],
      );
      if (Number(count.rows[0]?.n ?? 0) >= max) return 'full';
      await client.query(
        'INSERT INTO entitlements (application_id, id, sku_id, owner_id, doc) VALUES ($1, $2, $3, $4, $5)',
        [
          entitlement.application_id,
          entitlement.id,
          entitlement.sku_id,
          ownerIdOf(entitlement),
          JSON.stringify(entitlement),
        ],
      );
      return 'created';
    });
  }

  async getEntitlement(applicationId: string, id: string): Promise<StoredEntitlement | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM entitlements WHERE application_id = $1 AND id = $2',
      [applicationId, id],
    );
    return result.rows[0] ? entitlementOfDoc(result.rows[0].doc) : null;
  }

  async listEntitlements(applicationId: string, page: EntitlementPage): Promise<StoredEntitlement[]> {
    const result =
      page.after !== undefined
        ? await this.conn.pool.query<{ doc: string }>(
            `SELECT doc FROM entitlements WHERE application_id = $1
               AND (length(id) > length($2) OR (length(id) = length($2) AND id > $2))
             ORDER BY length(id), id`,
            [applicationId, page.after],
          )
        : page.before !== undefined
          ? await this.conn.pool.query<{ doc: string }>(
              `SELECT doc FROM entitlements WHERE application_id = $1
                 AND (length(id) < length($2) OR (length(id) = length($2) AND id < $2))
               ORDER BY length(id) DESC, id DESC`,
              [applicationId, page.before],
            )
          : await this.conn.pool.query<{ doc: string }>(
              'SELECT doc FROM entitlements WHERE application_id = $1 ORDER BY length(id) DESC, id DESC',
              [applicationId],
            );
    return result.rows.map((row) => entitlementOfDoc(row.doc));
  }

  async listOwnedEntitlements(applicationId: string, ownerIds: readonly string[]): Promise<StoredEntitlement[]> {
    if (ownerIds.length === 0) return [];
    const result = await this.conn.pool.query<{ doc: string }>(
      `SELECT doc FROM entitlements WHERE application_id = $1 AND owner_id = ANY($2::text[])
       ORDER BY length(id) DESC, id DESC`,
      [applicationId, [...ownerIds]],
    );
    return result.rows.map((row) => entitlementOfDoc(row.doc));
  }

  async updateEntitlement(entitlement: StoredEntitlement): Promise<boolean> {
    const result = await this.conn.pool.query(
      'UPDATE entitlements SET doc = $1 WHERE application_id = $2 AND id = $3',
      [JSON.stringify(entitlement), entitlement.application_id, entitlement.id],
    );
    return (result.rowCount ?? 0) > 0;
  }
}
