/** The SQLite EntitlementStore: the skus and entitlements tables. */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { StoredEntitlement, StoredSku } from './rules.js';
import {
  entitlementOfDoc,
  ownerIdOf,
  skuOfDoc,
  type EntitlementCreation,
  type EntitlementPage,
  type EntitlementStore,
} from './store.js';

export class SqliteEntitlementStore implements EntitlementStore {
  constructor(private readonly conn: SqliteConnection) {}

  async listSkus(applicationId: string): Promise<StoredSku[]> {
    const rows = this.conn
      .sql('SELECT doc FROM skus WHERE application_id = ? ORDER BY position')
      .all(applicationId) as { doc: string }[];
    return rows.map((row) => skuOfDoc(row.doc));
  }

  async putSkus(applicationId: string, skus: readonly StoredSku[]): Promise<void> {
    this.conn.transaction(() => {
      this.conn.sql('DELETE FROM skus WHERE application_id = ?').run(applicationId);
      const insert = this.conn.sql('INSERT INTO skus (application_id, id, position, doc) VALUES (?, ?, ?, ?)');
      skus.forEach((sku, position) => insert.run(applicationId, sku.id, position, JSON.stringify(sku)));
    });
  }

  async createEntitlement(entitlement: StoredEntitlement, max: number): Promise<EntitlementCreation> {
    return this.conn.transaction(() => {
      const { n } = this.conn
        .sql('SELECT count(*) AS n FROM entitlements WHERE application_id = ?')
        .get(entitlement.application_id) as { n: number };
      if (n >= max) return 'full';
      this.conn
        .sql('INSERT INTO entitlements (application_id, id, sku_id, owner_id, doc) VALUES (?, ?, ?, ?, ?)')
        .run(
          entitlement.application_id,
          entitlement.id,
          entitlement.sku_id,
          ownerIdOf(entitlement),
          JSON.stringify(entitlement),
        );
      return 'created';
    });
  }

  async getEntitlement(applicationId: string, id: string): Promise<StoredEntitlement | null> {
    const row = this.conn
      .sql('SELECT doc FROM entitlements WHERE application_id = ? AND id = ?')
      .get(applicationId, id) as { doc: string } | undefined;
    return row ? entitlementOfDoc(row.doc) : null;
  }

  async listEntitlements(applicationId: string, page: EntitlementPage): Promise<StoredEntitlement[]> {
    const rows =
      page.after !== undefined
        ? this.conn
            .sql(
              `SELECT doc FROM entitlements WHERE application_id = ?
                 AND (length(id) > length(?) OR (length(id) = length(?) AND id > ?))
               ORDER BY length(id), id`,
            )
            .all(applicationId, page.after, page.after, page.after)
        : page.before !== undefined
          ? this.conn
              .sql(
                `SELECT doc FROM entitlements WHERE application_id = ?
                   AND (length(id) < length(?) OR (length(id) = length(?) AND id < ?))
                 ORDER BY length(id) DESC, id DESC`,
              )
              .all(applicationId, page.before, page.before, page.before)
          : this.conn
              .sql('SELECT doc FROM entitlements WHERE application_id = ? ORDER BY length(id) DESC, id DESC')
              .all(applicationId);
    return (rows as { doc: string }[]).map((row) => entitlementOfDoc(row.doc));
  }

  async listOwnedEntitlements(applicationId: string, ownerIds: readonly string[]): Promise<StoredEntitlement[]> {
    if (ownerIds.length === 0) return [];
    const rows = this.conn
      .sql(
        `SELECT doc FROM entitlements WHERE application_id = ? AND owner_id IN (${ownerIds.map(() => '?').join(', ')})
         ORDER BY length(id) DESC, id DESC`,
      )
      .all(applicationId, ...ownerIds) as { doc: string }[];
    return rows.map((row) => entitlementOfDoc(row.doc));
  }

  async updateEntitlement(entitlement: StoredEntitlement): Promise<boolean> {
    const result = this.conn
      .sql('UPDATE entitlements SET doc = ? WHERE application_id = ? AND id = ?')
      .run(JSON.stringify(entitlement), entitlement.application_id, entitlement.id);
    return result.changes > 0;
  }
}
