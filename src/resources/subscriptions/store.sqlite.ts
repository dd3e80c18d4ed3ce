/** The SQLite SubscriptionStore: the subscriptions table, and the entitlements table for what they grant. */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { StoredEntitlement } from '../entitlements/rules.js';
import { ownerIdOf } from '../entitlements/store.js';
import type { StoredSubscription } from './rules.js';
import {
  subscriptionOfDoc,
  type SubscriptionBounds,
  type SubscriptionCreation,
  type SubscriptionPage,
  type SubscriptionStore,
} from './store.js';

export class SqliteSubscriptionStore implements SubscriptionStore {
  constructor(private readonly conn: SqliteConnection) {}

  async createSubscription(
    subscription: StoredSubscription,
    entitlement: StoredEntitlement,
    bounds: SubscriptionBounds,
  ): Promise<SubscriptionCreation> {
    return this.conn.transaction(() => {
      const count = (table: string) =>
        (
          this.conn
            .sql(`SELECT count(*) AS n FROM ${table} WHERE application_id = ?`)
            .get(subscription.application_id) as {
            n: number;
          }
        ).n;
      if (count('subscriptions') >= bounds.subscriptions) return 'subscriptions-full';
      if (count('entitlements') >= bounds.entitlements) return 'entitlements-full';
      this.conn
        .sql('INSERT INTO entitlements (application_id, id, sku_id, owner_id, doc) VALUES (?, ?, ?, ?, ?)')
        .run(
          entitlement.application_id,
          entitlement.id,
          entitlement.sku_id,
          ownerIdOf(entitlement),
          JSON.stringify(entitlement),
        );
      this.conn
        .sql('INSERT INTO subscriptions (application_id, id, user_id, sku_id, doc) VALUES (?, ?, ?, ?, ?)')
        .run(
          subscription.application_id,
          subscription.id,
          subscription.user_id,
          subscription.sku_ids[0] ?? '',
          JSON.stringify(subscription),
        );
      return 'created';
    });
  }

  async getSubscription(applicationId: string, id: string): Promise<StoredSubscription | null> {
    const row = this.conn
      .sql('SELECT doc FROM subscriptions WHERE application_id = ? AND id = ?')
      .get(applicationId, id) as { doc: string } | undefined;
    return row ? subscriptionOfDoc(row.doc) : null;
  }

  async listSubscriptions(applicationId: string, page: SubscriptionPage): Promise<StoredSubscription[]> {
    const where = 'application_id = ? AND user_id = ? AND sku_id = ?';
    const keys = [applicationId, page.userId, page.skuId];
    const rows =
      page.after !== undefined
        ? this.conn
            .sql(
              `SELECT doc FROM subscriptions WHERE ${where}
                 AND (length(id) > length(?) OR (length(id) = length(?) AND id > ?))
               ORDER BY length(id), id LIMIT ?`,
            )
            .all(...keys, page.after, page.after, page.after, page.limit)
        : page.before !== undefined
          ? this.conn
              .sql(
                `SELECT doc FROM subscriptions WHERE ${where}
                   AND (length(id) < length(?) OR (length(id) = length(?) AND id < ?))
                 ORDER BY length(id) DESC, id DESC LIMIT ?`,
              )
              .all(...keys, page.before, page.before, page.before, page.limit)
          : this.conn
              .sql(`SELECT doc FROM subscriptions WHERE ${where} ORDER BY length(id) DESC, id DESC LIMIT ?`)
              .all(...keys, page.limit);
    return (rows as { doc: string }[]).map((row) => subscriptionOfDoc(row.doc));
  }

  async listUserSubscriptions(applicationId: string, userId: string): Promise<StoredSubscription[]> {
    const rows = this.conn
      .sql('SELECT doc FROM subscriptions WHERE application_id = ? AND user_id = ? ORDER BY length(id) DESC, id DESC')
      .all(applicationId, userId) as { doc: string }[];
    return rows.map((row) => subscriptionOfDoc(row.doc));
  }

  async updateSubscription(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<boolean> {
    return this.conn.transaction(() => {
      const result = this.conn
        .sql('UPDATE subscriptions SET doc = ? WHERE application_id = ? AND id = ?')
        .run(JSON.stringify(subscription), subscription.application_id, subscription.id);
      if (result.changes === 0) return false;
      if (entitlement) this.rewriteEntitlement(entitlement);
      return true;
    });
  }

  async deleteSubscription(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<boolean> {
    return this.conn.transaction(() => {
      const result = this.conn
        .sql('DELETE FROM subscriptions WHERE application_id = ? AND id = ?')
        .run(subscription.application_id, subscription.id);
      if (result.changes === 0) return false;
      if (entitlement) this.rewriteEntitlement(entitlement);
      return true;
    });
  }

  private rewriteEntitlement(entitlement: StoredEntitlement): void {
    this.conn
      .sql('UPDATE entitlements SET doc = ? WHERE application_id = ? AND id = ?')
      .run(JSON.stringify(entitlement), entitlement.application_id, entitlement.id);
  }
}
