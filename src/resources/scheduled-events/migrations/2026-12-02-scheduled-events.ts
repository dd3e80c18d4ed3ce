/**
 * Guild scheduled events and the users interested in them. An event's cover image is kept in its
 * row (bounded by EVENT_IMAGE_BYTES_MAX), read only by the image route. `next_transition_at` is
 * when the clock next changes the event's status (null: never), so the due events of a guild are
 * found by index. The users of an event go with it.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const scheduledEventsTables: DatedMigration = {
  name: '2026-12-02-scheduled-events',
  sqlite: `
    CREATE TABLE guild_scheduled_events (
      id TEXT NOT NULL PRIMARY KEY,
      guild_id TEXT NOT NULL,
      channel_id TEXT,
      creator_id TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT,
      scheduled_start_time INTEGER NOT NULL,
      scheduled_end_time INTEGER,
      privacy_level INTEGER NOT NULL,
      status INTEGER NOT NULL,
      entity_type INTEGER NOT NULL,
      location TEXT,
      recurrence_rule TEXT,
      image TEXT,
      image_type TEXT,
      image_bytes BLOB,
      next_transition_at INTEGER
    );
    CREATE INDEX guild_scheduled_events_guild ON guild_scheduled_events (guild_id, id);
    CREATE TABLE guild_scheduled_event_users (
      event_id TEXT NOT NULL,
      guild_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      PRIMARY KEY (event_id, user_id)
    );
  `,
  postgres: `
    CREATE TABLE guild_scheduled_events (
      id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
      guild_id TEXT COLLATE "C" NOT NULL,
      channel_id TEXT COLLATE "C",
      creator_id TEXT COLLATE "C" NOT NULL,
      name TEXT NOT NULL,
      description TEXT,
      scheduled_start_time BIGINT NOT NULL,
      scheduled_end_time BIGINT,
      privacy_level INTEGER NOT NULL,
      status INTEGER NOT NULL,
      entity_type INTEGER NOT NULL,
      location TEXT,
      recurrence_rule TEXT,
      image TEXT,
      image_type TEXT,
      image_bytes BYTEA,
      next_transition_at BIGINT
    );
    CREATE INDEX guild_scheduled_events_guild ON guild_scheduled_events (guild_id, id);
    CREATE TABLE guild_scheduled_event_users (
      event_id TEXT COLLATE "C" NOT NULL,
      guild_id TEXT COLLATE "C" NOT NULL,
      user_id TEXT COLLATE "C" NOT NULL,
      PRIMARY KEY (event_id, user_id)
    );
  `,
};
