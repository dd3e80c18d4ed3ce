/**
 * The embedded store: better-sqlite3 in WAL mode on one file. Each focused store is its table
 * module; they share one connection, and so its transactions, read caches and clock.
 */
import { SqliteAttachmentStore } from '../../resources/attachments/store.sqlite.js';
import { SqliteAuditLogStore } from '../../resources/audit-log/store.sqlite.js';
import type { MigrationReport } from '../schema-version.js';
import { datedMigrationsOf } from '../migrations/index.js';
import { RESOURCES } from '../../resources/index.js';
import type { Store } from '../store.js';
import type { CacheCounts } from '../../core/byte-lru.js';
import { SqliteCommandStore } from '../../resources/commands/store.sqlite.js';
import { SqliteConnection } from './connection.js';
import { SqliteInteractionStore } from '../../resources/interactions/store.sqlite.js';
import { SqliteReactionStore } from '../../resources/reactions/store.sqlite.js';
import { SqliteNodeLeaseStore } from '../../resources/node-leases/store.sqlite.js';
import { SqliteSnapshotStore } from '../../resources/snapshots/store.sqlite.js';
import { SqliteWorldStore } from '../../resources/world/store.sqlite.js';
import { SqliteOAuth2Grants } from '../../resources/oauth2/store.sqlite.js';
import { SqliteGuildMembers } from '../../resources/members/store.sqlite.js';
import { SqliteGuildStructure } from '../../resources/guild-structure/store.sqlite.js';
import { SqliteThreads } from '../../resources/threads/store.sqlite.js';
import { SqliteDmChannels } from '../../resources/dms/store.sqlite.js';
import { createSqliteShared } from './shared.js';

export interface SqliteStoreOptions {
  /** A file path, or ':memory:'. */
  path: string;
  now?: () => number;
  /** How long plain reads may trust the caches after another process commits, in ms (default 1). */
  readStalenessMs?: number | undefined;
  /** The most bytes the read caches may hold, approximately (default 96 MiB); the least recently used go first. */
  cacheBytes?: number;
}

export class SqliteStore implements Store {
  private readonly conn: SqliteConnection;
  readonly world: SqliteWorldStore;
  readonly oauth2Grants: SqliteOAuth2Grants;
  readonly members: SqliteGuildMembers;
  readonly guildStructure: SqliteGuildStructure;
  readonly threads: SqliteThreads;
  readonly dms: SqliteDmChannels;
  readonly commands: SqliteCommandStore;
  readonly interactions: SqliteInteractionStore;
  readonly reactions: SqliteReactionStore;
  readonly leases: SqliteNodeLeaseStore;
  readonly snapshots: SqliteSnapshotStore;
  readonly attachments: SqliteAttachmentStore;
  readonly auditLog: SqliteAuditLogStore;

  constructor(options: SqliteStoreOptions) {
    this.conn = new SqliteConnection(
      options.path,
      options.now ?? Date.now,
      options.readStalenessMs,
      options.cacheBytes,
      datedMigrationsOf(RESOURCES),
    );
    const shared = createSqliteShared(this.conn);
    this.world = new SqliteWorldStore(this.conn, shared);
    this.oauth2Grants = new SqliteOAuth2Grants(this.conn);
    this.members = new SqliteGuildMembers(this.conn, shared);
    this.guildStructure = new SqliteGuildStructure(this.conn, shared);
    this.threads = new SqliteThreads(this.conn, shared);
    this.dms = new SqliteDmChannels(this.conn);
    this.commands = new SqliteCommandStore(this.conn);
    this.interactions = new SqliteInteractionStore(this.conn);
    this.reactions = new SqliteReactionStore(this.conn);
    this.leases = new SqliteNodeLeaseStore(this.conn);
    this.snapshots = new SqliteSnapshotStore(this.conn);
    this.attachments = new SqliteAttachmentStore(this.conn);
    this.auditLog = new SqliteAuditLogStore(this.conn);
  }

  /** What the read caches hold now (for metrics and tests): never more bytes than the cap. */
  cacheUse(): { bytes: number; entries: number; capBytes: number } {
    const { lru } = this.conn.cached;
    return { bytes: lru.bytes, entries: lru.size, capBytes: lru.capBytes };
  }

  schemaVersion(): number {
    return this.conn.schemaVersion();
  }

  /** What opening did to the schema (`slashd migrate` prints it). */
  get migration(): MigrationReport {
    return this.conn.migration;
  }

  /**
   * Lookups of the read caches answered from memory, and those that read the file (all of them,
   * and the list answers' bytes on their own); the entries dropped to make room count once, on
   * the shared cache.
   */
  cacheCounts(): CacheCounts[] {
    const { lru, listBytes } = this.conn.cached;
    return [
      { cache: 'store_reads', hits: lru.hits, misses: lru.misses, evictions: lru.evictions },
      { cache: 'command_list_bytes', hits: listBytes.hits, misses: listBytes.misses },
    ];
  }

  async ping(): Promise<void> {
    this.conn.ping();
  }

  async close(): Promise<void> {
    await this.conn.close();
  }
}
