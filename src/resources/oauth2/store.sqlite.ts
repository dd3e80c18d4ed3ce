/** The SQLite OAuth2GrantStore: authorization codes, refresh tokens (spent ones kept to tell a replay), user authorizations, the signing key. */
import type {
  AuthorizationGrant,
  OAuth2GrantStore,
  RedeemedCode,
  RedeemedRefreshToken,
  RefreshGrant,
  SigningKeyRecord,
  UserAuthorization,
} from './store.js';
import { storedDocument } from '../../store/rows.js';
import { installedApps } from './rules/user-installs.js';
import { tokenDigest } from '../../store/tokens.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

export class SqliteOAuth2Grants implements OAuth2GrantStore {
  constructor(private readonly conn: SqliteConnection) {}

  async putAuthorizationCode(code: string, grant: AuthorizationGrant): Promise<void> {
    this.conn.transaction(() => {
      this.conn
        .sql('DELETE FROM oauth2_codes WHERE application_id = ? AND expires_at <= ?')
        .run(grant.application_id, this.conn.now());
      this.conn
        .sql('INSERT INTO oauth2_codes (code_hash, application_id, doc, expires_at, used) VALUES (?, ?, ?, ?, 0)')
        .run(tokenDigest(code), grant.application_id, JSON.stringify(grant), grant.expires_at);
    });
  }

  async redeemAuthorizationCode(applicationId: string, code: string): Promise<RedeemedCode | null> {
    return this.conn.transaction(() => {
      const row = this.conn
        .sql('SELECT doc, used FROM oauth2_codes WHERE code_hash = ? AND application_id = ?')
        .get(tokenDigest(code), applicationId) as { doc: string; used: number } | undefined;
      if (!row) return null;
      if (row.used === 0) this.conn.sql('UPDATE oauth2_codes SET used = 1 WHERE code_hash = ?').run(tokenDigest(code));
      return { grant: storedDocument<AuthorizationGrant>(row.doc), firstUse: row.used === 0 };
    });
  }

  async putRefreshToken(token: string, grant: RefreshGrant): Promise<void> {
    this.conn.transaction(() => {
      this.conn
        .sql('DELETE FROM oauth2_refresh_tokens WHERE application_id = ? AND expires_at <= ?')
        .run(grant.application_id, this.conn.now());
      this.conn
        .sql(
          `INSERT INTO oauth2_refresh_tokens (token_hash, application_id, grant_id, doc, expires_at, used)
           VALUES (?, ?, ?, ?, ?, 0)`,
        )
        .run(tokenDigest(token), grant.application_id, grant.grant_id, JSON.stringify(grant), grant.expires_at);
    });
  }

  async redeemRefreshToken(applicationId: string, token: string): Promise<RedeemedRefreshToken | null> {
    return this.conn.transaction(() => {
      const digest = tokenDigest(token);
      const row = this.conn
        .sql('SELECT doc, used FROM oauth2_refresh_tokens WHERE token_hash = ? AND application_id = ?')
        .get(digest, applicationId) as { doc: string; used: number } | undefined;
      if (!row) return null;
      if (row.used === 0) this.conn.sql('UPDATE oauth2_refresh_tokens SET used = 1 WHERE token_hash = ?').run(digest);
      return { grant: storedDocument<RefreshGrant>(row.doc), firstUse: row.used === 0 };
    });
  }

  async revokeGrant(applicationId: string, grantId: string): Promise<void> {
    this.conn.transaction(() => {
      this.conn.sql('DELETE FROM oauth2_tokens WHERE application_id = ? AND grant_id = ?').run(applicationId, grantId);
      this.conn
        .sql('DELETE FROM oauth2_refresh_tokens WHERE application_id = ? AND grant_id = ?')
        .run(applicationId, grantId);
    });
  }

  async putUserAuthorization(authorization: UserAuthorization): Promise<void> {
    this.conn
      .sql(
        `INSERT INTO oauth2_authorizations (application_id, user_id, doc) VALUES (?, ?, ?)
         ON CONFLICT (application_id, user_id) DO UPDATE SET doc = excluded.doc`,
      )
      .run(authorization.application_id, authorization.user_id, JSON.stringify(authorization));
  }

  async getUserAuthorization(applicationId: string, userId: string): Promise<UserAuthorization | null> {
    const row = this.conn
      .sql('SELECT doc FROM oauth2_authorizations WHERE application_id = ? AND user_id = ?')
      .get(applicationId, userId) as { doc: string } | undefined;
    return row ? storedDocument<UserAuthorization>(row.doc) : null;
  }

  async deleteUserAuthorization(applicationId: string, userId: string): Promise<boolean> {
    return (
      this.conn
        .sql('DELETE FROM oauth2_authorizations WHERE application_id = ? AND user_id = ?')
        .run(applicationId, userId).changes > 0
    );
  }

  async listUserInstalls(userId: string): Promise<string[]> {
    const rows = this.conn.sql('SELECT doc FROM oauth2_authorizations WHERE user_id = ?').all(userId) as {
      doc: string;
    }[];
    return installedApps(rows.map((row) => storedDocument<UserAuthorization>(row.doc)));
  }

  async signingKey(candidate: SigningKeyRecord): Promise<SigningKeyRecord> {
    return this.conn.transaction(() => {
      this.conn
        .sql('INSERT INTO oidc_signing_keys (slot, doc) VALUES (1, ?) ON CONFLICT (slot) DO NOTHING')
        .run(JSON.stringify(candidate));
      const row = this.conn.sql('SELECT doc FROM oidc_signing_keys WHERE slot = 1').get() as { doc: string };
      return storedDocument<SigningKeyRecord>(row.doc);
    });
  }
}
