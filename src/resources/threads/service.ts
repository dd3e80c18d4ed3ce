/**
 * Threads (v10 Threads): starting one in a channel or from a message, editing one (archive, lock,
 * rename), each checked against v10's permissions (CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS,
 * MANAGE_THREADS, SEND_MESSAGES_IN_THREADS) and told to bots as THREAD_CREATE / THREAD_UPDATE /
 * THREAD_DELETE.
 * Members are thread-members-service.ts's; the lists thread-lists-service.ts's.
 */
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import { hasAll, MANAGE_THREADS } from '../../core/permissions/bits.js';
import { isThread } from '../../core/permissions/channels.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { readThreadCreate, readThreadEdit, type ThreadCreateRequest } from './rules/thread-requests.js';
import {
  activeThreadRoom,
  createPermission,
  editedThread,
  editRefusal,
  newThread,
  newThreadType,
  unarchives,
} from './rules/thread-rules.js';
import { MAX_ACTIVE_THREADS } from './rules/limits.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { toWireThread, type WireThread } from '../../core/world/v10-objects.js';
import type { WirePayload } from '../../core/wire-payload.js';
import { withCounters, type CountersOf } from '../../core/world/channel-counters.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { InteractionStore, ThreadStore } from '../../store/store.js';
import { findChannelMessage } from '../messages/lookup.js';
import { adoptThread, refuseThread, threadEvent, visibleThread } from './place.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { AuditLog } from '../audit-log/service.js';
import { AuditLogEvent } from '../audit-log/rules.js';
import { threadCreateChanges, threadEditChanges } from './rules/thread-audit.js';
import { visibleChannel, type WorldReadStore } from '../world/reads.js';
import type { Slowmode } from '../messages/slowmode.js';
import { slowmodeSender } from '../messages/service.js';

export interface ThreadsDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  threads: Pick<ThreadStore, 'createThread' | 'updateThread' | 'deleteThread'>;
  messages: Pick<InteractionStore, 'getMessage' | 'changedWorldMessages' | 'channelCounters'>;
  ids: SnowflakeGenerator;
  now: () => number;
  events: WorldEvents;
  /** Where THREAD_CREATE (110) and THREAD_UPDATE (111) entries go. */
  auditLog: AuditLog;
  /** A thread created takes the creator's thread interval of the parent's slowmode. */
  slowmode: Slowmode;
}

export class ThreadsService {
  constructor(private readonly deps: ThreadsDeps) {}

  /** `POST /channels/{c}/threads`: a public (11) or private (12, v10's default) thread, the creator its first member. */
  async start(
    viewer: Viewer,
    channelId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<WirePayload<WireThread>> {
    const request = orThrow(readThreadCreate(body, true));
    const place = await visibleChannel(this.deps, viewer, channelId);
    return this.create(viewer, place, this.deps.ids.next(), request, false, reason);
  }

  /** `POST /channels/{c}/messages/{m}/threads`: a public thread whose id is the message's. */
  async startFromMessage(
    viewer: Viewer,
    channelId: string,
    messageId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<WirePayload<WireThread>> {
    const request = orThrow(readThreadCreate(body, false));
    const place = await visibleChannel(this.deps, viewer, channelId);
    const message = await findChannelMessage(
      this.deps.messages,
      place.guild,
      place.channel,
      messageId,
      viewerId(viewer),
    );
    if (!message) throw apiError('UnknownMessage');
    if (place.guild.channels.some((c) => c.id === message.id)) throw apiError('ThreadAlreadyCreated');
    return this.create(viewer, place, message.id, request, true, reason);
  }

  private async create(
    viewer: Viewer,
    place: { guild: Guild; channel: Channel; permissions: bigint },
    id: string,
    request: ThreadCreateRequest,
    fromMessage: boolean,
    reason: string | null,
  ): Promise<WirePayload<WireThread>> {
    const { guild, channel, permissions } = place;
    const type = isThread(channel) ? 'wrong-channel-type' : newThreadType(channel, request.type, fromMessage);
    if (typeof type !== 'number') refuseThread(type);
    if (!hasAll(permissions, createPermission(type))) refuseThread('missing-permission');
    const nowIso = new Date(this.deps.now()).toISOString();
    const creator = viewerId(viewer);
    const thread = newThread(id, channel, type, request, creator, nowIso);
    const ticket = this.deps.slowmode.take(channel, slowmodeSender(viewer, permissions), 'thread');
    const created = await this.deps.threads
      .createThread(
        guild.id,
        thread,
        [{ user_id: creator, join_timestamp: nowIso }],
        activeThreadRoom(guild, thread.id),
      )
      .catch((error: unknown) => {
        ticket.release();
        throw error;
      });
    if (created !== 'created') ticket.release();
    if (created === 'exists') throw apiError('ThreadAlreadyCreated');
    if (created === 'no-guild') throw apiError('UnknownChannel');
    if (created === 'full') throw apiError('MaxActiveThreads', { params: { limit: MAX_ACTIVE_THREADS } });
    const stored = { ...thread, thread_member_ids: [creator] };
    const counters = await this.countersOf(guild, stored);
    this.deps.events.publishAll([threadEvent('THREAD_CREATE', guild, stored, counters)]);
    await this.deps.auditLog.record({
      guild_id: guild.id,
      user_id: creator,
      target_id: thread.id,
      action_type: AuditLogEvent.ThreadCreate,
      changes: threadCreateChanges(thread),
      reason,
    });
    return toWireThread(guild, stored, counters);
  }

  /** The thread's message counters: one read. */
  private async countersOf(guild: Guild, thread: Channel): Promise<CountersOf> {
    return withCounters(guild, await this.deps.messages.channelCounters([thread.id]));
  }

  /**
   * What kind of thread the channel is: `stored` as a row of its own (created through the API, or
   * taken in by it), `document` (a world file's, in the guild's document), or none. `PATCH
   * /channels/{id}` edits both kinds here; `DELETE` deletes stored ones here, and any other channel
   * goes through the guild channels.
   */
  async threadKind(channelId: string): Promise<'stored' | 'document' | null> {
    const guild = await this.deps.members.findGuildByChannelWithMembers(channelId, []);
    const channel = guild?.channels.find((c) => c.id === channelId);
    if (channel === undefined || !isThread(channel)) return null;
    return channel.thread === undefined ? 'document' : 'stored';
  }

  /** `DELETE /channels/{t}` on a stored thread (MANAGE_THREADS): it goes with its members and messages. */
  async delete(viewer: Viewer, threadId: string, reason: string | null): Promise<WirePayload<WireThread>> {
    const { guild, channel, permissions } = await visibleThread(this.deps, viewer, threadId);
    if (!hasAll(permissions, MANAGE_THREADS)) throw apiError('MissingPermissions');
    if (!(await this.deps.threads.deleteThread(guild.id, channel.id))) throw apiError('UnknownChannel');
    const counters = await this.countersOf(guild, channel);
    this.deps.events.publishAll([threadEvent('THREAD_DELETE', guild, channel, counters)]);
    await this.deps.auditLog.record({
      guild_id: guild.id,
      user_id: viewerId(viewer),
      target_id: channel.id,
      action_type: AuditLogEvent.ThreadDelete,
      changes: [],
      reason,
    });
    return toWireThread(guild, channel, counters);
  }

  /** `PATCH /channels/{t}` on a thread: name, archived, locked, auto_archive_duration, invitable, slowmode. */
  async edit(
    viewer: Viewer,
    threadId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<WirePayload<WireThread>> {
    const edit = orThrow(readThreadEdit(body));
    const { guild, channel, permissions } = await visibleThread(this.deps, viewer, threadId);
    const refusal = editRefusal(channel, edit, permissions, viewerId(viewer));
    if (refusal) refuseThread(refusal);
    const nowIso = new Date(this.deps.now()).toISOString();
    const edited = editedThread(await adoptThread(this.deps.threads, guild, channel, nowIso), edit, nowIso);
    const maxActive = unarchives(channel, edited) ? activeThreadRoom(guild, edited.id) : undefined;
    const updated = await this.deps.threads.updateThread(guild.id, edited, maxActive);
    if (updated === 'full') throw apiError('MaxActiveThreads', { params: { limit: MAX_ACTIVE_THREADS } });
    if (!updated) throw apiError('UnknownChannel');
    const counters = await this.countersOf(guild, edited);
    this.deps.events.publishAll([threadEvent('THREAD_UPDATE', guild, edited, counters)]);
    const changes = threadEditChanges(channel, edited);
    if (changes.length > 0) {
      await this.deps.auditLog.record({
        guild_id: guild.id,
        user_id: viewerId(viewer),
        target_id: edited.id,
        action_type: AuditLogEvent.ThreadUpdate,
        changes,
        reason,
      });
    }
    return toWireThread(guild, edited, counters);
  }
}
