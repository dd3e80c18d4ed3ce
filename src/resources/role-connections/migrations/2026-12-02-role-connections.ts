/**
 * Application role connections: each application's metadata records (one row: the list), and each
 * user's connection to an application (one row by both ids).
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const roleConnectionsTables: DatedMigration = {
  name: '2026-12-02-role-connections',
  sqlite: `
    CREATE TABLE role_connection_metadata (
      application_id TEXT PRIMARY KEY,
      doc TEXT NOT NULL
    );
    CREATE TABLE role_connections (
      application_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, user_id)
    );
  `,
  postgres: `
    CREATE TABLE role_connection_metadata (
      application_id TEXT COLLATE "C" PRIMARY KEY,
      doc TEXT NOT NULL
    );
    CREATE TABLE role_connections (
      application_id TEXT COLLATE "C" NOT NULL,
      user_id TEXT COLLATE "C" NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (application_id, user_id)
    );
  `,
};
