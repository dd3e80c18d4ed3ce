/**
 * Guilds' auto moderation (docs/v10-behaviour.md#auto-moderation): bots (and users) with
 * MANAGE_GUILD list, create, edit and delete a guild's rules; each change is told to the guild's
 * bots with MANAGE_GUILD (AUTO_MODERATION_RULE_CREATE / UPDATE / DELETE) and written to the audit
 * log (140-142). A user's message (sent or edited) is screened before it is stored: every enabled
 * rule it sets off acts (block: the message is refused with 200000; alert: a type 24 system
 * message in the alert channel; timeout: the member's communication_disabled_until), each action
 * told as AUTO_MODERATION_ACTION_EXECUTION and logged (143-145).
 */
import { AuditLogEvent, AutoModerationActionType, ChannelType, PermissionFlagsBits } from 'discord-api-types/v10';
import { AUTO_MODERATION_INVALID_CHANNEL, AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED } from '../../core/io/codes.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { issue, type Issue } from '../../core/io/issue.js';
import { hasAll } from '../../core/permissions/bits.js';
import { refuse } from '../../core/refusals.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import { memberOf } from '../../core/world/member-index.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { viewerGuildPermissions, viewerId, type Viewer } from '../../core/world/viewer.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { InteractionStore } from '../../store/store.js';
import type { AuditLog } from '../audit-log/service.js';
import type { MembersService } from '../members/service.js';
import { visibleGuild, type WorldReadStore } from '../world/reads.js';
import { readCreateBody, readEditBody, type RuleFields } from './rules/body.js';
import {
  alertMessage,
  blockOf,
  executionAudit,
  executionDispatch,
  ruleApplies,
  ruleDispatch,
  type ExecutionPlace,
  type RuleChange,
  type Triggered,
} from './rules/execution.js';
import { ruleMatch } from './rules/matching.js';
import { messagePatternRunner, type TimedPatternRunner } from './pattern-runner.js';
import {
  eventTypeOf,
  rulesOfTypeMax,
  toWireRule,
  emptyTriggerMetadata,
  type StoredRule,
  type WireRule,
} from './rules/rule.js';
import type { AutoModerationStore } from './store.js';

export interface AutoModerationDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  rules: AutoModerationStore;
  messages: Pick<InteractionStore, 'putMessage'>;
  memberEdits: Pick<MembersService, 'timeoutByRule'>;
  auditLog: AuditLog;
  events: WorldEvents;
  runPattern: TimedPatternRunner;
  ids: Pick<SnowflakeGenerator, 'next'>;
  now: () => number;
}

/** Channel types an alert may be posted in: text and announcement channels. */
const ALERT_CHANNEL_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/** What a screened message set off; `done` runs the actions of a message that was posted. */
export interface Screening {
  done(messageId: string): Promise<void>;
}

const NOTHING_SET_OFF: Screening = { done: async () => undefined };

export class AutoModerationService {
  constructor(private readonly deps: AutoModerationDeps) {}

  /** `GET /guilds/{g}/auto-moderation/rules`. */
  async list(viewer: Viewer, guildId: string): Promise<WireRule[]> {
    const guild = await this.managedGuild(viewer, guildId);
    return (await this.deps.rules.listRules(guild.id)).map(toWireRule);
  }

  /** `GET .../rules/{id}`. */
  async get(viewer: Viewer, guildId: string, ruleId: string): Promise<WireRule> {
    const guild = await this.managedGuild(viewer, guildId);
    return toWireRule(await this.find(guild.id, ruleId));
  }

  /** `POST .../rules`: at most 6 keyword rules and 1 of each other type per guild. */
  async create(viewer: Viewer, guildId: string, body: unknown, reason: string | null): Promise<WireRule> {
    const read = readCreateBody(body);
    if (!read.ok) throw invalidFormBody(read.issues);
    const guild = await this.managedGuild(viewer, guildId);
    const fields = read.value;
    const rule: StoredRule = {
      id: this.deps.ids.next(),
      guild_id: guild.id,
      creator_id: viewerId(viewer),
      name: fields.name,
      event_type: eventTypeOf(fields.trigger_type),
      trigger_type: fields.trigger_type,
      trigger_metadata: fields.trigger_metadata ?? emptyTriggerMetadata(),
      actions: fields.actions,
      enabled: fields.enabled ?? false,
      exempt_roles: fields.exempt_roles ?? [],
      exempt_channels: fields.exempt_channels ?? [],
    };
    this.checkInGuild(guild, viewer, rule);
    const max = rulesOfTypeMax(rule.trigger_type);
    if ((await this.deps.rules.createRule(rule, max)) === 'full') {
      throw invalidFormBody([
        issue(
          ['trigger_type'],
          AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED,
          `Maximum number of rules of this trigger type reached (${max}).`,
        ),
      ]);
    }
    await this.told('AUTO_MODERATION_RULE_CREATE', rule, viewer, AuditLogEvent.AutoModerationRuleCreate, reason);
    return toWireRule(rule);
  }

  /** `PATCH .../rules/{id}`: any field but the trigger type. */
  async edit(viewer: Viewer, guildId: string, ruleId: string, body: unknown, reason: string | null): Promise<WireRule> {
    const guild = await this.managedGuild(viewer, guildId);
    const rule = await this.find(guild.id, ruleId);
    const read = readEditBody(body, rule.trigger_type);
    if (!read.ok) throw invalidFormBody(read.issues);
    const edited = editedRule(rule, read.value);
    this.checkInGuild(guild, viewer, edited);
    if (!(await this.deps.rules.updateRule(edited))) throw apiError('UnknownAutoModerationRule');
    await this.told('AUTO_MODERATION_RULE_UPDATE', edited, viewer, AuditLogEvent.AutoModerationRuleUpdate, reason);
    return toWireRule(edited);
  }

  /** `DELETE .../rules/{id}`. */
  async delete(viewer: Viewer, guildId: string, ruleId: string, reason: string | null): Promise<void> {
    const guild = await this.managedGuild(viewer, guildId);
    const rule = await this.find(guild.id, ruleId);
    if (!(await this.deps.rules.deleteRule(guild.id, rule.id))) throw apiError('UnknownAutoModerationRule');
    await this.told('AUTO_MODERATION_RULE_DELETE', rule, viewer, AuditLogEvent.AutoModerationRuleDelete, reason);
  }

  /**
   * Screens a user's message before it is stored (a send, or an edit's new content). When a rule
   * set off blocks it, every action of the rules set off runs now and the message is refused
   * (200000, with the rule's custom message); else the caller stores it and calls `done` with its
   * id, which runs the actions (an alert names the message).
   */
  async screen(guild: Guild, channel: Channel, userId: string, content: string): Promise<Screening> {
    const member = memberOf(guild, userId);
    if (!member || content === '') return NOTHING_SET_OFF;
    const triggered: Triggered[] = [];
    const runPattern = messagePatternRunner(this.deps.runPattern, () => performance.now());
    for (const rule of await this.deps.rules.listRules(guild.id)) {
      if (!ruleApplies(rule, guild, member, channel)) continue;
      const match = ruleMatch(rule, content, runPattern);
      if (match) triggered.push({ rule, match });
    }
    if (triggered.length === 0) return NOTHING_SET_OFF;
    const place = (messageId: string | null): ExecutionPlace => ({
      guildId: guild.id,
      channelId: channel.id,
      userId,
      content,
      messageId,
    });
    const block = blockOf(triggered);
    if (block) {
      await this.execute(place(null), triggered);
      throw apiError(
        'MessageBlockedByAutoModeration',
        block.customMessage === null ? {} : { extra: { custom_message: block.customMessage } },
      );
    }
    return { done: (messageId) => this.execute(place(messageId), triggered) };
  }

  /** Every action of the rules set off, in order: each told to the bots and logged. */
  private async execute(place: ExecutionPlace, triggered: readonly Triggered[]): Promise<void> {
    for (const one of triggered) {
      const timeout = one.rule.actions.find((a) => a.type === AutoModerationActionType.Timeout);
      for (const action of one.rule.actions) {
        let alertId: string | null = null;
        if (action.type === AutoModerationActionType.SendAlertMessage) {
          alertId = this.deps.ids.next();
          const seconds = timeout?.type === AutoModerationActionType.Timeout ? timeout.duration_seconds : null;
          const message = alertMessage(alertId, action.channel_id, place, one, seconds, this.deps.now());
          await this.deps.messages.putMessage(message);
          await this.deps.events.messageCreated(message);
        }
        const entry = executionAudit(place, one, action);
        if (action.type === AutoModerationActionType.Timeout && entry) {
          const until = new Date(this.deps.now() + action.duration_seconds * 1000).toISOString();
          await this.deps.memberEdits.timeoutByRule(place.guildId, place.userId, until, entry);
        } else if (entry) {
          await this.deps.auditLog.record(entry);
        }
        this.deps.events.publishAll([executionDispatch(place, one, action, alertId)]);
      }
    }
  }

  /** The guild, if the viewer is in it (10004, 50001) and may manage it (MANAGE_GUILD, else 50013). */
  private async managedGuild(viewer: Viewer, guildId: string): Promise<Guild> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    if (!hasAll(viewerGuildPermissions(guild, viewer), PermissionFlagsBits.ManageGuild)) refuse('missing-permission');
    return guild;
  }

  private async find(guildId: string, ruleId: string): Promise<StoredRule> {
    const rule = isSnowflake(ruleId) ? await this.deps.rules.getRule(guildId, ruleId) : null;
    if (!rule) throw apiError('UnknownAutoModerationRule');
    return rule;
  }

  /** What the guild decides of a rule: an alert's channel is a text channel of the guild; a timeout needs MODERATE_MEMBERS. */
  private checkInGuild(guild: Guild, viewer: Viewer, rule: StoredRule): void {
    const issues: Issue[] = [];
    rule.actions.forEach((action, index) => {
      if (action.type !== AutoModerationActionType.SendAlertMessage) return;
      const channel = guild.channels.find((c) => c.id === action.channel_id);
      if (!channel || !ALERT_CHANNEL_TYPES.has(channel.type)) {
        issues.push(
          issue(
            ['actions', index, 'metadata', 'channel_id'],
            AUTO_MODERATION_INVALID_CHANNEL,
            'The alert channel must be a text channel of this guild.',
          ),
        );
      }
    });
    if (issues.length > 0) throw invalidFormBody(issues);
    const timesOut = rule.actions.some((a) => a.type === AutoModerationActionType.Timeout);
    if (timesOut && !hasAll(viewerGuildPermissions(guild, viewer), PermissionFlagsBits.ModerateMembers)) {
      refuse('missing-permission');
    }
  }

  private async told(t: RuleChange, rule: StoredRule, viewer: Viewer, action: AuditLogEvent, reason: string | null) {
    this.deps.events.publishAll([ruleDispatch(t, rule)]);
    await this.deps.auditLog.record({
      guild_id: rule.guild_id,
      user_id: viewerId(viewer),
      target_id: rule.id,
      action_type: action,
      reason,
    });
  }
}

/** The rule with an edit's fields (its trigger type kept). */
function editedRule(rule: StoredRule, fields: RuleFields): StoredRule {
  return {
    ...rule,
    ...(fields.name !== undefined ? { name: fields.name } : {}),
    ...(fields.trigger_metadata !== undefined ? { trigger_metadata: fields.trigger_metadata } : {}),
    ...(fields.actions !== undefined ? { actions: fields.actions } : {}),
    ...(fields.enabled !== undefined ? { enabled: fields.enabled } : {}),
    ...(fields.exempt_roles !== undefined ? { exempt_roles: fields.exempt_roles } : {}),
    ...(fields.exempt_channels !== undefined ? { exempt_channels: fields.exempt_channels } : {}),
  };
}
