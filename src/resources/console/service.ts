/**
 * What the web console needs that the v10 API lacks, keyed by the signed-in user: the sandbox's
 * sign-in list, a guild's member list for a member (v10 lists members to bots only), and a live
 * stream of a channel's message events. Everything else the console reads through v10 with the
 * user's token (docs/console.md).
 */
import { apiError } from '../../core/io/errors.js';
import { hasAll, VIEW_CHANNEL } from '../../core/permissions/bits.js';
import { guildMembers } from '../../core/world/guild-members.js';
import type { User } from '../../core/world/types.js';
import { toWireChannel, toWireGuildMember } from '../../core/world/v10-objects.js';
import { viewerChannelPermissions, type Viewer } from '../../core/world/viewer.js';
import type { BusEvents, EventBus } from '../../events/bus.js';
import type { InteractionStore, WorldStore } from '../../store/store.js';
import { withCounters } from '../../core/world/channel-counters.js';
import {
  guildDirectory,
  visibleChannel,
  visibleGuild,
  visibleGuildWithAllMembers,
  type WorldReadStore,
} from '../world/reads.js';

type WireObject = Record<string, unknown>;

/** Live streams one user may hold at once (a few tabs); one more is refused with 429. */
export const CONSOLE_STREAMS_PER_USER = 4;
/** Live streams one node holds at once, all users together. */
export const CONSOLE_STREAMS_TOTAL = 1000;
/** The most members one list answers with (the console's user and member pickers). */
export const CONSOLE_MEMBERS_LIMIT = 1000;

/** The message events a stream carries: the console re-reads the channel through v10 on each. */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'MESSAGE_DELETE']);
/** The reaction and poll vote events a stream carries too: they name their message by `message_id`. */
const REACTION_EVENTS: ReadonlySet<string> = new Set([
  'MESSAGE_REACTION_ADD',
  'MESSAGE_REACTION_REMOVE',
  'MESSAGE_REACTION_REMOVE_ALL',
  'MESSAGE_REACTION_REMOVE_EMOJI',
  'MESSAGE_POLL_VOTE_ADD',
  'MESSAGE_POLL_VOTE_REMOVE',
]);

/** The message a streamed event is about, or undefined for an event streams do not carry. */
function streamedMessageId(event: { t: string; d: Record<string, unknown> }): unknown {
  if (MESSAGE_EVENTS.has(event.t)) return event.d.id;
  return REACTION_EVENTS.has(event.t) ? event.d.message_id : undefined;
}

/** What a stream sends: which message changed, never its content (the console reads it as the user). */
export interface ChannelEvent {
  t: string;
  message_id: string;
}

export interface ConsoleServiceOptions {
  world: Pick<WorldStore, 'listUsers' | 'getGuild' | 'getUser' | 'getApplication'>;
  members: WorldReadStore['members'];
  /** The channels' message counters, read at once for a guild's list. */
  interactions: Pick<InteractionStore, 'channelCounters'>;
  /** The clock a viewer's timeout is read at. */
  now: () => number;
  bus: EventBus;
  /** The sandbox's sign-in list (users and their tokens): on for the local demo only. */
  sandboxSignIn: boolean;
}

export interface ChannelStream {
  close(): void;
}

/** Where a stream's events go, and how it is ended when the server closes. */
export interface StreamSink {
  send(event: ChannelEvent): void;
  /** Ends the stream from the server's side (its `close` follows when the response is gone). */
  end(): void;
}

export class ConsoleService {
  /** Open streams per user id (a Map: never a record keyed by client input). */
  private readonly streams = new Map<string, number>();
  private total = 0;
  /** The open streams' sinks: ended all at once when the server closes. */
  private readonly sinks = new Set<StreamSink>();
  private closed = false;

  constructor(private readonly deps: ConsoleServiceOptions) {}

  get sandboxSignIn(): boolean {
    return this.deps.sandboxSignIn;
  }

  /** The world's users with their tokens, for the sandbox's sign-in; unknown (404) otherwise. */
  async sandboxUsers(): Promise<WireObject[]> {
    if (!this.deps.sandboxSignIn) throw apiError('NotFound');
    const users = await this.deps.world.listUsers();
    return users.map((user) => ({ id: user.id, username: user.username, locale: user.locale, token: user.token }));
  }

  /** The members of a guild the user is a member of, bots included, at most CONSOLE_MEMBERS_LIMIT. */
  async members(user: User, guildId: string): Promise<WireObject[]> {
    const guild = await visibleGuildWithAllMembers(this.deps, viewerOf(user), guildId);
    return guildMembers(guild, await guildDirectory(this.deps.world, guild))
      .slice(0, CONSOLE_MEMBERS_LIMIT)
      .map((view) => toWireGuildMember(guild, view));
  }

  /** The channels of a guild the user may view (v10 lists them all, and a client hides the rest). */
  async channels(user: User, guildId: string): Promise<WireObject[]> {
    const viewer = viewerOf(user);
    const guild = await visibleGuild(this.deps, viewer, guildId);
    const channels = guild.channels.filter((channel) =>
      hasAll(viewerChannelPermissions(guild, viewer, channel), VIEW_CHANNEL),
    );
    const counters = withCounters(guild, await this.deps.interactions.channelCounters(channels.map((c) => c.id)));
    return channels.map((channel) => toWireChannel(guild, channel, counters));
  }

  /**
   * Follows a channel the user may view: `send` gets each message event of it while the user still
   * may (checked again at every event). Ephemeral messages never reach the bus, so no stream
   * carries another user's; the console follows its own interactions through v10.
   */
  async openStream(user: User, channelId: string, sink: StreamSink): Promise<ChannelStream> {
    const viewer = viewerOf(user);
    await visibleChannel(this.deps, viewer, channelId);
    if (this.closed) throw apiError('ShuttingDown');
    const held = this.streams.get(user.id) ?? 0;
    if (held >= CONSOLE_STREAMS_PER_USER || this.total >= CONSOLE_STREAMS_TOTAL) throw apiError('TooManyStreams');
    this.streams.set(user.id, held + 1);
    this.total += 1;
    const forward = async (event: BusEvents['WORLD_DISPATCH']) => {
      if (event.channelId !== channelId) return;
      const id = streamedMessageId(event);
      if (typeof id !== 'string') return;
      try {
        await visibleChannel(this.deps, viewer, channelId);
      } catch {
        return; // no longer visible: nothing is sent, the console's next read says why
      }
      sink.send({ t: event.t, message_id: id });
    };
    const unsubscribe = this.deps.bus.subscribe('WORLD_DISPATCH', (event) => void forward(event));
    this.sinks.add(sink);
    let open = true;
    return {
      close: () => {
        if (!open) return;
        open = false;
        unsubscribe();
        this.sinks.delete(sink);
        this.total -= 1;
        const left = (this.streams.get(user.id) ?? 1) - 1;
        if (left === 0) this.streams.delete(user.id);
        else this.streams.set(user.id, left);
      },
    };
  }

  /**
   * The server closes: every open stream ends now (a stream never ends on its own, and an open one
   * would hold the drain), and no new one opens.
   */
  close(): void {
    this.closed = true;
    for (const sink of [...this.sinks]) sink.end();
  }
}

function viewerOf(user: User): Viewer {
  return { kind: 'user', userId: user.id };
}
