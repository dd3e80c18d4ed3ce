/**
 * The command picker's answers, as the bytes sent, kept by everything they are made of: the view
 * (locale), the member's facts in the channel (core/permissions/member-facts.ts: the role set,
 * not the member, so that members with the same roles share one answer; the member's id joins
 * the key only when a USER overwrite of one of the apps names it), and for each
 * app of the index in install order, the app's fields the index reads and the identities of the
 * three stored lists it was computed from (global commands, guild commands, the app's command
 * permissions in the guild).
 *
 * Nothing is ever invalidated, and nothing stale can be served: the stores hand out a list as one
 * deeply frozen object until its scope changes (SQLite: dropped on this connection's writes and on
 * any other's, seen through `data_version`; PostgreSQL: checked against the scope's version on
 * every read, so another node's write is seen at once), and a changed list is a new object with a
 * new number here. A changed role, channel, member or user changes the facts, hence the key. An
 * answer whose key no read will form again ages out of the LRU, which is bounded by bytes.
 *
 * The member's facts are themselves kept by the identity of the objects they are computed from
 * (guild, channel, member, user), once each is known deeply frozen: the SQLite store hands out the
 * same frozen guild until it changes, so a picker opened again skips the permission arithmetic.
 * An object is checked (a walk of it) only when seen a second time, so a store that parses a fresh
 * guild for every read (PostgreSQL) pays for no walk it cannot use.
 */
import { ByteLru, ENTRY_OVERHEAD_BYTES } from '../../core/byte-lru.js';
import { isDeeplyFrozen } from '../../core/frozen-memo.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { MemberFacts } from '../../core/permissions/member-facts.js';
import { namedUsers } from '../../core/permissions/overwrite-index.js';
import type { Application, Channel, Guild, Member, User } from '../../core/world/types.js';

/** The picker's share of the cache budget (`--cache-mb`); the store's read caches take the rest. */
export const INDEX_CACHE_SHARE = 1 / 8;

/**
 * The cache budget when none is configured: the store's own default (96 MiB), split as above. It
 * holds the list answers of 1,000 guilds x 5 apps (10-command guild lists, one view) with room to spare.
 */
export const DEFAULT_CACHE_BUDGET_BYTES = 96 * 1024 * 1024;

/** The bytes of `budget` (the whole cache budget) for the store's read caches and for the picker's answers. */
export function splitCacheBudget(budget: number | undefined): { store: number; index: number } {
  const total = budget ?? DEFAULT_CACHE_BUDGET_BYTES;
  const index = Math.floor(total * INDEX_CACHE_SHARE);
  return { store: total - index, index };
}

/** The facts' share of the picker's bytes: they are small, and one per member and channel. */
const FACTS_SHARE = 1 / 8;

/** What one app contributes to an index: the app and the lists read for it. */
export interface IndexAppInputs {
  readonly app: Application;
  readonly globalCommands: readonly object[];
  readonly guildCommands: readonly object[];
  readonly permissions: readonly GuildCommandPermissions[];
}

export class CommandIndexCache {
  private readonly answers: ByteLru<Buffer>;
  private readonly facts: ByteLru<MemberFacts>;
  /** A number per deeply frozen object seen (lists, guilds, ...), never reused: a key names what it was built from. */
  private readonly objectIds = new WeakMap<object, number>();
  private nextObjectId = 0;
  /** Objects seen once, not yet checked; and those found not deeply frozen. */
  private readonly seenOnce = new WeakSet<object>();
  private readonly mutable = new WeakSet<object>();

  constructor(capBytes: number) {
    const factsBytes = Math.floor(capBytes * FACTS_SHARE);
    this.answers = new ByteLru<Buffer>(capBytes - factsBytes);
    this.facts = new ByteLru<MemberFacts>(factsBytes);
  }

  get bytes(): number {
    return this.answers.bytes + this.facts.bytes;
  }

  get size(): number {
    return this.answers.size;
  }

  /** Lookups of the picker's answers found held, and those that were built. */
  counts(): { hits: number; misses: number } {
    return { hits: this.answers.hits, misses: this.answers.misses };
  }

  /** The number of a deeply frozen object, or null when it may change (then nothing of it is kept). */
  private idOf(value: object): number | null {
    let id = this.objectIds.get(value);
    if (id === undefined) {
      if (this.mutable.has(value) || !isDeeplyFrozen(value)) {
        this.mutable.add(value);
        return null;
      }
      this.objectIds.set(value, (id = this.nextObjectId++));
    }
    return id;
  }

  /** As `idOf`, but null the first time an object is seen: only what comes back is walked. */
  private idOfSeenTwice(value: object): number | null {
    if (this.objectIds.has(value)) return this.idOf(value);
    if (!this.seenOnce.has(value)) {
      this.seenOnce.add(value);
      return null;
    }
    return this.idOf(value);
  }

  /** The member's facts, `compute()`d unless kept for these very (frozen) objects. */
  factsOf(guild: Guild, channel: Channel, member: Member, user: User, compute: () => MemberFacts): MemberFacts {
    if (this.facts.capBytes === 0) return compute();
    const ids = [
      this.idOfSeenTwice(guild),
      this.idOfSeenTwice(channel),
      this.idOfSeenTwice(member),
      this.idOfSeenTwice(user),
    ];
    if (ids.includes(null)) return compute();
    const key = ids.join('/');
    let facts = this.facts.get(key);
    if (!facts) {
      facts = compute();
      this.facts.set(key, facts, ENTRY_OVERHEAD_BYTES + (key.length + facts.key.length) * 2);
    }
    return facts;
  }

  /**
   * The key of an answer; null when some list may still change (then it is computed every time).
   * `userInstalls`: the apps the user installed to their account, which make the answer the user's own.
   */
  keyOf(
    view: string,
    facts: MemberFacts,
    apps: readonly IndexAppInputs[],
    userInstalls: readonly { readonly app: Application; readonly globalCommands: readonly object[] }[] = [],
  ): string | null {
    if (this.answers.capBytes === 0) return null;
    const parts: unknown[] = [view, facts.key];
    let named = false;
    for (const { app, globalCommands, guildCommands, permissions } of apps) {
      const lists = [this.idOf(globalCommands), this.idOf(guildCommands), this.idOf(permissions)];
      if (lists.includes(null)) return null;
      // What the engine (id, integration_types, flags) and the index's application entry (name) read of the app.
      parts.push(app.id, app.name, app.flags, app.integration_types, ...lists);
      named ||= namedUsers(permissions).has(facts.userId);
    }
    for (const { app, globalCommands } of userInstalls) {
      const list = this.idOf(globalCommands);
      if (list === null) return null;
      parts.push(app.id, app.name, app.flags, app.integration_types, list);
    }
    // A member some overwrite names, or with apps of their own, has an answer of their own; the
    // others share their role set's.
    parts.push(named || userInstalls.length > 0 ? facts.userId : null);
    return JSON.stringify(parts);
  }

  get(key: string): Buffer | undefined {
    return this.answers.get(key);
  }

  set(key: string, answer: Buffer): void {
    // The key is held too (two bytes a character in V8).
    this.answers.set(key, answer, ENTRY_OVERHEAD_BYTES + answer.length + key.length * 2);
  }
}
