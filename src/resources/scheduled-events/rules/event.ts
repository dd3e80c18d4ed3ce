/**
 * A guild scheduled event: its stored shape, the checks across its fields (entity type against
 * channel and location, times against the clock), its status transitions (by an edit, and by the
 * clock), who may see and change it, and its v10 object. Pure.
 */
import {
  ChannelType,
  GuildScheduledEventEntityType as EntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus as Status,
  PermissionFlagsBits,
  type APIGuildScheduledEvent,
  type APIUser,
} from 'discord-api-types/v10';
import {
  GUILD_SCHEDULED_EVENT_END_BEFORE_START,
  GUILD_SCHEDULED_EVENT_ENTITY_INVALID,
  GUILD_SCHEDULED_EVENT_SCHEDULE_PAST,
  GUILD_SCHEDULED_EVENT_STATUS_INVALID,
} from '../../../core/io/codes.js';
import { report, reportRequired, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { hasAll, VIEW_CHANNEL } from '../../../core/permissions/bits.js';
import { findChannel } from '../../../core/permissions/channels.js';
import type { Refusal } from '../../../core/refusals.js';
import type { Guild } from '../../../core/world/types.js';
import { viewerChannelPermissions, viewerGuildPermissions, type Viewer } from '../../../core/world/viewer.js';
import type { WirePayload } from '../../../core/wire-payload.js';
import type { EventFields } from './body.js';
import { toWireRecurrenceRule, type RecurrenceRule } from './recurrence.js';

/** The most scheduled events a guild holds that have not ended (v10: 100). */
export const GUILD_SCHEDULED_EVENTS_MAX = 100;

/** A scheduled event as stored; times in epoch ms. */
export interface ScheduledEvent {
  id: string;
  guild_id: string;
  channel_id: string | null;
  /** The user who created it: an app's bot by its application id. */
  creator_id: string;
  name: string;
  description: string | null;
  scheduled_start_time: number;
  scheduled_end_time: number | null;
  privacy_level: GuildScheduledEventPrivacyLevel;
  status: Status;
  entity_type: EntityType;
  location: string | null;
  recurrence_rule: RecurrenceRule | null;
  /** The cover image's hash; its bytes are kept beside the row. */
  image: string | null;
}

/** The channel type each channel-hosted entity type takes. */
const ENTITY_CHANNEL_TYPES: Readonly<Partial<Record<EntityType, ChannelType>>> = {
  [EntityType.StageInstance]: ChannelType.GuildStageVoice,
  [EntityType.Voice]: ChannelType.GuildVoice,
};

/** The status changes an edit may make (v10). */
const EDIT_TRANSITIONS: Readonly<Partial<Record<Status, readonly Status[]>>> = {
  [Status.Scheduled]: [Status.Active, Status.Canceled],
  [Status.Active]: [Status.Completed],
};

/** True once the event is over: v10 refuses every edit of it (180002). */
export function isFinished(event: Pick<ScheduledEvent, 'status'>): boolean {
  return event.status === Status.Completed || event.status === Status.Canceled;
}

function entityIssue(issues: Issues, path: (string | number)[], message: string): void {
  report(issues, path, GUILD_SCHEDULED_EVENT_ENTITY_INVALID, message);
}

/** The fields that hold together for the entity type: an external event's place, a voice event's channel. */
function checkEntity(event: ScheduledEvent, guild: Guild, issues: Issues): void {
  const channelType = ENTITY_CHANNEL_TYPES[event.entity_type];
  if (channelType === undefined) {
    if (event.channel_id !== null) entityIssue(issues, ['channel_id'], 'An external event has no channel.');
    if (event.location === null) reportRequired(issues, ['entity_metadata', 'location']);
    if (event.scheduled_end_time === null) reportRequired(issues, ['scheduled_end_time']);
    return;
  }
  if (event.location !== null) entityIssue(issues, ['entity_metadata'], 'Only an external event has a location.');
  if (event.channel_id === null) {
    reportRequired(issues, ['channel_id']);
    return;
  }
  const channel = findChannel(guild, event.channel_id);
  if (!channel || channel.type !== channelType) {
    entityIssue(
      issues,
      ['channel_id'],
      `Must be a ${channelType === ChannelType.GuildVoice ? 'voice' : 'stage'} channel of the guild.`,
    );
  }
}

/** The times: a start not in the past (when it is set now), an end after the start. */
function checkTimes(event: ScheduledEvent, startSet: boolean, now: number, issues: Issues): void {
  if (startSet && event.scheduled_start_time <= now) {
    report(issues, ['scheduled_start_time'], GUILD_SCHEDULED_EVENT_SCHEDULE_PAST, 'Cannot schedule event in the past.');
  }
  if (event.scheduled_end_time !== null && event.scheduled_end_time <= event.scheduled_start_time) {
    report(
      issues,
      ['scheduled_end_time'],
      GUILD_SCHEDULED_EVENT_END_BEFORE_START,
      'Cannot end an event before it starts.',
    );
  }
}

function applyFields(event: ScheduledEvent, fields: EventFields): ScheduledEvent {
  const next = { ...event };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.description !== undefined) next.description = fields.description;
  if (fields.scheduledStartTime !== undefined) next.scheduled_start_time = fields.scheduledStartTime;
  if (fields.scheduledEndTime !== undefined) next.scheduled_end_time = fields.scheduledEndTime;
  if (fields.privacyLevel !== undefined) next.privacy_level = fields.privacyLevel;
  if (fields.entityType !== undefined) next.entity_type = fields.entityType;
  if (fields.channelId !== undefined) next.channel_id = fields.channelId;
  if (fields.location !== undefined) next.location = fields.location;
  if (fields.recurrenceRule !== undefined) next.recurrence_rule = fields.recurrenceRule;
  if (fields.image !== undefined) next.image = fields.image?.hash ?? null;
  // Moving an event to external drops its channel, to a channel its place (as v10 does).
  if (fields.entityType === EntityType.External && fields.channelId === undefined) next.channel_id = null;
  if (fields.entityType !== undefined && fields.entityType !== EntityType.External && fields.location === undefined) {
    next.location = null;
  }
  return next;
}

/** A new event from a create body, checked against the guild and the clock. */
export function createEvent(
  fields: EventFields,
  ids: { id: string; guildId: string; creatorId: string },
  guild: Guild,
  now: number,
): Result<ScheduledEvent> {
  const blank: ScheduledEvent = {
    id: ids.id,
    guild_id: ids.guildId,
    channel_id: null,
    creator_id: ids.creatorId,
    name: '',
    description: null,
    scheduled_start_time: 0,
    scheduled_end_time: null,
    privacy_level: GuildScheduledEventPrivacyLevel.GuildOnly,
    status: Status.Scheduled,
    entity_type: EntityType.External,
    location: null,
    recurrence_rule: null,
    image: null,
  };
  const event = applyFields(blank, fields);
  const issues: Issues = [];
  checkEntity(event, guild, issues);
  checkTimes(event, true, now, issues);
  return issues.length > 0 ? fail(issues) : ok(event);
}

/** The event after an edit: the fields, then the status change, each checked. */
export function editEvent(
  event: ScheduledEvent,
  fields: EventFields,
  guild: Guild,
  now: number,
): Result<ScheduledEvent> {
  const next = applyFields(event, fields);
  const issues: Issues = [];
  if (fields.status !== undefined && fields.status !== event.status) {
    if (!(EDIT_TRANSITIONS[event.status] ?? []).includes(fields.status)) {
      report(issues, ['status'], GUILD_SCHEDULED_EVENT_STATUS_INVALID, 'Invalid status transition.');
    }
    next.status = fields.status;
  }
  const entityChanged =
    fields.entityType !== undefined || fields.channelId !== undefined || fields.location !== undefined;
  if (entityChanged || fields.scheduledEndTime !== undefined) checkEntity(next, guild, issues);
  // An active event's start is history: only a scheduled one's is moved, and not into the past.
  checkTimes(next, fields.scheduledStartTime !== undefined && event.status === Status.Scheduled, now, issues);
  return issues.length > 0 ? fail(issues) : ok(next);
}

/**
 * The status the clock gives the event at `now` (docs/decisions.md, "Scheduled events"): an
 * external event starts at its start time and completes at its end; any event still scheduled
 * when its end has passed completes; an active one completes at its end.
 */
export function statusAt(event: ScheduledEvent, now: number): Status {
  if (isFinished(event)) return event.status;
  const ended = event.scheduled_end_time !== null && event.scheduled_end_time <= now;
  if (ended) return Status.Completed;
  if (
    event.status === Status.Scheduled &&
    event.entity_type === EntityType.External &&
    event.scheduled_start_time <= now
  ) {
    return Status.Active;
  }
  return event.status;
}

/** When the clock next changes the event's status, or null when it never will. */
export function nextTransitionAt(event: ScheduledEvent): number | null {
  if (isFinished(event)) return null;
  if (event.status === Status.Scheduled && event.entity_type === EntityType.External) return event.scheduled_start_time;
  return event.scheduled_end_time;
}

/** True when the viewer sees the event: a member of its guild who can view its channel, if it has one. */
export function viewerSeesEvent(guild: Guild, viewer: Viewer, event: Pick<ScheduledEvent, 'channel_id'>): boolean {
  if (event.channel_id === null) return true;
  const channel = findChannel(guild, event.channel_id);
  return channel !== undefined && hasAll(viewerChannelPermissions(guild, viewer, channel), VIEW_CHANNEL);
}

/** The permissions an event's channel asks of whoever schedules an event in it (v10). */
function channelPermissionsFor(entityType: EntityType): bigint {
  if (entityType === EntityType.StageInstance) {
    return (
      VIEW_CHANNEL |
      PermissionFlagsBits.ManageChannels |
      PermissionFlagsBits.MuteMembers |
      PermissionFlagsBits.MoveMembers
    );
  }
  return entityType === EntityType.Voice ? VIEW_CHANNEL | PermissionFlagsBits.Connect : 0n;
}

/**
 * Why the viewer may not write the event, or null when it may: CREATE_EVENTS to create (and to
 * change the events it created), MANAGE_EVENTS for anyone's, and the channel's permissions for a
 * voice or stage event, where it is and where it moves.
 */
export function eventWriteRefusal(
  guild: Guild,
  viewer: Viewer,
  event: Pick<ScheduledEvent, 'channel_id' | 'entity_type' | 'creator_id'>,
  actorId: string,
  existing: boolean,
): Refusal | null {
  const base = viewerGuildPermissions(guild, viewer);
  const own = !existing || event.creator_id === actorId;
  const allowed =
    hasAll(base, PermissionFlagsBits.ManageEvents) || (own && hasAll(base, PermissionFlagsBits.CreateEvents));
  if (!allowed) return 'missing-permission';
  const needed = channelPermissionsFor(event.entity_type);
  if (needed !== 0n && event.channel_id !== null) {
    const channel = findChannel(guild, event.channel_id);
    if (channel && !hasAll(viewerChannelPermissions(guild, viewer, channel), needed)) return 'missing-permission';
  }
  return null;
}

/** v10's guild scheduled event object, as slashd sends it. */
export type WireEvent = WirePayload<APIGuildScheduledEvent>;

/** v10's guild scheduled event object; `creator` and `user_count` where the read asked for them. */
export function toWireEvent(
  event: ScheduledEvent,
  extra: { creator?: APIUser | null; userCount?: number } = {},
): WireEvent {
  const wire = {
    id: event.id,
    guild_id: event.guild_id,
    channel_id: event.channel_id,
    creator_id: event.creator_id,
    name: event.name,
    description: event.description,
    scheduled_start_time: new Date(event.scheduled_start_time).toISOString(),
    scheduled_end_time: event.scheduled_end_time === null ? null : new Date(event.scheduled_end_time).toISOString(),
    privacy_level: event.privacy_level,
    status: event.status,
    entity_type: event.entity_type,
    entity_id: null,
    entity_metadata: event.location === null ? null : { location: event.location },
    image: event.image,
    recurrence_rule: event.recurrence_rule ? toWireRecurrenceRule(event.recurrence_rule) : null,
    // Exceptions of a recurring event's occurrences: slashd takes none (docs/decisions.md, "Scheduled events").
    guild_scheduled_event_exceptions: [],
    ...(extra.creator ? { creator: extra.creator } : {}),
    ...(extra.userCount !== undefined ? { user_count: extra.userCount } : {}),
  };
  return wire as WireEvent;
}
