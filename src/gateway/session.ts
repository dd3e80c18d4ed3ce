/**
 * A gateway session: what IDENTIFY started and RESUME continues. It outlives its socket for the
 * resume window, numbering and keeping its dispatches meanwhile.
 */
import type { ResumeBuffer, SettledInteraction } from './resume-buffer.js';
import type { DispatchObserver } from './gateway-options.js';

/** Interaction ids a session remembers having dispatched, so that a re-sent one is not sent twice. */
const REMEMBERED_INTERACTIONS = 1024;

/** Where a session's payloads go while its socket is open. */
export interface SessionSocket {
  /** `json` is the dispatch's `d` as JSON text. */
  sendDispatch(t: string, s: number, json: string): void;
}

/**
 * Each payload object is serialized once, however many sessions get it (a permissions update to
 * every session of an app, a GUILD_CREATE shared by sessions of the same view): the same text is
 * then buffered and sent by all of them.
 */
const serialized = new WeakMap<object, string>();

export function jsonOf(d: unknown): string {
  if (typeof d !== 'object' || d === null) return JSON.stringify(d);
  let json = serialized.get(d);
  if (json === undefined) {
    json = flat(JSON.stringify(d));
    serialized.set(d, json);
  }
  return json;
}

/**
 * V8 builds a long JSON.stringify result as a tree of concatenated parts, and sending it copies the
 * text without collapsing the tree: a kept payload (READY, in every session's resume buffer) would
 * hold about a quarter more memory than its characters. Converting it to a number flattens the
 * string in place (the result, NaN, is unused).
 */
function flat(text: string): string {
  Number(text);
  return text;
}

export interface SessionInit {
  id: string;
  applicationId: string;
  /** Application flags at IDENTIFY (privileged intents were checked against them). */
  intents: number;
  shardId: number;
  numShards: number;
  largeThreshold: number;
}

export class Session {
  readonly id: string;
  readonly applicationId: string;
  readonly intents: number;
  readonly shardId: number;
  readonly numShards: number;
  readonly largeThreshold: number;
  /** The last sequence number given out. */
  seq = 0;
  socket: SessionSocket | null = null;
  /** When the socket went away (for the resume window); null while attached. */
  detachedAt: number | null = null;
  /**
   * Guilds whose GUILD_CREATE this session has not been sent yet (right after READY), with the
   * world dispatches about them that came meanwhile: a client hears of a guild first by its
   * GUILD_CREATE, as v10 does, and then of what changed. Null once every guild was sent.
   */
  private held: Map<string, { t: string; d: unknown }[]> | null = null;
  /** The interactions dispatched lately (oldest first), by id. */
  private interactions: Set<string> | null = null;
  /** When the session started here (epoch ms): the newest session of an app gets its interactions. */
  readonly startedAt: number;
  /**
   * The dispatch log's position up to which bus events were handled for this session (dispatched
   * or found not to be its): kept with its dispatches, so that a node taking it over knows where
   * to read the log on from. Null without a log.
   */
  logPos: string | null = null;
  /** Taken over by a RESUME here and not yet caught up from the log: live events wait for that. */
  catchingUp = false;

  constructor(
    init: SessionInit,
    private readonly buffer: ResumeBuffer,
    startedAt = 0,
    private readonly observe: DispatchObserver | null = null,
  ) {
    this.startedAt = startedAt;
    this.id = init.id;
    this.applicationId = init.applicationId;
    this.intents = init.intents;
    this.shardId = init.shardId;
    this.numShards = init.numShards;
    this.largeThreshold = init.largeThreshold;
  }

  /** Holds the world dispatches about these guilds until `release` (their GUILD_CREATE is sent). */
  holdGuilds(guildIds: readonly string[]): void {
    if (guildIds.length > 0) this.held = new Map(guildIds.map((id) => [id, []]));
  }

  /** A world dispatch about `guildId` (null: not about a guild): held while that guild is. */
  dispatchAbout(guildId: string | null, t: string, d: unknown): void {
    const waiting = guildId === null ? undefined : this.held?.get(guildId);
    if (waiting) waiting.push({ t, d });
    else this.dispatch(t, d);
  }

  /** Sends what was held about `guildId` (all held guilds when omitted), and stops holding it. */
  release(guildId?: string): void {
    if (!this.held) return;
    const ids = guildId === undefined ? [...this.held.keys()] : [guildId];
    for (const id of ids) {
      const waiting = this.held.get(id);
      this.held.delete(id);
      for (const { t, d } of waiting ?? []) this.dispatch(t, d);
    }
    if (this.held.size === 0) this.held = null;
  }

  /** Numbers the dispatch, keeps it for a resume, and sends it if the socket is open. */
  dispatch(t: string, d: unknown, settles?: SettledInteraction): void {
    const s = ++this.seq;
    const json = jsonOf(d);
    this.buffer.append(this.id, { s, t, json }, settles, this.logPos);
    this.socket?.sendDispatch(t, s, json);
    this.observe?.(this.applicationId, t, json);
  }

  /**
   * INTERACTION_CREATE, once per interaction however many ways it arrives (the bus, and a re-send
   * after a RESUME); its dispatch, once kept, settles it as no longer pending. False when it was
   * dispatched already. `again` sends it anyway (an injected duplicate).
   */
  dispatchInteraction(data: Record<string, unknown>, again = false): boolean {
    const id = typeof data.id === 'string' ? data.id : null;
    if (id !== null) {
      // Made on the first interaction: most sessions of a large deployment never get one.
      const seen = (this.interactions ??= new Set());
      if (seen.has(id) && !again) return false;
      seen.add(id);
      if (seen.size > REMEMBERED_INTERACTIONS) seen.delete(seen.values().next().value!);
    }
    const settles = id === null ? undefined : { applicationId: this.applicationId, interactionId: id };
    this.dispatch('INTERACTION_CREATE', data, settles);
    return true;
  }
}
