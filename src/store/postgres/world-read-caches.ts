/**
 * Per-process caches of the PostgreSQL reads every request makes before its own work: the
 * application of a bot token, the user of a user token, applications and users by id, and a
 * guild's document without its members (what a guild route's guard reads). Like the SQLite
 * store's read caches (src/store/sqlite/read-caches.ts), bounded by bytes (least recently used
 * out first), and every entry tagged by what it was read from, so that a change drops exactly it.
 *
 * How a change reaches every node: triggers on the cached tables (migration
 * 2026-12-03-world-read-notices) send a notice (`pg_notify`) naming each application, user or
 * guild a statement wrote, delivered by PostgreSQL to every listening node once the transaction
 * commits, whoever wrote (any node, a statement from outside slashd). Each node listens on a
 * connection of its own. This process's own writes drop the caches at once too, without waiting
 * for the notice (the connection reports each write of a cached table, and again when its
 * transaction ends).
 *
 * Failing safe: an entry is used only while the listener is listening, so a node that may be
 * missing notices (the listening connection lost, not yet back) reads the database every time,
 * and everything is dropped when it listens again. Every entry also expires `ttlMs` after it was
 * read, whatever the notices, which bounds how long a silently stalled listener could serve a
 * changed application, token or guild (docs/scaling.md#per-node-read-caches). A read that began
 * before any change was noticed is not cached (its rows may be older than the change).
 */
import { EventEmitter, once } from 'node:events';
import pg from 'pg';
import { ByteLru, type CacheCounts } from '../../core/byte-lru.js';
import type { PostgresConnection } from './connection.js';

/** The channel every schema's triggers notify on; each notice starts with its schema's name. */
export const WORLD_READS_CHANNEL = 'slashd_world_reads';

/** How long an entry is used after it was read (ms), notices or not: the stale window's bound. */
export const DEFAULT_WORLD_READ_TTL_MS = 2_000;

/** The caches' byte budget when the config names none: 16 MiB (applications, users and guild documents are small). */
export const DEFAULT_WORLD_READ_CACHE_BYTES = 16 * 1024 * 1024;

/** How long the listener waits before connecting again after losing its connection (ms). */
export const RELISTEN_DELAY_MS = 1_000;

/** The kinds of notice, as the triggers spell them. */
type NoticeKind = 'a' | 'u' | 'g';

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export const worldReadTag = {
  application: (id: string) => `a:${id}`,
  user: (id: string) => `u:${id}`,
  guild: (id: string) => `g:${id}`,
};

export interface WorldReadCachesOptions {
  capBytes?: number | undefined;
  ttlMs?: number | undefined;
  /** Whether to listen for other nodes' changes; without, nothing is ever cached. */
  listen?: boolean | undefined;
}

export class WorldReadCaches {
  private readonly lru: ByteLru<Entry<unknown>>;
  private readonly ttlMs: number;
  /** Moves at every change noticed (or own write): a read that began before it is not cached. */
  private epoch = 0;
  private client: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private relisten: NodeJS.Timeout | null = null;
  /** `notice` (kind, id; '*' for all) after each notice is applied; `listening` each time the listener is up. */
  readonly events = new EventEmitter();
  hits = 0;
  misses = 0;

  constructor(
    private readonly conn: PostgresConnection,
    options: WorldReadCachesOptions = {},
  ) {
    this.lru = new ByteLru(options.capBytes ?? DEFAULT_WORLD_READ_CACHE_BYTES);
    this.ttlMs = options.ttlMs ?? DEFAULT_WORLD_READ_TTL_MS;
    conn.onCachedWrite(() => this.dropAll());
    this.events.setMaxListeners(0);
  }

  /** Whether entries are used now: the listener is listening (else every read goes to the database). */
  get active(): boolean {
    return this.listening;
  }

  /** Starts listening (resolves once it listens, or once the first attempt failed: it tries again later). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Resolves once the listener listens (at once when it does). */
  async untilListening(): Promise<void> {
    if (!this.listening) await once(this.events, 'listening');
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.conn.clientConfig);
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      this.dropAll();
      client.end().catch(() => undefined);
      if (!this.closed) {
        this.relisten = setTimeout(() => {
          this.relisten = null;
          void this.connect();
        }, RELISTEN_DELAY_MS);
        this.relisten.unref();
      }
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === WORLD_READS_CHANNEL && message.payload !== undefined) this.notice(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${WORLD_READS_CHANNEL}`);
      if (this.client !== client) return;
      // Whatever changed while not listening was not noticed: start afresh.
      this.dropAll();
      this.listening = true;
      this.events.emit('listening');
    } catch {
      lost();
    }
  }

  /** `<schema> <kind> <id>`, or `<schema> *`: drops what it names, when it is this schema's. */
  private notice(payload: string): void {
    const space = payload.indexOf(' ');
    if (space === -1 || payload.slice(0, space) !== this.conn.schema) return;
    const rest = payload.slice(space + 1);
    if (rest === '*') {
      this.dropAll();
      this.events.emit('notice', '*', '*');
      return;
    }
    const kind = rest.slice(0, 1) as NoticeKind;
    const id = rest.slice(2);
    this.epoch++;
    this.lru.deleteTagged(`${kind}:${id}`);
    this.events.emit('notice', kind, id);
  }

  /** Drops every entry (a write of this process, a listener lost or back). */
  dropAll(): void {
    this.epoch++;
    this.lru.clear();
  }

  /**
   * The value cached under `key`, else `read()`'s, cached (when not null, and no change was noticed
   * while it was read) with `tags` and about `bytes` of it.
   */
  async through<V>(
    key: string,
    read: () => Promise<V | null>,
    tagsOf: (value: V) => readonly string[],
    bytesOf: (value: V) => number,
  ): Promise<V | null> {
    if (!this.listening) return read();
    const now = this.conn.now();
    const entry = this.lru.get(key) as Entry<V> | undefined;
    if (entry !== undefined && entry.expiresAt > now) {
      this.hits++;
      return entry.value;
    }
    this.misses++;
    const epoch = this.epoch;
    const value = await read();
    if (value !== null && this.listening && epoch === this.epoch) {
      this.lru.set(key, { value, expiresAt: this.conn.now() + this.ttlMs }, bytesOf(value), tagsOf(value));
    }
    return value;
  }

  /** Drops what is tagged `tag` (this process's own change, before its notice arrives). */
  forget(tag: string): void {
    this.epoch++;
    this.lru.deleteTagged(tag);
  }

  counts(): CacheCounts {
    return { cache: 'world_reads', hits: this.hits, misses: this.misses, evictions: this.lru.evictions };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.relisten) clearTimeout(this.relisten);
    const client = this.client;
    this.client = null;
    this.lru.clear();
    if (client) await client.end().catch(() => undefined);
  }
}
