/**
 * What a rule does when a message sets it off (pure): the actions of every rule set off, in the
 * rules' order; the AUTO_MODERATION_ACTION_EXECUTION dispatch of each (v10, under
 * AUTO_MODERATION_EXECUTION), the alert's system message (type 24, AUTO_MODERATION_ACTION) and the
 * audit log entry of each action (143 block, 144 alert, 145 timeout). Also the rule dispatches
 * (AUTO_MODERATION_RULE_CREATE / UPDATE / DELETE, under AUTO_MODERATION_CONFIGURATION), whose
 * names and payloads join the world's typed map from here.
 */
import {
  AuditLogEvent,
  AutoModerationActionType,
  MessageType,
  PermissionFlagsBits,
  type GatewayAutoModerationActionExecutionDispatchData,
  type GatewayDispatchEvents,
} from 'discord-api-types/v10';
import { hasAll } from '../../../core/permissions/bits.js';
import type { WirePayload } from '../../../core/wire-payload.js';
import { basePermissions } from '../../../core/permissions/channel-permissions.js';
import { guildDispatch, type WorldEvent } from '../../../core/world/dispatch.js';
import type { Channel, Guild, Member } from '../../../core/world/types.js';
import type { StoredMessage } from '../../messages/rules/messages.js';
import type { AuditEntryInput } from '../../audit-log/rules.js';
import type { RuleMatch } from './matching.js';
import { toWireAction, toWireRule, type RuleAction, type StoredRule, type WireRule } from './rule.js';

declare module '../../../core/world/dispatch-payloads.js' {
  interface WorldDispatchPayloads {
    [GatewayDispatchEvents.AutoModerationRuleCreate]: WireRule;
    [GatewayDispatchEvents.AutoModerationRuleUpdate]: WireRule;
    [GatewayDispatchEvents.AutoModerationRuleDelete]: WireRule;
    [GatewayDispatchEvents.AutoModerationActionExecution]: WirePayload<GatewayAutoModerationActionExecutionDispatchData>;
  }
}

export type RuleChange = 'AUTO_MODERATION_RULE_CREATE' | 'AUTO_MODERATION_RULE_UPDATE' | 'AUTO_MODERATION_RULE_DELETE';

/** A rule's create, update or delete, to the guild's bots with MANAGE_GUILD (the gateway's filter). */
export function ruleDispatch(t: RuleChange, rule: StoredRule): WorldEvent {
  return guildDispatch(t, rule.guild_id, null, toWireRule(rule));
}

/** A rule a message set off, and what matched. */
export interface Triggered {
  rule: StoredRule;
  match: RuleMatch;
}

/**
 * Whether the rule looks at this member's message in this channel: not when the member holds one
 * of its exempt roles, the channel (or its category, or a thread's parent) is exempt, or the member
 * may manage the guild (v10: owners, administrators and MANAGE_GUILD are never moderated).
 */
export function ruleApplies(rule: StoredRule, guild: Guild, member: Member, channel: Channel): boolean {
  if (!rule.enabled) return false;
  if (guild.owner_id === member.user_id) return false;
  if (hasAll(basePermissions(guild, member), PermissionFlagsBits.ManageGuild)) return false;
  if (member.roles.some((role) => rule.exempt_roles.includes(role))) return false;
  const places = [channel.id];
  const parent = channel.parent_id ? guild.channels.find((c) => c.id === channel.parent_id) : undefined;
  if (channel.parent_id) places.push(channel.parent_id);
  if (parent?.parent_id) places.push(parent.parent_id);
  return !places.some((id) => rule.exempt_channels.includes(id));
}

/** The first blocking action's custom message among the rules set off; undefined when none blocks. */
export function blockOf(triggered: readonly Triggered[]): { customMessage: string | null } | undefined {
  for (const { rule } of triggered) {
    const block = rule.actions.find((a) => a.type === AutoModerationActionType.BlockMessage);
    if (block && block.type === AutoModerationActionType.BlockMessage) return { customMessage: block.custom_message };
  }
  return undefined;
}

/** What one action execution is about. */
export interface ExecutionPlace {
  guildId: string;
  channelId: string;
  userId: string;
  content: string;
  /** The user's message, when it was posted (not blocked). */
  messageId: string | null;
}

/** AUTO_MODERATION_ACTION_EXECUTION's `d` for one action. */
export function executionDispatch(
  place: ExecutionPlace,
  triggered: Triggered,
  action: RuleAction,
  alertMessageId: string | null,
): WorldEvent {
  const d: WirePayload<GatewayAutoModerationActionExecutionDispatchData> = {
    guild_id: place.guildId,
    action: toWireAction(action),
    rule_id: triggered.rule.id,
    rule_trigger_type: triggered.rule.trigger_type,
    user_id: place.userId,
    channel_id: place.channelId,
    ...(place.messageId !== null ? { message_id: place.messageId } : {}),
    ...(alertMessageId !== null ? { alert_system_message_id: alertMessageId } : {}),
    content: place.content,
    matched_keyword: triggered.match.matched_keyword,
    matched_content: triggered.match.matched_content,
  };
  return guildDispatch('AUTO_MODERATION_ACTION_EXECUTION', place.guildId, null, d);
}

/**
 * The alert's system message (type 24) in the alert channel: by the member, with the flagged
 * content in an `auto_moderation_message` embed whose fields name the rule, as v10 posts it.
 */
export function alertMessage(
  id: string,
  alertChannelId: string,
  place: ExecutionPlace,
  triggered: Triggered,
  timeoutSeconds: number | null,
  nowMs: number,
): StoredMessage {
  const fields = [
    { name: 'rule_name', value: triggered.rule.name, inline: false },
    { name: 'channel_id', value: place.channelId, inline: false },
    { name: 'decision_id', value: id, inline: false },
    { name: 'rule_id', value: triggered.rule.id, inline: false },
    { name: 'keyword', value: triggered.match.matched_keyword ?? '', inline: false },
    { name: 'keyword_matched_content', value: triggered.match.matched_content, inline: false },
    ...(place.messageId !== null ? [{ name: 'flagged_message_id', value: place.messageId, inline: false }] : []),
    ...(timeoutSeconds !== null ? [{ name: 'timeout_duration', value: String(timeoutSeconds), inline: false }] : []),
  ];
  return {
    id,
    channel_id: alertChannelId,
    guild_id: place.guildId,
    author: { kind: 'user', id: place.userId },
    content: '',
    embeds: [{ type: 'auto_moderation_message', description: place.content, fields }],
    components: [],
    flags: 0,
    timestamp: new Date(nowMs).toISOString(),
    edited_timestamp: null,
    ephemeral_for_user_id: null,
    type: MessageType.AutoModerationAction,
  };
}

const AUDIT_ACTIONS: Partial<Record<AutoModerationActionType, AuditLogEvent>> = {
  [AutoModerationActionType.BlockMessage]: AuditLogEvent.AutoModerationBlockMessage,
  [AutoModerationActionType.SendAlertMessage]: AuditLogEvent.AutoModerationFlagToChannel,
  [AutoModerationActionType.Timeout]: AuditLogEvent.AutoModerationUserCommunicationDisabled,
};

/** The audit entry of an action executed: about the member, naming the rule and the channel (v10's options). */
export function executionAudit(
  place: ExecutionPlace,
  triggered: Triggered,
  action: RuleAction,
): AuditEntryInput | null {
  const actionType = AUDIT_ACTIONS[action.type];
  if (actionType === undefined) return null;
  return {
    guild_id: place.guildId,
    user_id: place.userId,
    target_id: place.userId,
    action_type: actionType,
    options: {
      auto_moderation_rule_name: triggered.rule.name,
      auto_moderation_rule_trigger_type: String(triggered.rule.trigger_type),
      channel_id: place.channelId,
    },
    reason: null,
  };
}
