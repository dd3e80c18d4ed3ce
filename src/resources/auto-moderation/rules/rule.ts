/**
 * An auto moderation rule as slashd stores it and v10 answers it (docs/v10-behaviour.md#auto-moderation):
 * the guild's, not an app's (every bot with MANAGE_GUILD in the guild reads the same rules, as in
 * v10). The limits of its fields, each a named constant, and its wire builder.
 */
import {
  AutoModerationActionType,
  AutoModerationRuleEventType,
  AutoModerationRuleKeywordPresetType,
  AutoModerationRuleTriggerType,
  type APIAutoModerationAction,
  type APIAutoModerationRule,
  type APIAutoModerationRuleTriggerMetadata,
} from 'discord-api-types/v10';
import type { WirePayload } from '../../../core/wire-payload.js';

/** The longest rule name (v10). */
export const RULE_NAME_MAX = 100;
/** Keyword rules a guild may hold (v10). */
export const KEYWORD_RULES_MAX = 6;
/** Rules of each other trigger type a guild may hold (v10). */
export const OTHER_RULES_MAX = 1;
/** `keyword_filter`: at most 1,000 entries of at most 60 characters (v10). */
export const KEYWORD_FILTER_MAX = 1000;
export const KEYWORD_LENGTH_MAX = 60;
/** `regex_patterns`: at most 10 patterns of at most 260 characters (v10). */
export const REGEX_PATTERNS_MAX = 10;
export const REGEX_PATTERN_LENGTH_MAX = 260;
/** `allow_list`: 100 entries for keyword and member profile rules, 1,000 for keyword preset rules (v10), 60 characters each. */
export const ALLOW_LIST_MAX = 100;
export const PRESET_ALLOW_LIST_MAX = 1000;
/** `mention_total_limit`: at most 50 unique mentions (v10). */
export const MENTION_TOTAL_LIMIT_MAX = 50;
/** `actions`: 1 to 5 (v10's OpenAPI document). */
export const ACTIONS_MAX = 5;
/** A block action's `custom_message`: at most 150 characters (v10). */
export const CUSTOM_MESSAGE_MAX = 150;
/** A timeout action's `duration_seconds`: at most 4 weeks (v10). */
export const TIMEOUT_SECONDS_MAX = 2_419_200;
/** `exempt_roles`: at most 20 (v10). */
export const EXEMPT_ROLES_MAX = 20;
/** `exempt_channels`: at most 50 (v10). */
export const EXEMPT_CHANNELS_MAX = 50;

export const TRIGGER_TYPES = [
  AutoModerationRuleTriggerType.Keyword,
  AutoModerationRuleTriggerType.Spam,
  AutoModerationRuleTriggerType.KeywordPreset,
  AutoModerationRuleTriggerType.MentionSpam,
  AutoModerationRuleTriggerType.MemberProfile,
] as const;

export const EVENT_TYPES = [AutoModerationRuleEventType.MessageSend, AutoModerationRuleEventType.MemberUpdate] as const;

export const ACTION_TYPES = [
  AutoModerationActionType.BlockMessage,
  AutoModerationActionType.SendAlertMessage,
  AutoModerationActionType.Timeout,
  AutoModerationActionType.BlockMemberInteraction,
] as const;

export const PRESET_TYPES = [
  AutoModerationRuleKeywordPresetType.Profanity,
  AutoModerationRuleKeywordPresetType.SexualContent,
  AutoModerationRuleKeywordPresetType.Slurs,
] as const;

/** How many rules of a trigger type a guild may hold. */
export function rulesOfTypeMax(triggerType: AutoModerationRuleTriggerType): number {
  return triggerType === AutoModerationRuleTriggerType.Keyword ? KEYWORD_RULES_MAX : OTHER_RULES_MAX;
}

/** The event a trigger type watches: a member's profile is checked on join and update, the others on a message. */
export function eventTypeOf(triggerType: AutoModerationRuleTriggerType): AutoModerationRuleEventType {
  return triggerType === AutoModerationRuleTriggerType.MemberProfile
    ? AutoModerationRuleEventType.MemberUpdate
    : AutoModerationRuleEventType.MessageSend;
}

/** The actions a trigger type takes (v10): a timeout only for keyword, mention spam and member profile rules; blocking a member's interactions only for member profile rules, which block no message. */
export function actionAllowed(triggerType: AutoModerationRuleTriggerType, action: AutoModerationActionType): boolean {
  switch (action) {
    case AutoModerationActionType.BlockMessage:
      return triggerType !== AutoModerationRuleTriggerType.MemberProfile;
    case AutoModerationActionType.SendAlertMessage:
      return true;
    case AutoModerationActionType.Timeout:
      return (
        triggerType === AutoModerationRuleTriggerType.Keyword ||
        triggerType === AutoModerationRuleTriggerType.MentionSpam ||
        triggerType === AutoModerationRuleTriggerType.MemberProfile
      );
    case AutoModerationActionType.BlockMemberInteraction:
      return triggerType === AutoModerationRuleTriggerType.MemberProfile;
  }
}

/** One action as stored: its type and the metadata it takes. */
export type RuleAction =
  | { type: AutoModerationActionType.BlockMessage; custom_message: string | null }
  | { type: AutoModerationActionType.SendAlertMessage; channel_id: string }
  | { type: AutoModerationActionType.Timeout; duration_seconds: number }
  | { type: AutoModerationActionType.BlockMemberInteraction };

/** The trigger's metadata as stored: every field of the type, defaulted. */
export interface TriggerMetadata {
  keyword_filter: string[];
  regex_patterns: string[];
  presets: AutoModerationRuleKeywordPresetType[];
  allow_list: string[];
  mention_total_limit: number;
  mention_raid_protection_enabled: boolean;
}

export interface StoredRule {
  id: string;
  guild_id: string;
  /** The bot (its application id) or the user who made it. */
  creator_id: string;
  name: string;
  event_type: AutoModerationRuleEventType;
  trigger_type: AutoModerationRuleTriggerType;
  trigger_metadata: TriggerMetadata;
  actions: RuleAction[];
  enabled: boolean;
  exempt_roles: string[];
  exempt_channels: string[];
}

export function emptyTriggerMetadata(): TriggerMetadata {
  return {
    keyword_filter: [],
    regex_patterns: [],
    presets: [],
    allow_list: [],
    mention_total_limit: 0,
    mention_raid_protection_enabled: false,
  };
}

/** v10's trigger metadata: only the fields of the rule's trigger type. */
function wireTriggerMetadata(rule: StoredRule): APIAutoModerationRuleTriggerMetadata {
  const m = rule.trigger_metadata;
  switch (rule.trigger_type) {
    case AutoModerationRuleTriggerType.Keyword:
    case AutoModerationRuleTriggerType.MemberProfile:
      return { keyword_filter: m.keyword_filter, regex_patterns: m.regex_patterns, allow_list: m.allow_list };
    case AutoModerationRuleTriggerType.KeywordPreset:
      return { presets: m.presets, allow_list: m.allow_list };
    case AutoModerationRuleTriggerType.MentionSpam:
      return {
        mention_total_limit: m.mention_total_limit,
        mention_raid_protection_enabled: m.mention_raid_protection_enabled,
      };
    case AutoModerationRuleTriggerType.Spam:
      return {};
  }
}

/** v10's action object: every action carries its metadata (`{}` when it has none). */
export function toWireAction(action: RuleAction): APIAutoModerationAction {
  switch (action.type) {
    case AutoModerationActionType.BlockMessage:
      return {
        type: action.type,
        metadata: action.custom_message === null ? {} : { custom_message: action.custom_message },
      };
    case AutoModerationActionType.SendAlertMessage:
      return { type: action.type, metadata: { channel_id: action.channel_id } };
    case AutoModerationActionType.Timeout:
      return { type: action.type, metadata: { duration_seconds: action.duration_seconds } };
    case AutoModerationActionType.BlockMemberInteraction:
      return { type: action.type, metadata: {} };
  }
}

export type WireRule = WirePayload<APIAutoModerationRule>;

/** v10's auto moderation rule object. */
export function toWireRule(rule: StoredRule): WireRule {
  const wire = {
    id: rule.id,
    guild_id: rule.guild_id,
    name: rule.name,
    creator_id: rule.creator_id,
    event_type: rule.event_type,
    trigger_type: rule.trigger_type,
    trigger_metadata: wireTriggerMetadata(rule),
    actions: rule.actions.map(toWireAction),
    enabled: rule.enabled,
    exempt_roles: [...rule.exempt_roles],
    exempt_channels: [...rule.exempt_channels],
  } satisfies APIAutoModerationRule;
  return wire;
}
