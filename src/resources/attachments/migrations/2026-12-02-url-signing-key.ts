/**
 * The key attachment URLs are signed with (`?ex&is&hm`): one row, in the database so that every
 * node of it signs and checks the same URLs. The row is written on first use (`urlSigningKey`),
 * not here, so that a database emptied by hand gets a new key rather than failing reads.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const urlSigningKey: DatedMigration = {
  name: '2026-12-02-url-signing-key',
  sqlite: 'CREATE TABLE attachment_url_keys (id INTEGER PRIMARY KEY CHECK (id = 1), secret BLOB NOT NULL)',
  postgres: 'CREATE TABLE attachment_url_keys (id integer PRIMARY KEY CHECK (id = 1), secret bytea NOT NULL)',
};
