/**
 * Lists of threads (v10): a guild's active threads, a channel's archived public or private ones,
 * and the archived private ones the caller joined. Each holds only threads the caller may see, and
 * `members` the caller's own thread members.
 */
import { apiError } from '../../core/io/errors.js';
import { hasAll, READ_MESSAGE_HISTORY, VIEW_CHANNEL } from '../../core/permissions/bits.js';
import { isThread } from '../../core/permissions/channels.js';
import { compareSnowflakes } from '../../core/world/page-query.js';
import { archivedListPermission, isArchived } from './rules/thread-rules.js';
import { PRIVATE_THREAD_TYPE, type Channel, type Guild } from '../../core/world/types.js';
import { toWireThread } from '../../core/world/v10-objects.js';
import { withCounters } from '../../core/world/channel-counters.js';
import { viewerChannelPermissions, viewerId, type Viewer } from '../../core/world/viewer.js';
import type { InteractionStore, ThreadStore } from '../../store/store.js';
import { toWireThreadMember } from './place.js';
import { visibleChannel, visibleGuild, type WorldReadStore } from '../world/reads.js';

/** An archived list's page: threads archived before `before` (ISO 8601, or a thread id for the joined list). */
export interface ArchivedPage {
  before: string | null;
  limit: number;
}

type WireObject = Record<string, unknown>;

export class ThreadListsService {
  constructor(
    private readonly store: WorldReadStore & {
      readonly threads: Pick<ThreadStore, 'listThreadMembers'>;
      readonly interactions: Pick<InteractionStore, 'channelCounters'>;
    },
    private readonly now: () => number,
  ) {}

  /** `GET /guilds/{g}/threads/active`. */
  async active(viewer: Viewer, guildId: string): Promise<WireObject> {
    const guild = await visibleGuild(this.store, viewer, guildId);
    const threads = guild.channels.filter((c) => isThread(c) && !isArchived(c) && this.sees(guild, viewer, c));
    return this.answer(guild, viewer, threads);
  }

  /** `GET /channels/{c}/threads/archived/public|private`: newest archived first. */
  async archived(viewer: Viewer, channelId: string, privateThreads: boolean, page: ArchivedPage): Promise<WireObject> {
    const { guild, permissions } = await visibleChannel({ ...this.store, now: this.now }, viewer, channelId);
    if (!hasAll(permissions, archivedListPermission(privateThreads))) throw apiError('MissingAccess');
    const before = page.before === null ? Number.POSITIVE_INFINITY : Date.parse(page.before);
    const threads = guild.channels
      .filter((c) => c.parent_id === channelId && isArchived(c) && (c.type === PRIVATE_THREAD_TYPE) === privateThreads)
      .filter((c) => Date.parse(c.thread!.archive_timestamp) < before)
      .sort((a, b) => Date.parse(b.thread!.archive_timestamp) - Date.parse(a.thread!.archive_timestamp));
    return this.paged(guild, viewer, threads, page.limit);
  }

  /** `GET /channels/{c}/users/@me/threads/archived/private`: the caller's own, newest id first. */
  async joinedPrivateArchived(viewer: Viewer, channelId: string, page: ArchivedPage): Promise<WireObject> {
    const { guild, permissions } = await visibleChannel({ ...this.store, now: this.now }, viewer, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingAccess');
    const me = viewerId(viewer);
    const before = page.before;
    const threads = guild.channels
      .filter((c) => c.parent_id === channelId && c.type === PRIVATE_THREAD_TYPE && isArchived(c))
      .filter((c) => (c.thread_member_ids ?? []).includes(me))
      .filter((c) => before === null || compareSnowflakes(c.id, before) < 0)
      .sort((a, b) => compareSnowflakes(b.id, a.id));
    return this.paged(guild, viewer, threads, page.limit);
  }

  private sees(guild: Guild, viewer: Viewer, thread: Channel): boolean {
    return hasAll(viewerChannelPermissions(guild, viewer, thread), VIEW_CHANNEL);
  }

  private async paged(guild: Guild, viewer: Viewer, threads: Channel[], limit: number): Promise<WireObject> {
    return { ...(await this.answer(guild, viewer, threads.slice(0, limit))), has_more: threads.length > limit };
  }

  /** The threads, and the caller's thread member in each it joined. */
  private async answer(guild: Guild, viewer: Viewer, threads: readonly Channel[]): Promise<WireObject> {
    const me = viewerId(viewer);
    const members: WireObject[] = [];
    for (const thread of threads.filter((t) => (t.thread_member_ids ?? []).includes(me))) {
      const rows = thread.thread ? await this.store.threads.listThreadMembers(guild.id, thread.id) : [];
      const own = rows.find((row) => row.user_id === me);
      const joined = own?.join_timestamp ?? new Date(this.now()).toISOString();
      members.push(toWireThreadMember(thread.id, { user_id: me, join_timestamp: joined }));
    }
    const counters = withCounters(guild, await this.store.interactions.channelCounters(threads.map((t) => t.id)));
    return { threads: threads.map((t) => toWireThread(guild, t, counters)), members };
  }
}
