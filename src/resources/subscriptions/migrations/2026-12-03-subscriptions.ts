/**
 * The monetization sandbox's subscriptions: one row each, keyed by the application, with its
 * user and its SKU (the list reads by both) and the document.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const subscriptionsTables: DatedMigration = {
  name: '2026-12-03-subscriptions',
  sqlite: `
    CREATE TABLE subscriptions (
      application_id TEXT NOT NULL,
      id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      sku_id TEXT NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE INDEX subscriptions_by_user ON subscriptions (application_id, user_id, sku_id);
  `,
  postgres: `
    CREATE TABLE subscriptions (
      application_id TEXT COLLATE "C" NOT NULL,
      id TEXT COLLATE "C" NOT NULL,
      user_id TEXT COLLATE "C" NOT NULL,
      sku_id TEXT COLLATE "C" NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE INDEX subscriptions_by_user ON subscriptions (application_id, user_id, sku_id);
  `,
};
