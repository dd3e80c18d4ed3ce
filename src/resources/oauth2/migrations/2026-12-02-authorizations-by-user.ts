/**
 * The apps a user installed to their account are read by user (`listUserInstalls`, on every
 * picker open and "Why not?"): the primary key leads with the application, so that read scanned
 * every authorization. An index on `user_id`, alike in both dialects.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const authorizationsByUser: DatedMigration = {
  name: '2026-12-02-authorizations-by-user',
  sqlite: 'CREATE INDEX oauth2_authorizations_by_user ON oauth2_authorizations (user_id)',
  postgres: 'CREATE INDEX oauth2_authorizations_by_user ON oauth2_authorizations (user_id)',
};
