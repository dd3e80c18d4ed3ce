/**
 * The monetization sandbox: an application's SKUs, and the entitlements to them (one row each,
 * keyed by the application, with its SKU, its owner (a user's or a guild's id: interactions read
 * by it) and the document).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const entitlementsTables: DatedMigration = {
  name: '2026-12-02-entitlements',
  sqlite: `
    CREATE TABLE skus (
      application_id TEXT NOT NULL,
      id TEXT NOT NULL,
      position INTEGER NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE TABLE entitlements (
      application_id TEXT NOT NULL,
      id TEXT NOT NULL,
      sku_id TEXT NOT NULL,
      owner_id TEXT NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE INDEX entitlements_by_owner ON entitlements (application_id, owner_id);
  `,
  postgres: `
    CREATE TABLE skus (
      application_id TEXT COLLATE "C" NOT NULL,
      id TEXT COLLATE "C" NOT NULL,
      position INTEGER NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE TABLE entitlements (
      application_id TEXT COLLATE "C" NOT NULL,
      id TEXT COLLATE "C" NOT NULL,
      sku_id TEXT COLLATE "C" NOT NULL,
      owner_id TEXT COLLATE "C" NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, id)
    );
    CREATE INDEX entitlements_by_owner ON entitlements (application_id, owner_id);
  `,
};
