/**
 * What a rule's create and edit bodies may hold (v10 Auto Moderation endpoints): one small reader
 * per field, each limit a named constant of ./rule.ts. An edit reads only the fields it sets, and a
 * rule's trigger type (which an edit keeps) says which trigger metadata and actions it takes.
 */
import {
  AutoModerationActionType,
  AutoModerationRuleTriggerType,
  type AutoModerationRuleEventType,
  type AutoModerationRuleKeywordPresetType,
} from 'discord-api-types/v10';
import {
  AUTO_MODERATION_INVALID_ACTION,
  AUTO_MODERATION_INVALID_REGEX,
  AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE,
} from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import {
  fieldOf,
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readRecord,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import {
  report,
  reportAboveMax,
  reportBadLength,
  reportBelowMin,
  reportDuplicateValue,
  reportNotOneOf,
  reportRequired,
  reportTooLong,
  reportTooShort,
  type Issues,
} from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { readRustPattern } from './regex.js';
import {
  ACTIONS_MAX,
  ACTION_TYPES,
  ALLOW_LIST_MAX,
  CUSTOM_MESSAGE_MAX,
  EVENT_TYPES,
  EXEMPT_CHANNELS_MAX,
  EXEMPT_ROLES_MAX,
  KEYWORD_FILTER_MAX,
  KEYWORD_LENGTH_MAX,
  MENTION_TOTAL_LIMIT_MAX,
  PRESET_ALLOW_LIST_MAX,
  PRESET_TYPES,
  REGEX_PATTERNS_MAX,
  REGEX_PATTERN_LENGTH_MAX,
  RULE_NAME_MAX,
  TIMEOUT_SECONDS_MAX,
  TRIGGER_TYPES,
  actionAllowed,
  emptyTriggerMetadata,
  eventTypeOf,
  type RuleAction,
  type TriggerMetadata,
} from './rule.js';

/** The fields a body set (an edit leaves out what it does not change). */
export interface RuleFields {
  name?: string;
  event_type?: AutoModerationRuleEventType;
  trigger_type: AutoModerationRuleTriggerType;
  trigger_metadata?: TriggerMetadata;
  actions?: RuleAction[];
  enabled?: boolean;
  exempt_roles?: string[];
  exempt_channels?: string[];
}

function readChoice<T extends number>(value: unknown, path: IssuePath, allowed: readonly T[], issues: Issues) {
  const n = readInteger(value, path, issues);
  if (n === undefined) return undefined;
  if (!(allowed as readonly number[]).includes(n)) {
    reportNotOneOf(issues, path, allowed);
    return undefined;
  }
  return n as T;
}

/** A list of at most `max` items read by `read`; null and absent are an empty list. */
function readBoundedList<T>(
  value: unknown,
  path: IssuePath,
  max: number,
  issues: Issues,
  read: (item: unknown, path: IssuePath) => T | undefined,
  unique = false,
): T[] {
  if (isAbsent(value)) return [];
  const list = readList(value, path, issues);
  if (!list) return [];
  if (list.length > max) {
    reportTooLong(issues, path, max);
    return [];
  }
  const read_: T[] = [];
  list.forEach((item, index) => {
    const one = read(item, [...path, index]);
    if (one === undefined) return;
    if (unique && read_.includes(one)) reportDuplicateValue(issues, [...path, index], one);
    else read_.push(one);
  });
  return read_;
}

function boundedString(max: number, issues: Issues) {
  return (value: unknown, path: IssuePath): string | undefined => {
    const text = readString(value, path, issues);
    if (text === undefined) return undefined;
    if (text.length < 1 || text.length > max) {
      reportBadLength(issues, path, 1, max);
      return undefined;
    }
    return text;
  };
}

function readPattern(issues: Issues) {
  const text = boundedString(REGEX_PATTERN_LENGTH_MAX, issues);
  return (value: unknown, path: IssuePath): string | undefined => {
    const pattern = text(value, path);
    if (pattern === undefined) return undefined;
    const reading = readRustPattern(pattern);
    if (reading.kind === 'refused') {
      report(issues, path, AUTO_MODERATION_INVALID_REGEX, `Invalid regex: ${reading.reason}.`);
      return undefined;
    }
    return pattern;
  };
}

/** The trigger metadata of a trigger type: the fields the type takes, defaulted; the others ignored. */
function readTriggerMetadata(
  value: unknown,
  triggerType: AutoModerationRuleTriggerType,
  issues: Issues,
): TriggerMetadata | undefined {
  const path = ['trigger_metadata'];
  const metadata = emptyTriggerMetadata();
  if (isAbsent(value)) {
    if (triggerType === AutoModerationRuleTriggerType.MemberProfile) reportRequired(issues, path);
    return metadata;
  }
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const field = (key: string) => fieldOf(record, key);
  const at = (key: string): IssuePath => [...path, key];
  switch (triggerType) {
    case AutoModerationRuleTriggerType.Keyword:
    case AutoModerationRuleTriggerType.MemberProfile:
      metadata.keyword_filter = readBoundedList(
        field('keyword_filter'),
        at('keyword_filter'),
        KEYWORD_FILTER_MAX,
        issues,
        boundedString(KEYWORD_LENGTH_MAX, issues),
      );
      metadata.regex_patterns = readBoundedList(
        field('regex_patterns'),
        at('regex_patterns'),
        REGEX_PATTERNS_MAX,
        issues,
        readPattern(issues),
      );
      metadata.allow_list = readBoundedList(
        field('allow_list'),
        at('allow_list'),
        ALLOW_LIST_MAX,
        issues,
        boundedString(KEYWORD_LENGTH_MAX, issues),
      );
      break;
    case AutoModerationRuleTriggerType.KeywordPreset:
      metadata.presets = readBoundedList<AutoModerationRuleKeywordPresetType>(
        field('presets'),
        at('presets'),
        PRESET_TYPES.length,
        issues,
        (item, itemPath) => readChoice(item, itemPath, PRESET_TYPES, issues),
        true,
      );
      metadata.allow_list = readBoundedList(
        field('allow_list'),
        at('allow_list'),
        PRESET_ALLOW_LIST_MAX,
        issues,
        boundedString(KEYWORD_LENGTH_MAX, issues),
      );
      break;
    case AutoModerationRuleTriggerType.MentionSpam: {
      const limit = field('mention_total_limit');
      if (!isAbsent(limit)) {
        const n = readInteger(limit, at('mention_total_limit'), issues);
        if (n !== undefined && n < 0) reportBelowMin(issues, at('mention_total_limit'), 0);
        else if (n !== undefined && n > MENTION_TOTAL_LIMIT_MAX) {
          reportAboveMax(issues, at('mention_total_limit'), MENTION_TOTAL_LIMIT_MAX);
        } else if (n !== undefined) metadata.mention_total_limit = n;
      }
      const raid = field('mention_raid_protection_enabled');
      if (!isAbsent(raid)) {
        metadata.mention_raid_protection_enabled =
          readBoolean(raid, at('mention_raid_protection_enabled'), issues) ?? false;
      }
      break;
    }
    case AutoModerationRuleTriggerType.Spam:
      break;
  }
  return metadata;
}

function readAction(
  value: unknown,
  path: IssuePath,
  triggerType: AutoModerationRuleTriggerType,
  issues: Issues,
): RuleAction | undefined {
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const typeValue = fieldOf(record, 'type');
  if (isAbsent(typeValue)) {
    reportRequired(issues, [...path, 'type']);
    return undefined;
  }
  const type = readChoice(typeValue, [...path, 'type'], ACTION_TYPES, issues);
  if (type === undefined) return undefined;
  if (!actionAllowed(triggerType, type)) {
    report(
      issues,
      [...path, 'type'],
      AUTO_MODERATION_INVALID_ACTION,
      'This action is not allowed for this trigger type.',
    );
    return undefined;
  }
  const metaPath = [...path, 'metadata'];
  const metaValue = fieldOf(record, 'metadata');
  const needsMetadata = type === AutoModerationActionType.SendAlertMessage || type === AutoModerationActionType.Timeout;
  if (isAbsent(metaValue)) {
    if (needsMetadata) {
      reportRequired(issues, metaPath);
      return undefined;
    }
    return type === AutoModerationActionType.BlockMessage ? { type, custom_message: null } : { type };
  }
  const metadata = readRecord(metaValue, metaPath, issues);
  if (!metadata) return undefined;
  switch (type) {
    case AutoModerationActionType.BlockMessage: {
      const custom = fieldOf(metadata, 'custom_message');
      if (isAbsent(custom) || custom === '') return { type, custom_message: null };
      const text = readString(custom, [...metaPath, 'custom_message'], issues);
      if (text !== undefined && text.length > CUSTOM_MESSAGE_MAX) {
        reportTooLong(issues, [...metaPath, 'custom_message'], CUSTOM_MESSAGE_MAX);
        return undefined;
      }
      return text === undefined ? undefined : { type, custom_message: text };
    }
    case AutoModerationActionType.SendAlertMessage: {
      const channel = fieldOf(metadata, 'channel_id');
      if (isAbsent(channel)) {
        reportRequired(issues, [...metaPath, 'channel_id']);
        return undefined;
      }
      const channelId = readSnowflake(channel, [...metaPath, 'channel_id'], issues);
      return channelId === undefined ? undefined : { type, channel_id: channelId };
    }
    case AutoModerationActionType.Timeout: {
      const durationPath = [...metaPath, 'duration_seconds'];
      const duration = fieldOf(metadata, 'duration_seconds');
      if (isAbsent(duration)) {
        reportRequired(issues, durationPath);
        return undefined;
      }
      const seconds = readInteger(duration, durationPath, issues);
      if (seconds === undefined) return undefined;
      if (seconds < 0) reportBelowMin(issues, durationPath, 0);
      else if (seconds > TIMEOUT_SECONDS_MAX) reportAboveMax(issues, durationPath, TIMEOUT_SECONDS_MAX);
      else return { type, duration_seconds: seconds };
      return undefined;
    }
    case AutoModerationActionType.BlockMemberInteraction:
      return { type };
  }
}

function readActions(value: unknown, triggerType: AutoModerationRuleTriggerType, issues: Issues) {
  const list = readList(value, ['actions'], issues);
  if (!list) return undefined;
  if (list.length < 1) reportTooShort(issues, ['actions'], 1);
  else if (list.length > ACTIONS_MAX) reportTooLong(issues, ['actions'], ACTIONS_MAX);
  const actions: RuleAction[] = [];
  list.slice(0, ACTIONS_MAX).forEach((item, index) => {
    const action = readAction(item, ['actions', index], triggerType, issues);
    if (action) actions.push(action);
  });
  return actions;
}

function readName(value: unknown, issues: Issues): string | undefined {
  const name = readString(value, ['name'], issues);
  if (name !== undefined && (name.trim().length === 0 || name.length > RULE_NAME_MAX)) {
    reportBadLength(issues, ['name'], 1, RULE_NAME_MAX);
    return undefined;
  }
  return name;
}

function readFields(record: JsonRecord, triggerType: AutoModerationRuleTriggerType, issues: Issues): RuleFields {
  const fields: RuleFields = { trigger_type: triggerType };
  const field = (key: string) => fieldOf(record, key);
  if (!isAbsent(field('name'))) {
    const name = readName(field('name'), issues);
    if (name !== undefined) fields.name = name;
  }
  if (!isAbsent(field('event_type'))) {
    const eventType = readChoice(field('event_type'), ['event_type'], EVENT_TYPES, issues);
    if (eventType !== undefined && eventType !== eventTypeOf(triggerType)) {
      reportNotOneOf(issues, ['event_type'], [eventTypeOf(triggerType)]);
    } else if (eventType !== undefined) fields.event_type = eventType;
  }
  if (field('trigger_metadata') !== undefined) {
    const metadata = readTriggerMetadata(field('trigger_metadata'), triggerType, issues);
    if (metadata) fields.trigger_metadata = metadata;
  }
  if (!isAbsent(field('actions'))) {
    const actions = readActions(field('actions'), triggerType, issues);
    if (actions) fields.actions = actions;
  }
  if (!isAbsent(field('enabled'))) {
    const enabled = readBoolean(field('enabled'), ['enabled'], issues);
    if (enabled !== undefined) fields.enabled = enabled;
  }
  if (field('exempt_roles') !== undefined) {
    fields.exempt_roles = readBoundedList(
      field('exempt_roles'),
      ['exempt_roles'],
      EXEMPT_ROLES_MAX,
      issues,
      (item, path) => readSnowflake(item, path, issues),
      true,
    );
  }
  if (field('exempt_channels') !== undefined) {
    fields.exempt_channels = readBoundedList(
      field('exempt_channels'),
      ['exempt_channels'],
      EXEMPT_CHANNELS_MAX,
      issues,
      (item, path) => readSnowflake(item, path, issues),
      true,
    );
  }
  return fields;
}

/** `POST .../auto-moderation/rules`: name, event_type, trigger_type and actions are required. */
export function readCreateBody(
  body: unknown,
): Result<RuleFields & Required<Pick<RuleFields, 'name' | 'event_type' | 'actions'>>> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  if (!record) return fail(issues);
  const triggerValue = fieldOf(record, 'trigger_type');
  if (isAbsent(triggerValue)) reportRequired(issues, ['trigger_type']);
  const triggerType = isAbsent(triggerValue)
    ? undefined
    : readChoice(triggerValue, ['trigger_type'], TRIGGER_TYPES, issues);
  for (const key of ['name', 'event_type', 'actions'] as const) {
    if (isAbsent(fieldOf(record, key))) reportRequired(issues, [key]);
  }
  if (triggerType === undefined) return fail(issues);
  const fields = readFields(record, triggerType, issues);
  if (fields.trigger_metadata === undefined && triggerType === AutoModerationRuleTriggerType.MemberProfile) {
    reportRequired(issues, ['trigger_metadata']);
  }
  if (issues.length > 0 || fields.name === undefined || fields.event_type === undefined || !fields.actions) {
    return fail(issues);
  }
  return ok({ ...fields, name: fields.name, event_type: fields.event_type, actions: fields.actions });
}

/** `PATCH .../rules/{id}`: any field but the trigger type, which stays the rule's. */
export function readEditBody(body: unknown, triggerType: AutoModerationRuleTriggerType): Result<RuleFields> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  if (!record) return fail(issues);
  const given = fieldOf(record, 'trigger_type');
  if (!isAbsent(given) && given !== triggerType) {
    report(
      issues,
      ['trigger_type'],
      AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE,
      'A rule’s trigger type cannot be changed.',
    );
  }
  if (fieldOf(record, 'name') === null) reportRequired(issues, ['name']);
  const fields = readFields(record, triggerType, issues);
  return issues.length > 0 ? fail(issues) : ok(fields);
}
