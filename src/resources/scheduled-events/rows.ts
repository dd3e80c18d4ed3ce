/**
 * A scheduled event's row and back, for both dialects: a row no reader can turn into an event (a
 * recurrence rule that is not JSON) still reads, without the rule, so no stored row makes a read fail.
 */
import { nextTransitionAt, type ScheduledEvent } from './rules/event.js';
import type { RecurrenceRule } from './rules/recurrence.js';

export interface EventRow {
  id: string;
  guild_id: string;
  channel_id: string | null;
  creator_id: string;
  name: string;
  description: string | null;
  scheduled_start_time: number | string;
  scheduled_end_time: number | string | null;
  privacy_level: number;
  status: number;
  entity_type: number;
  location: string | null;
  recurrence_rule: string | null;
  image: string | null;
}

/** The columns an event is read from (never the image's bytes). */
export const EVENT_COLUMNS =
  'id, guild_id, channel_id, creator_id, name, description, scheduled_start_time, scheduled_end_time, privacy_level, status, entity_type, location, recurrence_rule, image';

function parseRule(text: string | null): RecurrenceRule | null {
  if (text === null) return null;
  try {
    const rule = JSON.parse(text) as RecurrenceRule | null;
    return rule && typeof rule === 'object' && typeof rule.start === 'number' ? rule : null;
  } catch {
    return null;
  }
}

export function eventOfRow(row: EventRow): ScheduledEvent {
  return {
    ...row,
    scheduled_start_time: Number(row.scheduled_start_time),
    scheduled_end_time: row.scheduled_end_time === null ? null : Number(row.scheduled_end_time),
    recurrence_rule: parseRule(row.recurrence_rule),
  };
}

/** The values of an event's columns, in EVENT_COLUMNS order, then `next_transition_at`. */
export function eventValues(event: ScheduledEvent): unknown[] {
  return [
    event.id,
    event.guild_id,
    event.channel_id,
    event.creator_id,
    event.name,
    event.description,
    event.scheduled_start_time,
    event.scheduled_end_time,
    event.privacy_level,
    event.status,
    event.entity_type,
    event.location,
    event.recurrence_rule === null ? null : JSON.stringify(event.recurrence_rule),
    event.image,
    nextTransitionAt(event),
  ];
}

/** The statuses of an event that has not ended (scheduled, active). */
export const OPEN_STATUSES = [1, 2] as const;
