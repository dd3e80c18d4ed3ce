/**
 * Who may do what with a thread, and what a thread becomes (v10 Threads): pure. The service reads
 * the guild (its threads among its channels), asks here, and writes what these return.
 */
import { ChannelType } from 'discord-api-types/v10';
import {
  CREATE_PRIVATE_THREADS,
  CREATE_PUBLIC_THREADS,
  hasAll,
  MANAGE_THREADS,
  READ_MESSAGE_HISTORY,
  SEND_MESSAGES_IN_THREADS,
} from '../../../core/permissions/bits.js';
import { isThread } from '../../../core/permissions/channels.js';
import type { Refusal } from '../../../core/refusals.js';
import type { ThreadCreateRequest, ThreadEditRequest } from './thread-requests.js';
import { DEFAULT_THREAD_TYPE } from './thread-requests.js';
import { PRIVATE_THREAD_TYPE, type Channel, type Guild, type ThreadState } from '../../../core/world/types.js';
import { MAX_ACTIVE_THREADS } from './limits.js';

/** v10's thread types: announcement, public, private. */
export const ANNOUNCEMENT_THREAD_TYPE = ChannelType.AnnouncementThread;
export const PUBLIC_THREAD_TYPE = ChannelType.PublicThread;
/** The channel types a thread may start in: text and announcement. */
const THREAD_PARENT_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);
/** v10's default auto-archive duration: one day, in minutes. */
const DEFAULT_AUTO_ARCHIVE_MINUTES = 1440;

/** Why a thread request is refused, as data: the service turns it into v10's error. */
export type ThreadRefusal = Extract<Refusal, 'wrong-channel-type' | 'missing-permission' | 'archived' | 'locked'>;

/**
 * The type of a new thread in `parent`, or a refusal: only text and announcement channels hold
 * threads; an announcement channel's are announcement threads, a text channel's public or private.
 */
export function newThreadType(parent: Channel, asked: number | null, fromMessage: boolean): number | ThreadRefusal {
  if (!THREAD_PARENT_TYPES.has(parent.type)) return 'wrong-channel-type';
  if (parent.type === ChannelType.GuildAnnouncement) return ANNOUNCEMENT_THREAD_TYPE;
  if (fromMessage) return PUBLIC_THREAD_TYPE;
  const type = asked ?? DEFAULT_THREAD_TYPE;
  return type === ANNOUNCEMENT_THREAD_TYPE ? 'wrong-channel-type' : type;
}

/** The permission starting a thread of this type needs (VIEW_CHANNEL aside). */
export function createPermission(type: number): bigint {
  return type === PRIVATE_THREAD_TYPE ? CREATE_PRIVATE_THREADS : CREATE_PUBLIC_THREADS;
}

/** A new thread as stored: its creator owns it. */
export function newThread(
  id: string,
  parent: Channel,
  type: number,
  request: ThreadCreateRequest,
  ownerId: string,
  nowIso: string,
): Channel {
  const state: ThreadState = {
    owner_id: ownerId,
    archived: false,
    locked: false,
    auto_archive_duration: request.auto_archive_duration ?? DEFAULT_AUTO_ARCHIVE_MINUTES,
    archive_timestamp: nowIso,
    create_timestamp: nowIso,
    invitable: request.invitable ?? true,
    rate_limit_per_user: request.rate_limit_per_user ?? 0,
  };
  return {
    id,
    type,
    name: request.name,
    nsfw: parent.nsfw,
    parent_id: parent.id,
    permission_overwrites: [],
    thread: state,
  };
}

/**
 * A world-file thread as a stored one, the first time the API changes it (docs/decisions.md,
 * "Threads"): the guild's owner owns it, and it is as the world's reads show it.
 */
export function storedThreadOf(channel: Channel, guildOwnerId: string, createdIso: string): Channel {
  if (channel.thread) return channel;
  return {
    ...channel,
    thread: {
      owner_id: guildOwnerId,
      archived: false,
      locked: false,
      auto_archive_duration: 10080,
      archive_timestamp: createdIso,
      create_timestamp: createdIso,
      invitable: false,
      rate_limit_per_user: 0,
    },
  };
}

/** True when the thread is archived (a world-file thread never is). */
export function isArchived(channel: Channel): boolean {
  return channel.thread?.archived === true;
}

/** Posting in the thread: an archived thread takes no message, a locked one only a moderator's. */
export function postRefusal(channel: Channel, permissions: bigint): ThreadRefusal | null {
  if (!isThread(channel) || !channel.thread) return null;
  if (channel.thread.locked && !hasAll(permissions, MANAGE_THREADS)) return 'locked';
  if (channel.thread.archived) return 'archived';
  return null;
}

/**
 * An edit of the thread (v10 Modify Channel for threads): locking, slowmode and `invitable` need
 * MANAGE_THREADS; the rest MANAGE_THREADS or being the thread's owner, and unarchiving an unlocked
 * thread only SEND_MESSAGES_IN_THREADS. An archived thread takes an edit only with `archived: false`.
 */
export function editRefusal(
  channel: Channel,
  edit: ThreadEditRequest,
  permissions: bigint,
  editorId: string,
): ThreadRefusal | null {
  const state = channel.thread;
  const moderator = hasAll(permissions, MANAGE_THREADS);
  if (state?.archived && edit.archived !== false) return 'archived';
  const moderated = edit.locked !== undefined || edit.invitable !== undefined || edit.rate_limit_per_user !== undefined;
  if (moderated && !moderator) return 'missing-permission';
  if (moderator) return null;
  if (state?.locked && edit.archived === false) return 'missing-permission';
  const owner = state?.owner_id === editorId;
  const onlyUnarchives = Object.keys(edit).every((key) => key === 'archived') && edit.archived === false;
  if (onlyUnarchives) return hasAll(permissions, SEND_MESSAGES_IN_THREADS) ? null : 'missing-permission';
  return owner ? null : 'missing-permission';
}

/** The thread after the edit; `archive_timestamp` moves when `archived` changes. */
export function editedThread(channel: Channel, edit: ThreadEditRequest, nowIso: string): Channel {
  const state = channel.thread!;
  const archived = edit.archived ?? state.archived;
  return {
    ...channel,
    name: edit.name ?? channel.name,
    thread: {
      ...state,
      archived,
      locked: edit.locked ?? state.locked,
      auto_archive_duration: edit.auto_archive_duration ?? state.auto_archive_duration,
      archive_timestamp: archived !== state.archived ? nowIso : state.archive_timestamp,
      invitable: edit.invitable ?? state.invitable,
      rate_limit_per_user: edit.rate_limit_per_user ?? state.rate_limit_per_user,
    },
  };
}

/**
 * Adding another member to the thread: it must not be archived, the adder must be able to send
 * there, and a private thread that is not invitable takes others only from a moderator.
 */
export function addMemberRefusal(channel: Channel, permissions: bigint): ThreadRefusal | null {
  if (isArchived(channel)) return 'archived';
  if (!hasAll(permissions, SEND_MESSAGES_IN_THREADS)) return 'missing-permission';
  const closed = channel.type === PRIVATE_THREAD_TYPE && channel.thread?.invitable === false;
  return closed && !hasAll(permissions, MANAGE_THREADS) ? 'missing-permission' : null;
}

/** Removing another member: MANAGE_THREADS, or the owner of a private thread; never from an archived one. */
export function removeMemberRefusal(channel: Channel, permissions: bigint, removerId: string): ThreadRefusal | null {
  if (isArchived(channel)) return 'archived';
  if (hasAll(permissions, MANAGE_THREADS)) return null;
  const ownsPrivate = channel.type === PRIVATE_THREAD_TYPE && channel.thread?.owner_id === removerId;
  return ownsPrivate ? null : 'missing-permission';
}

/** Listing archived threads: READ_MESSAGE_HISTORY, and MANAGE_THREADS for every private one. */
export function archivedListPermission(privateThreads: boolean): bigint {
  return privateThreads ? READ_MESSAGE_HISTORY | MANAGE_THREADS : READ_MESSAGE_HISTORY;
}

/**
 * How many active threads the store may hold for the guild before `threadId` is refused: the cap
 * less the world file's threads (in the guild's document, always active), but that one itself.
 */
export function activeThreadRoom(guild: Guild, threadId: string): number {
  const worldThreads = guild.channels.filter((c) => isThread(c) && c.thread === undefined && c.id !== threadId);
  return MAX_ACTIVE_THREADS - worldThreads.length;
}

/** Whether the edit makes an archived thread active again (it then counts against the cap). */
export function unarchives(before: Channel, after: Channel): boolean {
  return before.thread?.archived === true && after.thread?.archived !== true;
}
