/**
 * The sessions this node holds, by id and by application, and the registry writes about them
 * (shared with other nodes when there is a registry).
 */
import { RESUME_WINDOW_MS } from '../core/gateway/protocol.js';
import { shardOf } from '../core/gateway/shards.js';
import type { ResumeBuffer } from './resume-buffer.js';
import type { Session } from './session.js';
import { SESSION_KEEPALIVE_MS, type SessionRegistry } from './session-registry.js';

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly byApp = new Map<string, Set<Session>>();
  /** Registry writes under way: a draining node waits for them before its Redis connection closes. */
  private readonly registryWrites = new Set<Promise<void>>();
  private lastKeepAliveAt: number;

  constructor(
    private readonly buffer: ResumeBuffer,
    readonly registry: SessionRegistry | null,
    private readonly now: () => number,
  ) {
    this.lastKeepAliveAt = now();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  all(): IterableIterator<Session> {
    return this.sessions.values();
  }

  /** The app's sessions on this node, every shard. */
  ofApp(applicationId: string): Iterable<Session> {
    return this.byApp.get(applicationId) ?? [];
  }

  /** The sessions of the app that get a guild's events (its shard's); DMs go to shard 0. */
  forGuild(applicationId: string, guildId: string | null): Session[] {
    const own = this.byApp.get(applicationId);
    if (!own) return [];
    return [...own].filter((session) => shardOf(guildId, session.numShards) === session.shardId);
  }

  /** The id string the app's other sessions hold (the store reads a fresh one each time). */
  sharedApplicationId(applicationId: string): string {
    const own = this.byApp.get(applicationId);
    return own ? (own.values().next().value?.applicationId ?? applicationId) : applicationId;
  }

  add(session: Session): void {
    this.sessions.set(session.id, session);
    let own = this.byApp.get(session.applicationId);
    if (!own) this.byApp.set(session.applicationId, (own = new Set()));
    own.add(session);
  }

  /** This node no longer holds the session (it ended, or another node holds it now). */
  forget(session: Session): void {
    this.sessions.delete(session.id);
    const own = this.byApp.get(session.applicationId);
    own?.delete(session);
    if (own?.size === 0) this.byApp.delete(session.applicationId);
  }

  end(session: Session): void {
    this.forget(session);
    this.buffer.drop(session.id);
    if (this.registry) this.track(this.registry.end(session.id, session.applicationId));
  }

  /** Sessions with a socket, and detached ones still resumable. */
  counts(): { attached: number; resumable: number } {
    let attached = 0;
    for (const session of this.sessions.values()) if (session.socket !== null) attached++;
    return { attached, resumable: this.sessions.size - attached };
  }

  /** Forgets sessions past the resume window, and refreshes the registry's keys when due. */
  sweep(): void {
    const now = this.now();
    for (const session of this.sessions.values()) {
      if (session.detachedAt !== null && now - session.detachedAt > RESUME_WINDOW_MS) this.end(session);
    }
    if (this.registry && now - this.lastKeepAliveAt >= SESSION_KEEPALIVE_MS) {
      this.lastKeepAliveAt = now;
      const held = [...this.sessions.values()].filter((session) => session.socket !== null);
      this.track(this.registry.keepAlive(held));
    }
  }

  /** Keeps a registry write for `close()` to wait on; a failed one is let go (its keys expire). */
  track(write: Promise<void>): void {
    const tracked: Promise<void> = write
      .catch(() => undefined)
      .finally(() => {
        this.registryWrites.delete(tracked);
      });
    this.registryWrites.add(tracked);
  }

  /** Resolves once the registry writes under way are done. */
  async writesDone(): Promise<void> {
    await Promise.all([...this.registryWrites]);
  }
}
