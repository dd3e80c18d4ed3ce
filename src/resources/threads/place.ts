/**
 * What every thread endpoint shares: finding a thread the caller may see (its guild holds its
 * stored threads among its channels), v10's error for each refusal, and the thread events.
 */
import { isThread } from '../../core/permissions/channels.js';
import { refuse } from '../../core/refusals.js';
import { guildDispatch, type WorldEvent } from '../../core/world/dispatch.js';
import { storedThreadOf, type ThreadRefusal } from './rules/thread-rules.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { toWireThread } from '../../core/world/v10-objects.js';
import type { CountersOf } from '../../core/world/channel-counters.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { ThreadStore } from '../../store/store.js';
import type { ThreadMemberRow } from './store.js';
import { visibleChannel, type ChannelPlace, type WorldReads } from '../world/reads.js';

/** A thread the viewer sees, its guild and the viewer's permissions in force in it. */
export type ThreadPlace = ChannelPlace;

/** Throws v10's error for the refusal (the one refusal table, src/core/refusals.ts). */
export function refuseThread(refusal: ThreadRefusal): never {
  refuse(refusal);
}

/** A thread the viewer may see (VIEW_CHANNEL, and membership or MANAGE_THREADS for a private one). */
export async function visibleThread(store: WorldReads, viewer: Viewer, threadId: string): Promise<ThreadPlace> {
  const place = await visibleChannel(store, viewer, threadId);
  if (!isThread(place.channel)) refuseThread('wrong-channel-type');
  return place;
}

/** v10's thread member object. */
export function toWireThreadMember(threadId: string, member: ThreadMemberRow): Record<string, unknown> {
  return { id: threadId, user_id: member.user_id, join_timestamp: member.join_timestamp, flags: 0 };
}

/**
 * THREAD_CREATE (`newly_created`), THREAD_UPDATE: about the thread, so only those who see it get it;
 * `counters` give its message counters.
 */
export function threadEvent(
  t: 'THREAD_CREATE' | 'THREAD_UPDATE' | 'THREAD_DELETE',
  guild: Guild,
  thread: Channel,
  counters: CountersOf,
): WorldEvent {
  // v10's THREAD_DELETE names the thread only.
  if (t === 'THREAD_DELETE') {
    return guildDispatch(t, guild.id, thread.id, {
      id: thread.id,
      guild_id: guild.id,
      parent_id: thread.parent_id,
      type: thread.type,
    });
  }
  const wire = toWireThread(guild, thread, counters);
  return guildDispatch(t, guild.id, thread.id, t === 'THREAD_CREATE' ? { ...wire, newly_created: true } : wire);
}

/**
 * THREAD_MEMBERS_UPDATE (GUILD_MEMBERS; a bot without it gets the event only when it is the member
 * added or removed) and, for a bot that joined or left itself, THREAD_MEMBER_UPDATE.
 */
export function threadMembersEvents(
  guild: Guild,
  thread: Channel,
  change: { added?: ThreadMemberRow; removedId?: string },
): WorldEvent[] {
  const memberCount = (thread.thread_member_ids ?? []).length;
  const d: Record<string, unknown> = { id: thread.id, guild_id: guild.id, member_count: memberCount };
  if (change.added) d.added_members = [toWireThreadMember(thread.id, change.added)];
  if (change.removedId) d.removed_member_ids = [change.removedId];
  const concerned = change.added?.user_id ?? change.removedId!;
  const events: WorldEvent[] = [
    {
      kind: 'dispatch',
      event: { t: 'THREAD_MEMBERS_UPDATE', guildId: guild.id, channelId: thread.id, recipientIds: [concerned], d },
    },
  ];
  if (change.added) {
    const self = { ...toWireThreadMember(thread.id, change.added), guild_id: guild.id };
    events.push({
      kind: 'dispatch',
      event: { t: 'THREAD_MEMBER_UPDATE', guildId: guild.id, channelId: thread.id, recipientIds: [concerned], d: self },
    });
  }
  return events;
}

/**
 * The thread as a stored one: a world-file thread is stored (with the members the world names) the
 * first time the API changes it (docs/decisions.md, "Threads").
 */
export async function adoptThread(
  threads: Pick<ThreadStore, 'createThread'>,
  guild: Guild,
  channel: Channel,
  nowIso: string,
): Promise<Channel> {
  if (channel.thread) return channel;
  const thread = storedThreadOf(channel, guild.owner_id, nowIso);
  const members = (channel.thread_member_ids ?? []).map((id) => ({ user_id: id, join_timestamp: nowIso }));
  await threads.createThread(guild.id, thread, members);
  return thread;
}
