/** The SQLite WorldStore: applications (with their keys), users, guilds, OAuth2 tokens. */
import { approximateBytes } from '../../core/byte-lru.js';
import type { Application, Guild, User, World } from '../../core/world/types.js';
import type { WorldChange, WorldCounts } from '../../core/world/world-change.js';
import { BOT_SCOPE } from '../../core/permissions/install.js';
import { generateApplicationKeys } from '../../store/keys.js';
import { DuplicateTokenError, type IssuedToken, type StoredApplication, type WorldStore } from '../../store/store.js';
import { sameDigest, tokenDigest } from '../../store/tokens.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import { cacheTag } from '../../store/sqlite/read-caches.js';
import type { SqliteShared } from '../../store/sqlite/shared.js';
import {
  APPLICATION_COLUMNS,
  APPLICATIONS_WITH_PROFILES,
  exportWorldOf,
  frozenDocument,
  freezeDocument,
  rowToApplication,
  SQLITE_APPLICATION_OWNED_TABLES,
  rowToLiveToken,
  rowToListedToken,
  storedDocument,
  tokenDocument,
  withMembers,
  type ApplicationRow,
  COUNT_WORLD,
  PARKED_TOKEN,
  SEED_WORLD_DIGEST,
  WORLD_FILE_DIGEST,
  type StoreMetaRecord,
} from '../../store/rows.js';
import { forgetWorldMessageChanges } from '../interactions/store.sqlite.js';
import { listGroupDms, writeGroupDms } from '../dms/store.sqlite.js';

export class SqliteWorldStore implements WorldStore {
  constructor(
    private readonly conn: SqliteConnection,
    private readonly shared: SqliteShared,
  ) {}

  async replaceWorld(world: World): Promise<void> {
    this.conn.cached.clear();
    this.conn.transaction(() => {
      const keep = new Set(world.applications.map((a) => a.id));
      for (const { id } of this.conn.sql('SELECT id FROM applications').all() as { id: string }[]) {
        // An application the new world leaves out goes with everything it owned.
        if (!keep.has(id)) this.removeApplication(id);
      }
      this.conn.db.exec(
        'DELETE FROM users; DELETE FROM guilds; DELETE FROM channel_guilds; DELETE FROM guild_members; DELETE FROM guild_bans;' +
          ' DELETE FROM audit_log_entries;' +
          ' DELETE FROM guild_threads; DELETE FROM thread_members;' +
          ' DELETE FROM oauth2_tokens;' +
          ' DELETE FROM oauth2_codes; DELETE FROM oauth2_refresh_tokens; DELETE FROM oauth2_authorizations;',
      );
      forgetWorldMessageChanges(this.conn);
      this.writeWorld(world);
      writeGroupDms(this.conn, world.group_dms ?? [], true);
    });
  }

  async mergeWorld(world: World): Promise<void> {
    this.conn.transaction(() => {
      this.writeWorld(world);
      writeGroupDms(this.conn, world.group_dms ?? [], false);
    });
  }

  async applyWorldChange(change: WorldChange, record?: StoreMetaRecord): Promise<void> {
    this.conn.transaction(() => {
      for (const id of change.remove.applications) {
        this.conn.cached.forgetApplication(id);
        this.conn.cached.forgetCommandsOf(id);
        this.removeApplication(id);
      }
      for (const id of change.remove.users) this.removeUser(id);
      for (const id of change.remove.guilds) this.removeGuild(id);
      const dropToken = this.conn.sql('DELETE FROM oauth2_tokens WHERE token_hash = ?');
      for (const token of change.remove.oauth2_tokens) dropToken.run(tokenDigest(token));
      // Tokens may move from one object written to another: each is parked on a value of its
      // own first, so that no write meets a token another object still holds until its own write.
      const ids = (items: readonly { id: string }[]) => JSON.stringify(items.map((item) => item.id));
      this.conn
        .sql(`UPDATE users SET token_hash = ${PARKED_TOKEN} WHERE id IN (SELECT value FROM json_each(?))`)
        .run(ids(change.put.users));
      this.conn
        .sql(`UPDATE applications SET bot_token_hash = ${PARKED_TOKEN} WHERE id IN (SELECT value FROM json_each(?))`)
        .run(ids(change.put.applications));
      this.writeWorld(change.put);
      writeGroupDms(this.conn, change.put.group_dms ?? [], change.replaceGroupDms === true);
      if (record !== undefined) {
        this.conn
          .sql(
            'INSERT INTO store_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
          )
          .run(record.name, record.value);
      }
    });
  }

  async worldFileDigest(): Promise<string | null> {
    return this.storeMeta(WORLD_FILE_DIGEST);
  }

  async seedWorldDigest(): Promise<string | null> {
    return this.storeMeta(SEED_WORLD_DIGEST);
  }

  private storeMeta(name: StoreMetaRecord['name']): string | null {
    const row = this.conn.sql('SELECT value FROM store_meta WHERE name = ?').get(name) as { value: string } | undefined;
    return row?.value ?? null;
  }

  async countWorld(): Promise<WorldCounts> {
    return this.conn.sql(COUNT_WORLD).get() as WorldCounts;
  }

  private writeWorld(world: World): void {
    for (const app of world.applications) this.writeApplication(app);
    for (const user of world.users) this.writeUser(user);
    for (const guild of world.guilds) this.writeGuild(guild);
    for (const token of world.oauth2_tokens) this.writeToken({ ...token, expires_at: null });
  }

  async exportWorld(): Promise<World> {
    const world = await exportWorldOf(this);
    const groupDms = listGroupDms(this.conn);
    return groupDms.length > 0 ? { ...world, group_dms: groupDms } : world;
  }

  async putApplication(app: Application): Promise<StoredApplication> {
    return this.conn.transaction(() => this.writeApplication(app));
  }

  private writeApplication(app: Application): StoredApplication {
    this.conn.cached.forgetApplication(app.id);
    const existing = this.conn.sql('SELECT verify_key, private_key_pem FROM applications WHERE id = ?').get(app.id) as
      { verify_key: string; private_key_pem: string } | undefined;
    // Keys survive a reload of the world: a bot keeps verifying with the key it already has.
    const keys = existing
      ? { verifyKey: existing.verify_key, privateKeyPem: existing.private_key_pem }
      : generateApplicationKeys();
    refusingDuplicateToken('application', 'applications.bot_token_hash', () =>
      this.conn
        .sql(
          `INSERT INTO applications (id, bot_token_hash, doc, verify_key, private_key_pem) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET bot_token_hash = excluded.bot_token_hash, doc = excluded.doc`,
        )
        .run(app.id, tokenDigest(app.bot_token), JSON.stringify(app), keys.verifyKey, keys.privateKeyPem),
    );
    return { ...app, keys };
  }

  async deleteApplication(id: string): Promise<boolean> {
    this.conn.cached.forgetApplication(id);
    this.conn.cached.forgetCommandsOf(id);
    return this.conn.transaction(() => this.removeApplication(id));
  }

  private removeApplication(id: string): boolean {
    const gone = this.conn.sql('DELETE FROM applications WHERE id = ?').run(id).changes > 0;
    for (const table of SQLITE_APPLICATION_OWNED_TABLES) {
      this.conn.sql(`DELETE FROM ${table} WHERE application_id = ?`).run(id);
    }
    return gone;
  }

  async getApplication(id: string): Promise<StoredApplication | null> {
    const cached = this.conn.caches().applicationsById.get(id);
    if (cached) return cached;
    const row = this.conn
      .sql(`SELECT ${APPLICATION_COLUMNS} FROM ${APPLICATIONS_WITH_PROFILES} WHERE applications.id = ?`)
      .get(id) as ApplicationRow | undefined;
    if (!row) return null;
    const app = freezeDocument(rowToApplication(row));
    this.conn.cached.applicationsById.set(id, app, applicationBytes(row), [cacheTag.application(id)]);
    return app;
  }

  async findApplicationByBotToken(token: string): Promise<StoredApplication | null> {
    const digest = tokenDigest(token);
    let entry = this.conn.caches().applicationsByToken.get(digest);
    if (!entry) {
      const row = this.conn
        .sql(
          `SELECT ${APPLICATION_COLUMNS}, applications.bot_token_hash FROM ${APPLICATIONS_WITH_PROFILES}
           WHERE applications.bot_token_hash = ?`,
        )
        .get(digest) as (ApplicationRow & { bot_token_hash: string }) | undefined;
      if (!row) return null;
      entry = { app: freezeDocument(rowToApplication(row)), digest: row.bot_token_hash };
      this.conn.cached.applicationsByToken.set(digest, entry, applicationBytes(row), [
        cacheTag.application(entry.app.id),
      ]);
    }
    return sameDigest(entry.digest, digest) ? entry.app : null;
  }

  async listApplications(): Promise<StoredApplication[]> {
    const rows = this.conn
      .sql(`SELECT ${APPLICATION_COLUMNS} FROM ${APPLICATIONS_WITH_PROFILES} ORDER BY applications.id`)
      .all() as ApplicationRow[];
    return rows.map(rowToApplication);
  }

  async putUser(user: User): Promise<void> {
    this.writeUser(user);
  }

  private writeUser(user: User): void {
    this.conn.cached.forgetUser(user.id);
    refusingDuplicateToken('user', 'users.token_hash', () =>
      this.conn
        .sql(
          `INSERT INTO users (id, token_hash, doc) VALUES (?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, doc = excluded.doc`,
        )
        .run(user.id, tokenDigest(user.token), JSON.stringify(user)),
    );
  }

  async deleteUser(id: string): Promise<boolean> {
    return this.removeUser(id);
  }

  private removeUser(id: string): boolean {
    this.conn.cached.forgetUser(id);
    return this.conn.sql('DELETE FROM users WHERE id = ?').run(id).changes > 0;
  }

  async getUser(id: string): Promise<User | null> {
    const cached = this.conn.caches().usersById.get(id);
    if (cached) return cached;
    const row = this.conn.sql('SELECT doc FROM users WHERE id = ?').get(id) as { doc: string } | undefined;
    if (!row) return null;
    const user = frozenDocument<User>(row.doc);
    this.conn.cached.usersById.set(id, user, approximateBytes(row.doc.length), [cacheTag.user(id)]);
    return user;
  }

  /**
   * Many users at once (a guild's members): what the cache holds, the rest in one query. What the
   * query reads is not cached: a guild's whole member list would push everything else out.
   */
  async getUsers(ids: readonly string[]): Promise<User[]> {
    const caches = this.conn.caches();
    const found = new Map<string, User>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const cached = caches.usersById.get(id);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const rows = this.conn
        .sql('SELECT id, doc FROM users WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(missing)) as { id: string; doc: string }[];
      for (const row of rows) found.set(row.id, frozenDocument<User>(row.doc));
    }
    return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
  }

  async findUserByToken(token: string): Promise<User | null> {
    const digest = tokenDigest(token);
    const cached = this.conn.caches().usersByToken.get(digest);
    if (cached) return cached;
    const row = this.conn.sql('SELECT doc, token_hash FROM users WHERE token_hash = ?').get(digest) as
      { doc: string; token_hash: string } | undefined;
    if (!row || !sameDigest(row.token_hash, digest)) return null;
    const user = frozenDocument<User>(row.doc);
    this.conn.cached.usersByToken.set(digest, user, approximateBytes(row.doc.length), [cacheTag.user(user.id)]);
    return user;
  }

  /** Every user, read anew: kept whole in memory, a million users would not fit the caches. */
  async listUsers(): Promise<User[]> {
    return freezeDocument(
      (this.conn.sql('SELECT doc FROM users ORDER BY length(id), id').all() as { doc: string }[]).map((r) =>
        storedDocument<User>(r.doc),
      ),
    );
  }

  async putGuild(guild: Guild): Promise<void> {
    this.writeGuild(guild);
  }

  private writeGuild(guild: Guild): void {
    this.conn.cached.forgetGuild(guild.id);
    this.conn.db.transaction(() => {
      this.conn
        .sql('INSERT INTO guilds (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc')
        .run(guild.id, this.shared.guilds.guildDocumentText(guild));
      this.shared.guilds.linkChannels(guild);
      this.shared.guilds.writeMembers(guild);
    })();
  }

  async findGuildByChannel(channelId: string): Promise<Guild | null> {
    const guildId = this.shared.guilds.guildIdOfChannel(channelId);
    return guildId === null ? null : this.getGuild(guildId);
  }

  async deleteGuild(id: string): Promise<boolean> {
    return this.conn.transaction(() => this.removeGuild(id));
  }

  private removeGuild(id: string): boolean {
    const gone = this.conn.sql('DELETE FROM guilds WHERE id = ?').run(id).changes > 0;
    this.conn.sql('DELETE FROM channel_guilds WHERE guild_id = ?').run(id);
    this.conn.sql('DELETE FROM guild_members WHERE guild_id = ?').run(id);
    this.conn.sql('DELETE FROM guild_bans WHERE guild_id = ?').run(id);
    this.conn.sql('DELETE FROM audit_log_entries WHERE guild_id = ?').run(id);
    this.conn.sql('DELETE FROM guild_threads WHERE guild_id = ?').run(id);
    this.conn.sql('DELETE FROM thread_members WHERE guild_id = ?').run(id);
    this.conn.cached.forgetGuild(id);
    this.conn.sql('DELETE FROM command_permissions WHERE guild_id = ?').run(id);
    return gone;
  }

  async getGuild(id: string): Promise<Guild | null> {
    const cached = this.conn.caches().guilds.get(id);
    if (cached) return cached;
    const document = this.shared.guilds.guildWithoutMembers(id);
    if (!document) return null;
    const members = this.shared.guilds.allMembers(id);
    const guild = freezeDocument(withMembers(document, members));
    const bytes = approximateBytes(JSON.stringify(members).length);
    this.conn.cached.guilds.set(id, guild, bytes, [cacheTag.guild(id), cacheTag.allMembersOf(id)]);
    return guild;
  }

  async listGuilds(): Promise<Guild[]> {
    const rows = this.conn.sql('SELECT id, doc FROM guilds ORDER BY id').all() as { id: string; doc: string }[];
    return rows.map((r) => withMembers(storedDocument<Guild>(r.doc), this.shared.guilds.allMembers(r.id)));
  }

  async guildsOfApplication(applicationId: string): Promise<Guild[]> {
    const rows = this.conn
      .sql(
        `SELECT id FROM guilds WHERE EXISTS (
           SELECT 1 FROM json_each(guilds.doc, '$.installs') AS i
           WHERE json_extract(i.value, '$.application_id') = ?
             AND EXISTS (SELECT 1 FROM json_each(i.value, '$.scopes') AS s WHERE s.value = ?)
         ) ORDER BY id`,
      )
      .all(applicationId, BOT_SCOPE) as { id: string }[];
    // The cached instance where there is one, with every member: sessions of one view share its
    // GUILD_CREATE payload.
    const guilds: Guild[] = [];
    for (const { id } of rows) {
      const guild = await this.getGuild(id);
      if (guild) guilds.push(guild);
    }
    return guilds;
  }

  async putOAuth2Token(token: IssuedToken): Promise<void> {
    this.writeToken(token);
  }

  private writeToken(token: IssuedToken): void {
    this.conn
      .sql(
        `INSERT INTO oauth2_tokens (token_hash, application_id, doc, expires_at, grant_id) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (token_hash) DO UPDATE SET application_id = excluded.application_id, doc = excluded.doc,
           expires_at = excluded.expires_at, grant_id = excluded.grant_id`,
      )
      .run(
        tokenDigest(token.access_token),
        token.application_id,
        tokenDocument(token),
        token.expires_at,
        token.grant_id ?? null,
      );
  }

  async deleteOAuth2Token(accessToken: string): Promise<boolean> {
    return this.conn.sql('DELETE FROM oauth2_tokens WHERE token_hash = ?').run(tokenDigest(accessToken)).changes > 0;
  }

  async findOAuth2Token(accessToken: string): Promise<IssuedToken | null> {
    const row = this.conn.sql('SELECT doc FROM oauth2_tokens WHERE token_hash = ?').get(tokenDigest(accessToken)) as
      { doc: string } | undefined;
    return row ? rowToLiveToken(row.doc, accessToken, this.conn.now()) : null;
  }

  async listOAuth2Tokens(): Promise<IssuedToken[]> {
    return (this.conn.sql('SELECT doc FROM oauth2_tokens ORDER BY token_hash').all() as { doc: string }[]).map((r) =>
      rowToListedToken(r.doc),
    );
  }
}

/** An application's cached size: its document and its keys. */
function applicationBytes(row: ApplicationRow): number {
  return approximateBytes(row.doc.length + row.verify_key.length + row.private_key_pem.length);
}

/** SQLite's extended code for a unique index refusing a row. */
const UNIQUE_VIOLATION = 'SQLITE_CONSTRAINT_UNIQUE';

/** Runs `write`; a unique violation on `column` (table.column) becomes DuplicateTokenError. */
function refusingDuplicateToken(holder: 'user' | 'application', column: string, write: () => unknown): void {
  try {
    write();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === UNIQUE_VIOLATION && typeof message === 'string' && message.endsWith(column)) {
      throw new DuplicateTokenError(holder);
    }
    throw error;
  }
}
