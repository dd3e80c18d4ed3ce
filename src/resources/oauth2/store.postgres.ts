/** The PostgreSQL OAuth2GrantStore: authorization codes, refresh tokens (spent ones kept to tell a replay), user authorizations, the signing key. */
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
import type { PostgresConnection } from '../../store/postgres/connection.js';

export class PostgresOAuth2Grants implements OAuth2GrantStore {
  constructor(private readonly conn: PostgresConnection) {}

  async putAuthorizationCode(code: string, grant: AuthorizationGrant): Promise<void> {
    await this.conn.transaction(async (client) => {
      await client.query('DELETE FROM oauth2_codes WHERE application_id = $1 AND expires_at <= $2', [
        grant.application_id,
        this.conn.now(),
      ]);
      await client.query(
        'INSERT INTO oauth2_codes (code_hash, application_id, doc, expires_at, used) VALUES ($1, $2, $3, $4, false)',
        [tokenDigest(code), grant.application_id, JSON.stringify(grant), grant.expires_at],
      );
    });
  }

  async redeemAuthorizationCode(applicationId: string, code: string): Promise<RedeemedCode | null> {
    return this.conn.transaction(async (client) => {
      // FOR UPDATE: of two nodes redeeming the same code at once, the second waits and sees it used.
      const result = await client.query<{ doc: string; used: boolean }>(
        'SELECT doc, used FROM oauth2_codes WHERE code_hash = $1 AND application_id = $2 FOR UPDATE',
        [tokenDigest(code), applicationId],
      );
      const row = result.rows[0];
      if (!row) return null;
      if (!row.used)
        await client.query('UPDATE oauth2_codes SET used = true WHERE code_hash = $1', [tokenDigest(code)]);
      return { grant: storedDocument<AuthorizationGrant>(row.doc), firstUse: !row.used };
    });
  }

  async putRefreshToken(token: string, grant: RefreshGrant): Promise<void> {
    await this.conn.transaction(async (client) => {
      await client.query('DELETE FROM oauth2_refresh_tokens WHERE application_id = $1 AND expires_at <= $2', [
        grant.application_id,
        this.conn.now(),
      ]);
      await client.query(
        `INSERT INTO oauth2_refresh_tokens (token_hash, application_id, grant_id, doc, expires_at, used)
         VALUES ($1, $2, $3, $4, $5, false)`,
        [tokenDigest(token), grant.application_id, grant.grant_id, JSON.stringify(grant), grant.expires_at],
      );
    });
  }

  async redeemRefreshToken(applicationId: string, token: string): Promise<RedeemedRefreshToken | null> {
    return this.conn.transaction(async (client) => {
      // FOR UPDATE: of two nodes redeeming the same token at once, the second waits and sees it spent.
      const result = await client.query<{ doc: string; used: boolean }>(
        'SELECT doc, used FROM oauth2_refresh_tokens WHERE token_hash = $1 AND application_id = $2 FOR UPDATE',
        [tokenDigest(token), applicationId],
      );
      const row = result.rows[0];
      if (!row) return null;
      if (!row.used) {
        await client.query('UPDATE oauth2_refresh_tokens SET used = true WHERE token_hash = $1', [tokenDigest(token)]);
      }
      return { grant: storedDocument<RefreshGrant>(row.doc), firstUse: !row.used };
    });
  }

  async revokeGrant(applicationId: string, grantId: string): Promise<void> {
    await this.conn.transaction(async (client) => {
      await client.query('DELETE FROM oauth2_tokens WHERE application_id = $1 AND grant_id = $2', [
        applicationId,
        grantId,
      ]);
      await client.query('DELETE FROM oauth2_refresh_tokens WHERE application_id = $1 AND grant_id = $2', [
        applicationId,
        grantId,
      ]);
    });
  }

  async putUserAuthorization(authorization: UserAuthorization): Promise<void> {
    await this.conn.pool.query(
      `INSERT INTO oauth2_authorizations (application_id, user_id, doc) VALUES ($1, $2, $3)
       ON CONFLICT (application_id, user_id) DO UPDATE SET doc = excluded.doc`,
      [authorization.application_id, authorization.user_id, JSON.stringify(authorization)],
    );
  }

  async getUserAuthorization(applicationId: string, userId: string): Promise<UserAuthorization | null> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM oauth2_authorizations WHERE application_id = $1 AND user_id = $2',
      [applicationId, userId],
    );
    const row = result.rows[0];
    return row ? storedDocument<UserAuthorization>(row.doc) : null;
  }

  async deleteUserAuthorization(applicationId: string, userId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM oauth2_authorizations WHERE application_id = $1 AND user_id = $2',
      [applicationId, userId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async listUserInstalls(userId: string): Promise<string[]> {
    const result = await this.conn.pool.query<{ doc: string }>(
      'SELECT doc FROM oauth2_authorizations WHERE user_id = $1',
      [userId],
    );
    return installedApps(result.rows.map((row) => storedDocument<UserAuthorization>(row.doc)));
  }

  async signingKey(candidate: SigningKeyRecord): Promise<SigningKeyRecord> {
    await this.conn.pool.query(
      'INSERT INTO oidc_signing_keys (slot, doc) VALUES (1, $1) ON CONFLICT (slot) DO NOTHING',
      [JSON.stringify(candidate)],
    );
    const result = await this.conn.pool.query<{ doc: string }>('SELECT doc FROM oidc_signing_keys WHERE slot = 1');
    return storedDocument<SigningKeyRecord>(result.rows[0]!.doc);
  }
}
