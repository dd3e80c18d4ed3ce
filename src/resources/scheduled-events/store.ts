/**
 * Guild scheduled events and their interested users (docs/v10-behaviour.md#scheduled-events). The
 * rows are the guild's, not an app's: every query is keyed by the guild's id, and every bot of the
 * guild reads the same events (as in v10). Each change of an event is one statement or one
 * transaction; a status change is compare-and-set on the status read, so two nodes settling the
 * same due event write (and announce) it once.
 */
import type { ScheduledEvent } from './rules/event.js';

/** A cover image's bytes, as the image route serves them. */
export interface StoredImage {
  contentType: string;
  bytes: Buffer;
}

/** A page of an event's users: ascending by user id, before or after one. */
export interface EventUsersPage {
  before: string | null;
  after: string | null;
  limit: number;
}

export interface ScheduledEventStore {
  /**
   * Stores a new event unless the guild holds `maxOpen` events that have not ended: one
   * transaction (the count and the write), so two racing creates cannot both take the last place.
   */
  createScheduledEvent(event: ScheduledEvent, image: StoredImage | null, maxOpen: number): Promise<'created' | 'full'>;
  getScheduledEvent(guildId: string, eventId: string): Promise<ScheduledEvent | null>;
  /** Every event of the guild, ascending by id. */
  listScheduledEvents(guildId: string): Promise<ScheduledEvent[]>;
  /**
   * Writes the event's fields if its stored status is still `expectedStatus` (false: it changed
   * meanwhile, or is gone). `image`: undefined keeps the stored one, null removes it.
   */
  updateScheduledEvent(
    event: ScheduledEvent,
    expectedStatus: number,
    image: StoredImage | null | undefined,
  ): Promise<boolean>;
  /** The event and its users; false when there was no such event. */
  deleteScheduledEvent(guildId: string, eventId: string): Promise<boolean>;
  /** The guild's events whose status the clock changes at or before `now`. */
  dueScheduledEvents(guildId: string, now: number): Promise<ScheduledEvent[]>;
  /** The cover image by the event's id and the image's hash, as a CDN path names it (no guild). */
  getScheduledEventImage(eventId: string, hash: string): Promise<StoredImage | null>;
  /** False when the user was interested already. */
  addScheduledEventUser(guildId: string, eventId: string, userId: string): Promise<boolean>;
  /** False when the user was not interested. */
  removeScheduledEventUser(guildId: string, eventId: string, userId: string): Promise<boolean>;
  listScheduledEventUsers(guildId: string, eventId: string, page: EventUsersPage): Promise<string[]>;
  /** How many users each event has, by event id (0 for one with none). */
  countScheduledEventUsers(guildId: string, eventIds: readonly string[]): Promise<Map<string, number>>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    scheduledEvents: ScheduledEventStore;
  }
}
