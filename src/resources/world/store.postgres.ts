/** The PostgreSQL WorldStore: applications (with their keys), users, guilds, OAuth2 tokens. */
import type { Application, Guild, User, World } from '../../core/world/types.js';
import type { WorldChange, WorldCounts } from '../../core/world/world-change.js';
import { BOT_SCOPE } from '../../core/permissions/install.js';
import { generateApplicationKeys } from '../../store/keys.js';
import { DuplicateTokenError, type IssuedToken, type StoredApplication, type WorldStore } from '../../store/store.js';
import { sameDigest, tokenDigest } from '../../store/tokens.js';
import { WORLD_LOCK_SCOPE, type PostgresClient, type PostgresConnection } from '../../store/postgres/connection.js';
import { APPLICATIONS_TOKEN_INDEX, USERS_TOKEN_INDEX } from '../../store/postgres/migrations.js';
import { guildOfRow, MEMBERS_OF_G, THREADS_OF_G } from '../../store/postgres/guild-documents.js';
import type { PostgresShared } from '../../store/postgres/shared.js';
import { worldReadTag } from '../../store/postgres/world-read-caches.js';
import { approximateBytes } from '../../core/byte-lru.js';
import {
  APPLICATION_COLUMNS,
  APPLICATION_OWNED_TABLES,
  APPLICATIONS_WITH_PROFILES,
  exportWorldOf,
  frozenDocument,
  freezeDocument,
  rowToApplication,
  rowToLiveToken,
  rowToListedToken,
  storedDocument,
  tokenDocument,
  type ApplicationRow,
  COUNT_WORLD,
  PARKED_TOKEN,
  SEED_WORLD_DIGEST,
  WORLD_FILE_DIGEST,
  type StoreMetaRecord,
} from '../../store/rows.js';
import { forgetWorldMessageChanges } from '../interactions/store.postgres.js';
import { listGroupDms, writeGroupDms } from '../dms/store.postgres.js';

/** A guild and all its members, in one statement (one snapshot). */
const GUILD_WITH_ALL_MEMBERS = {
  name: 'slashd-guild-with-all-members',
  text: `SELECT g.doc, ${MEMBERS_OF_G} AS members, ${THREADS_OF_G} AS threads FROM guilds g WHERE g.id = $1`,
};

/** Anything that runs a query: the pool, or one client inside a transaction. */
type Queryable = Pick<PostgresClient, 'query'>;

export class PostgresWorldStore implements WorldStore {
  constructor(
    private readonly conn: PostgresConnection,
    private readonly shared: PostgresShared,
  ) {}

  async replaceWorld(world: World): Promise<void> {
    await this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, '', WORLD_LOCK_SCOPE);
      const keep = new Set(world.applications.map((a) => a.id));
      const existing = await client.query<{ id: string }>('SELECT id FROM applications ORDER BY id FOR UPDATE');
      for (const { id } of existing.rows) {
        // An application the new world leaves out goes with everything it owned.
        if (!keep.has(id)) await this.removeApplication(client, id);
      }
      await client.query('DELETE FROM users');
      await client.query('DELETE FROM guilds');
      await client.query('DELETE FROM channel_guilds');
      await client.query('DELETE FROM guild_members');
      await client.query('DELETE FROM guild_bans');
      await client.query('DELETE FROM audit_log_entries');
      await client.query('DELETE FROM guild_threads');
      await client.query('DELETE FROM thread_members');
      await client.query('DELETE FROM oauth2_tokens');
      await client.query('DELETE FROM oauth2_codes');
      await client.query('DELETE FROM oauth2_refresh_tokens');
      await client.query('DELETE FROM oauth2_authorizations');
      await forgetWorldMessageChanges(client);
      await this.writeWorld(client, world);
      await writeGroupDms(client, world.group_dms ?? [], true);
    });
  }

  async mergeWorld(world: World): Promise<void> {
    await this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, '', WORLD_LOCK_SCOPE);
      await this.writeWorld(client, world);
      await writeGroupDms(client, world.group_dms ?? [], false);
    });
  }

  async applyWorldChange(change: WorldChange, record?: StoreMetaRecord): Promise<void> {
    await this.conn.transaction(async (client) => {
      await this.conn.lockScope(client, '', WORLD_LOCK_SCOPE);
      for (const id of [...change.remove.applications].sort()) {
        // The row before the app's lock, as deleteApplication takes them: never a deadlock.
        await client.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [id]);
        await this.removeApplication(client, id);
      }
      if (change.remove.users.length > 0) {
        await client.query('DELETE FROM users WHERE id = ANY($1::text[])', [change.remove.users]);
      }
      for (const id of change.remove.guilds) await this.removeGuild(client, id);
      if (change.remove.oauth2_tokens.length > 0) {
        await client.query('DELETE FROM oauth2_tokens WHERE token_hash = ANY($1::text[])', [
          change.remove.oauth2_tokens.map(tokenDigest),
        ]);
      }
      // Tokens may move from one object written to another: each is parked on a value of its
      // own first, so that no write meets a token another object still holds until its own write.
      if (change.put.users.length > 0) {
        await client.query(`UPDATE users SET token_hash = ${PARKED_TOKEN} WHERE id = ANY($1::text[])`, [
          change.put.users.map((u) => u.id),
        ]);
      }
      if (change.put.applications.length > 0) {
        await client.query(`UPDATE applications SET bot_token_hash = ${PARKED_TOKEN} WHERE id = ANY($1::text[])`, [
          change.put.applications.map((a) => a.id),
        ]);
      }
      await this.writeWorld(client, change.put);
      await writeGroupDms(client, change.put.group_dms ?? [], change.replaceGroupDms === true);
      if (record !== undefined) {
        await client.query(
          'INSERT INTO store_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
          [record.name, record.value],
        );
      }
    });
  }

  async worldFileDigest(): Promise<string | null> {
    return this.storeMeta(WORLD_FILE_DIGEST);
  }

  async seedWorldDigest(): Promise<string | null> {
    return this.storeMeta(SEED_WORLD_DIGEST);
  }

  private async storeMeta(name: StoreMetaRecord['name']): Promise<string | null> {
    const result = await this.conn.pool.query<{ value: string }>('SELECT value FROM store_meta WHERE name = $1', [
      name,
    ]);
    return result.rows[0]?.value ?? null;
  }

  async countWorld(): Promise<WorldCounts> {
    const result = await this.conn.pool.query<Record<keyof WorldCounts, string>>(COUNT_WORLD);
    const row = result.rows[0]!;
    return {
      applications: Number(row.applications),
      users: Number(row.users),
      guilds: Number(row.guilds),
      oauth2_tokens: Number(row.oauth2_tokens),
    };
  }

  private async writeWorld(client: PostgresClient, world: World): Promise<void> {
    for (const app of world.applications) await this.writeApplication(client, app);
    for (const user of world.users) await this.writeUser(client, user);
    for (const guild of world.guilds) await this.writeGuild(client, guild);
    for (const token of world.oauth2_tokens) await this.writeToken(client, { ...token, expires_at: null });
  }

  async exportWorld(): Promise<World> {
    const world = await exportWorldOf(this);
    const groupDms = await listGroupDms(this.conn.pool);
    return groupDms.length > 0 ? { ...world, group_dms: groupDms } : world;
  }

  async putApplication(app: Application): Promise<StoredApplication> {
    return this.conn.transaction((client) => this.writeApplication(client, app));
  }

  private async writeApplication(client: PostgresClient, app: Application): Promise<StoredApplication> {
    // Keys survive a reload of the world: a bot keeps verifying with the key it already has. The
    // keys offered are only used when the row is new (the upsert keeps the stored ones).
    const fresh = generateApplicationKeys();
    const result = await client
      .query<{ verify_key: string; private_key_pem: string }>(
        `INSERT INTO applications (id, bot_token_hash, doc, verify_key, private_key_pem) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET bot_token_hash = excluded.bot_token_hash, doc = excluded.doc
       RETURNING verify_key, private_key_pem`,
        [app.id, tokenDigest(app.bot_token), JSON.stringify(app), fresh.verifyKey, fresh.privateKeyPem],
      )
      .catch(duplicateTokenAs('application', APPLICATIONS_TOKEN_INDEX));
    const row = result.rows[0]!;
    return { ...app, keys: { verifyKey: row.verify_key, privateKeyPem: row.private_key_pem } };
  }

  async deleteApplication(id: string): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      // The row before the app's lock, in the order replaceWorld takes them: never a deadlock.
      await client.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [id]);
      return this.removeApplication(client, id);
    });
  }

  private async removeApplication(client: PostgresClient, id: string): Promise<boolean> {
    // Waits for the app's planners under way, and keeps new ones out until this commits.
    await this.conn.lockApplication(client, id, 'exclusive');
    const gone = ((await client.query('DELETE FROM applications WHERE id = $1', [id])).rowCount ?? 0) > 0;
    for (const table of APPLICATION_OWNED_TABLES) {
      await client.query(`DELETE FROM ${table} WHERE application_id = $1`, [id]);
    }
    return gone;
  }

  async getApplication(id: string): Promise<StoredApplication | null> {
    return this.shared.reads.through(
      `app:${id}`,
      async () => {
        const result = await this.conn.pool.query<ApplicationRow>(
          `SELECT ${APPLICATION_COLUMNS} FROM ${APPLICATIONS_WITH_PROFILES} WHERE applications.id = $1`,
          [id],
        );
        const row = result.rows[0];
        return row ? freezeDocument(rowToApplication(row)) : null;
      },
      (app) => [worldReadTag.application(app.id)],
      applicationBytes,
    );
  }

  /** Cached per node by the token's digest (world-read-caches.ts), compared again in constant time. */
  async findApplicationByBotToken(token: string): Promise<StoredApplication | null> {
    const digest = tokenDigest(token);
    const found = await this.shared.reads.through(
      `app-token:${digest}`,
      async () => {
        const result = await this.conn.pool.query<ApplicationRow & { bot_token_hash: string }>(
          `SELECT ${APPLICATION_COLUMNS}, applications.bot_token_hash FROM ${APPLICATIONS_WITH_PROFILES}
           WHERE applications.bot_token_hash = $1`,
          [digest],
        );
        const row = result.rows[0];
        return row ? { app: freezeDocument(rowToApplication(row)), digest: row.bot_token_hash } : null;
      },
      ({ app }) => [worldReadTag.application(app.id)],
      ({ app }) => applicationBytes(app),
    );
    return found && sameDigest(found.digest, digest) ? found.app : null;
  }

  async listApplications(): Promise<StoredApplication[]> {
    const result = await this.conn.pool.query<ApplicationRow>(
      `SELECT ${APPLICATION_COLUMNS} FROM ${APPLICATIONS_WITH_PROFILES} ORDER BY applications.id`,
    );
    return result.rows.map(rowToApplication);
  }

  async putUser(user: User): Promise<void> {
    await this.writeUser(this.conn.pool, user);
  }

  private async writeUser(db: Queryable, user: User): Promise<void> {
    await db
      .query(
        `INSERT INTO users (id, token_hash, doc) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, doc = excluded.doc`,
        [user.id, tokenDigest(user.token), JSON.stringify(user)],
      )
      .catch(duplicateTokenAs('user', USERS_TOKEN_INDEX));
  }

  async deleteUser(id: string): Promise<boolean> {
    return ((await this.conn.pool.query('DELETE FROM users WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async getUser(id: string): Promise<User | null> {
    return this.shared.reads.through(
      `user:${id}`,
      async () => {
        const result = await this.conn.pool.query<{ doc: string }>('SELECT doc FROM users WHERE id = $1', [id]);
        const row = result.rows[0];
        return row ? frozenDocument<User>(row.doc) : null;
      },
      (user) => [worldReadTag.user(user.id)],
      userBytes,
    );
  }

  async getUsers(ids: readonly string[]): Promise<User[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const result = await this.conn.pool.query<{ id: string; doc: string }>(
      'SELECT id, doc FROM users WHERE id = ANY($1::text[])',
      [unique],
    );
    const found = new Map(result.rows.map((r) => [r.id, r.doc]));
    return unique.flatMap((id) => {
      const doc = found.get(id);
      return doc === undefined ? [] : [frozenDocument<User>(doc)];
    });
  }

  /** Cached per node by the token's digest (world-read-caches.ts), compared again in constant time. */
  async findUserByToken(token: string): Promise<User | null> {
    const digest = tokenDigest(token);
    const found = await this.shared.reads.through(
      `user-token:${digest}`,
      async () => {
        const result = await this.conn.pool.query<{ doc: string; token_hash: string }>(
          'SELECT doc, token_hash FROM users WHERE token_hash = $1',
          [digest],
        );
        const row = result.rows[0];
        return row ? { user: frozenDocument<User>(row.doc), digest: row.token_hash } : null;
      },
      ({ user }) => [worldReadTag.user(user.id)],
      ({ user }) => userBytes(user),
    );
    return found && sameDigest(found.digest, digest) ? found.user : null;
  }

  async listUsers(): Promise<User[]> {
    const result = await this.conn.pool.query<{ doc: string }>('SELECT doc FROM users ORDER BY length(id), id');
    return freezeDocument(result.rows.map((r) => storedDocument<User>(r.doc)));
  }

  async putGuild(guild: Guild): Promise<void> {
    await this.conn.transaction((client) => this.writeGuild(client, guild));
  }

  private async writeGuild(client: PostgresClient, guild: Guild): Promise<void> {
    await client.query(
      'INSERT INTO guilds (id, doc) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc',
      [guild.id, this.shared.guilds.guildDocumentText(guild)],
    );
    await this.shared.guilds.linkChannels(client, guild);
    await this.shared.guilds.writeMembers(client, guild);
  }

  async findGuildByChannel(channelId: string): Promise<Guild | null> {
    const guildId = await this.shared.guilds.guildIdOfChannel(channelId);
    return guildId === null ? null : this.getGuild(guildId);
  }

  async deleteGuild(id: string): Promise<boolean> {
    return this.conn.transaction((client) => this.removeGuild(client, id));
  }

  private async removeGuild(client: PostgresClient, id: string): Promise<boolean> {
    const gone = ((await client.query('DELETE FROM guilds WHERE id = $1', [id])).rowCount ?? 0) > 0;
    await client.query('DELETE FROM channel_guilds WHERE guild_id = $1', [id]);
    await client.query('DELETE FROM guild_members WHERE guild_id = $1', [id]);
    await client.query('DELETE FROM guild_bans WHERE guild_id = $1', [id]);
    await client.query('DELETE FROM audit_log_entries WHERE guild_id = $1', [id]);
    await client.query('DELETE FROM guild_threads WHERE guild_id = $1', [id]);
    await client.query('DELETE FROM thread_members WHERE guild_id = $1', [id]);
    await client.query('DELETE FROM command_permissions WHERE guild_id = $1', [id]);
    return gone;
  }

  async getGuild(id: string): Promise<Guild | null> {
    const result = await this.conn.pool.query<{ doc: string; members: string | null }>({
      ...GUILD_WITH_ALL_MEMBERS,
      values: [id],
    });
    const row = result.rows[0];
    return row ? freezeDocument(guildOfRow(row)) : null;
  }

  async listGuilds(): Promise<Guild[]> {
    const result = await this.conn.pool.query<{ doc: string; members: string | null }>(
      `SELECT g.doc, ${MEMBERS_OF_G} AS members, ${THREADS_OF_G} AS threads FROM guilds g ORDER BY g.id`,
    );
    return result.rows.map(guildOfRow);
  }

  async guildsOfApplication(applicationId: string): Promise<Guild[]> {
    const result = await this.conn.pool.query<{ doc: string; members: string | null }>(
      `SELECT g.doc, ${MEMBERS_OF_G} AS members, ${THREADS_OF_G} AS threads FROM guilds g WHERE g.doc::jsonb -> 'installs' @> jsonb_build_array(
         jsonb_build_object('application_id', $1::text, 'scopes', jsonb_build_array($2::text))
       ) ORDER BY g.id`,
      [applicationId, BOT_SCOPE],
    );
    return result.rows.map((r) => freezeDocument(guildOfRow(r)));
  }

  async putOAuth2Token(token: IssuedToken): Promise<void> {
    await this.writeToken(this.conn.pool, token);
  }

  private async writeToken(db: Queryable, token: IssuedToken): Promise<void> {
    await db.query(
      `INSERT INTO oauth2_tokens (token_hash, application_id, doc, expires_at, grant_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (token_hash) DO UPDATE SET application_id = excluded.application_id, doc = excluded.doc,
         expires_at = excluded.expires_at, grant_id = excluded.grant_id`,
      [
        tokenDigest(token.access_token),
        token.application_id,
        tokenDocument(token),
        token.expires_at,
        token.grant_id ?? null,
      ],
    );
  }

  async deleteOAuth2Token(accessToken: string): Promise<boolean> {
    const result = await this.conn.pool.query('DELETE FROM oauth2_tokens WHERE token_hash = $1', [
      tokenDigest(accessToken),
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async findOAuth2Token(accessToken: string): Promise<IssuedToken | null> {
    const result = await this.conn.pool.query<{ doc: string }>('SELECT doc FROM oauth2_tokens WHERE token_hash = $1', [
      tokenDigest(accessToken),
    ]);
    const row = result.rows[0];
    return row ? rowToLiveToken(row.doc, accessToken, this.conn.now()) : null;
  }

  async listOAuth2Tokens(): Promise<IssuedToken[]> {
    const result = await this.conn.pool.query<{ doc: string }>('SELECT doc FROM oauth2_tokens ORDER BY token_hash');
    return result.rows.map((r) => rowToListedToken(r.doc));
  }
}

/** What a cached application takes, about (its document's JSON; keys and profile are small). */
function applicationBytes(app: StoredApplication): number {
  return approximateBytes(JSON.stringify(app).length);
}

function userBytes(user: User): number {
  return approximateBytes(JSON.stringify(user).length);
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** Rethrows a unique violation of the token index `index` as DuplicateTokenError, anything else as is. */
function duplicateTokenAs(holder: 'user' | 'application', index: string) {
  return (error: unknown): never => {
    const { code, constraint } = error as { code?: unknown; constraint?: unknown };
    if (code === UNIQUE_VIOLATION && constraint === index) throw new DuplicateTokenError(holder);
    throw error;
  };
}
