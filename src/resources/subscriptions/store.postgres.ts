/**
 * The PostgreSQL SubscriptionStore: the subscriptions table, and the entitlements table for what
 * they grant. An application's creates run one at a time under the entitlements' scope lock (the
 * one their creates take), so two cannot both take the last place of either bound.
 */
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
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

/** The scope lock of an application's entitlement creates (the entitlements store's). */
const CREATE_SCOPE = 'entitlements';

export class PostgresSubscriptionStore implements SubscriptionStore {
  constructor(private readonly conn: PostgresConnection) {}

  async createSubscription(
    subscription: StoredSubscription,
    entitlement: StoredEntitlement,
    bounds: SubscriptionBounds,
  ): Promise<SubscriptionCreation> {
    return this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, subscription.application_id, CREATE_SCOPE);
      const count = async (table: string) =>
        Number(
          (
            await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE application_id = $1`, [
              subscription.application_id,
            ])
          ).rows[0]?.n ?? 0,
        );
      if ((await count('subscriptions')) >= bounds.subscriptions) return 'subscriptions-full';
      if ((await count('entitlements')) >= bounds.entitlements) return 'entitlements-full';
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
      await client.query(
        'INSERT INTO subscriptions (application_id, id, user_id, sku_id, doc) VALUES ($1, $2, $3, $4, $5)',
        [
          subscription.application_id,
          subscription.id,
          subscription.user_id,
          subscription.sku_ids[0] ?? '',
          JSON.stringify(subscription),
        ],
      );
      return 'created';
    });
  }

  async getSubscription(applicationId: string, id: string): Promise<StoredSubscription | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM subscriptions WHERE application_id = $1 AND id = $2',
      [applicationId, id],
    );
    return result.rows[0] ? subscriptionOfDoc(result.rows[0].doc) : null;
  }

  async listSubscriptions(applicationId: string, page: SubscriptionPage): Promise<StoredSubscription[]> {
    const where = 'application_id = $1 AND user_id = $2 AND sku_id = $3';
    const keys = [applicationId, page.userId, page.skuId];
    const result =
      page.after !== undefined
        ? await this.conn.pool.query<{ doc: string }>(
            `SELECT doc FROM subscriptions WHERE ${where}
               AND (length(id) > length($4) OR (length(id) = length($4) AND id > $4))
             ORDER BY length(id), id LIMIT $5`,
            [...keys, page.after, page.limit],
          )
        : page.before !== undefined
          ? await this.conn.pool.query<{ doc: string }>(
              `SELECT doc FROM subscriptions WHERE ${where}
                 AND (length(id) < length($4) OR (length(id) = length($4) AND id < $4))
               ORDER BY length(id) DESC, id DESC LIMIT $5`,
              [...keys, page.before, page.limit],
            )
          : await this.conn.pool.query<{ doc: string }>(
              `SELECT doc FROM subscriptions WHERE ${where} ORDER BY length(id) DESC, id DESC LIMIT $4`,
              [...keys, page.limit],
            );
    return result.rows.map((row) => subscriptionOfDoc(row.doc));
  }

  async listUserSubscriptions(applicationId: string, userId: string): Promise<StoredSubscription[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM subscriptions WHERE application_id = $1 AND user_id = $2 ORDER BY length(id) DESC, id DESC',
      [applicationId, userId],
    );
    return result.rows.map((row) => subscriptionOfDoc(row.doc));
  }

  async updateSubscription(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const result = await client.query('UPDATE subscriptions SET doc = $1 WHERE application_id = $2 AND id = $3', [
        JSON.stringify(subscription),
        subscription.application_id,
        subscription.id,
      ]);
      if ((result.rowCount ?? 0) === 0) return false;
      if (entitlement) await rewriteEntitlement(client, entitlement);
      return true;
    });
  }

  async deleteSubscription(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      const result = await client.query('DELETE FROM subscriptions WHERE application_id = $1 AND id = $2', [
        subscription.application_id,
        subscription.id,
      ]);
      if ((result.rowCount ?? 0) === 0) return false;
      if (entitlement) await rewriteEntitlement(client, entitlement);
      return true;
    });
  }
}

async function rewriteEntitlement(client: PostgresClient, entitlement: StoredEntitlement): Promise<void> {
  await client.query('UPDATE entitlements SET doc = $1 WHERE application_id = $2 AND id = $3', [
    JSON.stringify(entitlement),
    entitlement.application_id,
    entitlement.id,
  ]);
}
