/**
 * A thread's members (v10 Thread Members): joining and leaving, adding and removing another,
 * reading one and listing them. Each change is one row, told to bots as THREAD_MEMBERS_UPDATE
 * (and THREAD_MEMBER_UPDATE to a bot that joined itself).
 */
import { apiError } from '../../core/io/errors.js';
import { compareSnowflakes, type Page } from '../../core/world/page-query.js';
import { addMemberRefusal, isArchived, removeMemberRefusal } from './rules/thread-rules.js';
import { botInGuild } from '../../core/world/guild-members.js';
import { isMember } from '../../core/world/member-index.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { ThreadStore } from '../../store/store.js';
import type { ThreadMemberRow } from './store.js';
import {
  adoptThread,
  refuseThread,
  threadMembersEvents,
  toWireThreadMember,
  visibleThread,
  type ThreadPlace,
} from './place.js';
import type { WorldEvents } from '../../events/world-events.js';
import { refuseWhileTimedOut, type WorldReadStore, type WorldReads } from '../world/reads.js';

/** The reads of every REST read, and the thread member rows. */
export type ThreadMembersStore = WorldReadStore & {
  readonly threads: Pick<ThreadStore, 'createThread' | 'addThreadMember' | 'removeThreadMember' | 'listThreadMembers'>;
};

type WireObject = Record<string, unknown>;

export class ThreadMembersService {
  constructor(
    private readonly store: ThreadMembersStore,
    private readonly events: WorldEvents,
    private readonly now: () => number,
  ) {}

  /** The reads of a thread's place, with the clock its timeouts are read at. */
  private get reads(): WorldReads {
    return { world: this.store.world, members: this.store.members, now: this.now };
  }

  /** `PUT /channels/{t}/thread-members/@me`. */
  async join(viewer: Viewer, threadId: string): Promise<void> {
    const place = await visibleThread(this.reads, viewer, threadId);
    refuseWhileTimedOut(place);
    if (isArchived(place.channel)) refuseThread('archived');
    await this.add(place, viewerId(viewer));
  }

  /** `DELETE /channels/{t}/thread-members/@me`. */
  async leave(viewer: Viewer, threadId: string): Promise<void> {
    const place = await visibleThread(this.reads, viewer, threadId);
    if (isArchived(place.channel)) refuseThread('archived');
    await this.remove(place, viewerId(viewer));
  }

  /** `PUT /channels/{t}/thread-members/{u}`: a member of the guild (a user, or a bot by its application id). */
  async addOther(viewer: Viewer, threadId: string, userId: string): Promise<void> {
    const place = await visibleThread(this.reads, viewer, threadId);
    const refusal = addMemberRefusal(place.channel, place.permissions);
    if (refusal) refuseThread(refusal);
    const guild = await this.store.members.getGuildWithMembers(place.guild.id, [userId]);
    if (!guild || !(isMember(guild, userId) || botInGuild(guild, userId))) throw apiError('UnknownMember');
    await this.add(place, userId);
  }

  /** `DELETE /channels/{t}/thread-members/{u}`. */
  async removeOther(viewer: Viewer, threadId: string, userId: string): Promise<void> {
    const place = await visibleThread(this.reads, viewer, threadId);
    const refusal = removeMemberRefusal(place.channel, place.permissions, viewerId(viewer));
    if (refusal) refuseThread(refusal);
    if (!(await this.remove(place, userId))) throw apiError('UnknownMember');
  }

  /** `GET /channels/{t}/thread-members/{u}`. */
  async get(viewer: Viewer, threadId: string, userId: string): Promise<WireObject> {
    const { guild, channel } = await visibleThread(this.reads, viewer, threadId);
    const member = (await this.membersOf(guild, channel)).find((m) => m.user_id === userId);
    if (!member) throw apiError('UnknownMember');
    return toWireThreadMember(channel.id, member);
  }

  /** `GET /channels/{t}/thread-members`: by user id, after `after`, at most `limit`. */
  async list(viewer: Viewer, threadId: string, page: Page): Promise<WireObject[]> {
    const { guild, channel } = await visibleThread(this.reads, viewer, threadId);
    const after = page.after;
    return (await this.membersOf(guild, channel))
      .sort((a, b) => compareSnowflakes(a.user_id, b.user_id))
      .filter((m) => after === undefined || compareSnowflakes(m.user_id, after) > 0)
      .slice(0, page.limit)
      .map((m) => toWireThreadMember(channel.id, m));
  }

  /** A stored thread's member rows; a world-file thread's members joined when it was created. */
  private async membersOf(guild: Guild, channel: Channel): Promise<ThreadMemberRow[]> {
    if (channel.thread) return this.store.threads.listThreadMembers(guild.id, channel.id);
    const created = new Date(this.now()).toISOString();
    return (channel.thread_member_ids ?? []).map((id) => ({ user_id: id, join_timestamp: created }));
  }

  private async add({ guild, channel }: ThreadPlace, userId: string): Promise<void> {
    const nowIso = new Date(this.now()).toISOString();
    const thread = await adoptThread(this.store.threads, guild, channel, nowIso);
    const member = { user_id: userId, join_timestamp: nowIso };
    if ((await this.store.threads.addThreadMember(guild.id, thread.id, member)) !== true) return;
    const members = [...(thread.thread_member_ids ?? []), userId];
    this.events.publishAll(threadMembersEvents(guild, { ...thread, thread_member_ids: members }, { added: member }));
  }

  private async remove({ guild, channel }: ThreadPlace, userId: string): Promise<boolean> {
    const thread = await adoptThread(this.store.threads, guild, channel, new Date(this.now()).toISOString());
    if (!(await this.store.threads.removeThreadMember(guild.id, thread.id, userId))) return false;
    const members = (thread.thread_member_ids ?? []).filter((id) => id !== userId);
    this.events.publishAll(
      threadMembersEvents(guild, { ...thread, thread_member_ids: members }, { removedId: userId }),
    );
    return true;
  }
}
