/**
 * Which sessions get a dispatch about the world, and as what (pure): the bot must be in the
 * guild (or a recipient of the DM), the guild must be on the session's shard, the session's
 * intents must allow the event, a channel-scoped event needs VIEW_CHANNEL on the channel, an audit
 * log entry needs VIEW_AUDIT_LOG, and message content is emptied without MESSAGE_CONTENT (v10).
 */
import { appChannelPermissions } from '../permissions/channel-permissions.js';
import { hasAll, MANAGE_CHANNELS, MANAGE_GUILD, VIEW_AUDIT_LOG, VIEW_CHANNEL } from '../permissions/bits.js';
import { findChannel } from '../permissions/channels.js';
import type { WorldDispatch, WorldDispatchName } from '../world/dispatch.js';
import type { Guild } from '../world/types.js';
import { botInGuild } from '../world/guild-members.js';
import { appBasePermissions } from '../world/v10-objects.js';
import { Intent, intentsAllow, isMessageEvent, messageForIntents } from './intents.js';
import { shardOf } from './shards.js';

/** The bus's WORLD_DISPATCH event. */
export type WorldEvent = WorldDispatch;

export interface SessionView {
  applicationId: string;
  intents: number;
  shardId: number;
  numShards: number;
}

/** Deletions are about a channel that is gone from the world: its view is judged by the event. */
const CHANNEL_GONE_EVENTS: ReadonlySet<WorldDispatchName> = new Set(['CHANNEL_DELETE', 'THREAD_DELETE']);

/** Guild-wide events only the bots with a permission get (v10: the audit log's entries need VIEW_AUDIT_LOG). */
const EVENT_PERMISSIONS: ReadonlyMap<WorldDispatchName, bigint> = new Map<WorldDispatchName, bigint>([
  ['GUILD_AUDIT_LOG_ENTRY_CREATE', VIEW_AUDIT_LOG],
  // Auto moderation's rules and actions go to the bots that may manage the guild.
  ['AUTO_MODERATION_RULE_CREATE', MANAGE_GUILD],
  ['AUTO_MODERATION_RULE_UPDATE', MANAGE_GUILD],
  ['AUTO_MODERATION_RULE_DELETE', MANAGE_GUILD],
  ['AUTO_MODERATION_ACTION_EXECUTION', MANAGE_GUILD],
]);

function mayReceive(guild: Guild, event: WorldEvent, applicationId: string): boolean {
  const needed = EVENT_PERMISSIONS.get(event.t);
  return needed === undefined || hasAll(appBasePermissions(guild, applicationId), needed);
}

/** Channel events only the bots with a permission in the channel get (v10: invite events need MANAGE_CHANNELS). */
const CHANNEL_EVENT_PERMISSIONS: ReadonlyMap<WorldDispatchName, bigint> = new Map<WorldDispatchName, bigint>([
  ['INVITE_CREATE', MANAGE_CHANNELS],
  ['INVITE_DELETE', MANAGE_CHANNELS],
]);

function mayViewChannel(guild: Guild, event: WorldEvent, applicationId: string): boolean {
  if (event.channelId === null) return true;
  const channel = findChannel(guild, event.channelId);
  if (!channel) return CHANNEL_GONE_EVENTS.has(event.t);
  const needed = VIEW_CHANNEL | (CHANNEL_EVENT_PERMISSIONS.get(event.t) ?? 0n);
  return hasAll(appChannelPermissions(guild, applicationId, channel), needed);
}

/**
 * The `d` a session gets for the event, or null when it gets none. `guild` is the world's guild
 * after the change (null for a DM, or a guild that is gone).
 */
/**
 * Thread member events name the members they concern (`recipientIds`): THREAD_MEMBER_UPDATE goes
 * only to them, and THREAD_MEMBERS_UPDATE to them even without GUILD_MEMBERS (v10).
 */
function threadMemberEventAllowed(event: WorldEvent, session: SessionView): boolean | null {
  const concerned = event.recipientIds.includes(session.applicationId);
  if (event.t === 'THREAD_MEMBER_UPDATE') return concerned && intentsAllow(session.intents, event.t, true);
  if (event.t === 'THREAD_MEMBERS_UPDATE') return concerned || intentsAllow(session.intents, event.t, true);
  return null;
}

export function worldDispatchFor(
  event: WorldEvent,
  session: SessionView,
  guild: Guild | null,
): Record<string, unknown> | null {
  const inGuild = event.guildId !== null;
  const allowed = threadMemberEventAllowed(event, session) ?? intentsAllow(session.intents, event.t, inGuild);
  if (!allowed) return null;
  if (shardOf(event.guildId, session.numShards) !== session.shardId) return null;
  if (!inGuild) {
    if (!event.recipientIds.includes(session.applicationId)) return null;
    return isMessageEvent(event.t) ? messageForIntents(event.d, session.intents, session.applicationId, true) : event.d;
  }
  if (!guild || !botInGuild(guild, session.applicationId)) return null;
  if (!mayViewChannel(guild, event, session.applicationId)) return null;
  if (!mayReceive(guild, event, session.applicationId)) return null;
  // An action's message content needs MESSAGE_CONTENT, as a message's does (v10).
  if (event.t === 'AUTO_MODERATION_ACTION_EXECUTION' && (session.intents & Intent.MessageContent) === 0) {
    return { ...event.d, content: '', matched_content: '' };
  }
  return isMessageEvent(event.t) ? messageForIntents(event.d, session.intents, session.applicationId, false) : event.d;
}
