/** The SQLite ScheduledEventStore: guild_scheduled_events and guild_scheduled_event_users. */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import type { ScheduledEvent } from './rules/event.js';
import { EVENT_COLUMNS, OPEN_STATUSES, eventOfRow, eventValues, type EventRow } from './rows.js';
import type { EventUsersPage, ScheduledEventStore, StoredImage } from './store.js';

const UPDATE_COLUMNS = EVENT_COLUMNS.split(', ')
  .slice(2)
  .map((column) => `${column} = ?`)
  .join(', ');

export class SqliteScheduledEventStore implements ScheduledEventStore {
  constructor(private readonly conn: SqliteConnection) {}

  async createScheduledEvent(event: ScheduledEvent, image: StoredImage | null, maxOpen: number) {
    return this.conn.transaction(() => {
      const { n } = this.conn
        .sql(
          `SELECT count(*) AS n FROM guild_scheduled_events WHERE guild_id = ? AND status IN (${OPEN_STATUSES.join(', ')})`,
        )
        .get(event.guild_id) as { n: number };
      if (n >= maxOpen) return 'full' as const;
      this.conn
        .sql(
          `INSERT INTO guild_scheduled_events (${EVENT_COLUMNS}, next_transition_at, image_type, image_bytes)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...eventValues(event), image?.contentType ?? null, image?.bytes ?? null);
      return 'created' as const;
    });
  }

  async getScheduledEvent(guildId: string, eventId: string): Promise<ScheduledEvent | null> {
    const row = this.conn
      .sql(`SELECT ${EVENT_COLUMNS} FROM guild_scheduled_events WHERE guild_id = ? AND id = ?`)
      .get(guildId, eventId) as EventRow | undefined;
    return row ? eventOfRow(row) : null;
  }

  async listScheduledEvents(guildId: string): Promise<ScheduledEvent[]> {
    const rows = this.conn
      .sql(`SELECT ${EVENT_COLUMNS} FROM guild_scheduled_events WHERE guild_id = ? ORDER BY length(id), id`)
      .all(guildId) as EventRow[];
    return rows.map(eventOfRow);
  }

  async updateScheduledEvent(event: ScheduledEvent, expectedStatus: number, image: StoredImage | null | undefined) {
    const values = eventValues(event).slice(2);
    const imageSet = image === undefined ? '' : ', image_type = ?, image_bytes = ?';
    const imageValues = image === undefined ? [] : [image?.contentType ?? null, image?.bytes ?? null];
    const result = this.conn
      .sql(
        `UPDATE guild_scheduled_events SET ${UPDATE_COLUMNS}, next_transition_at = ?${imageSet}
         WHERE guild_id = ? AND id = ? AND status = ?`,
      )
      .run(...values, ...imageValues, event.guild_id, event.id, expectedStatus);
    return result.changes > 0;
  }

  async deleteScheduledEvent(guildId: string, eventId: string): Promise<boolean> {
    return this.conn.transaction(() => {
      this.conn
        .sql('DELETE FROM guild_scheduled_event_users WHERE guild_id = ? AND event_id = ?')
        .run(guildId, eventId);
      return (
        this.conn.sql('DELETE FROM guild_scheduled_events WHERE guild_id = ? AND id = ?').run(guildId, eventId)
          .changes > 0
      );
    });
  }

  async dueScheduledEvents(guildId: string, now: number): Promise<ScheduledEvent[]> {
    const rows = this.conn
      .sql(
        `SELECT ${EVENT_COLUMNS} FROM guild_scheduled_events
         WHERE guild_id = ? AND next_transition_at IS NOT NULL AND next_transition_at <= ? ORDER BY length(id), id`,
      )
      .all(guildId, now) as EventRow[];
    return rows.map(eventOfRow);
  }

  async getScheduledEventImage(eventId: string, hash: string): Promise<StoredImage | null> {
    const row = this.conn
      .sql(
        'SELECT image_type, image_bytes FROM guild_scheduled_events WHERE id = ? AND image = ? AND image_bytes IS NOT NULL',
      )
      .get(eventId, hash) as { image_type: string; image_bytes: Buffer } | undefined;
    return row ? { contentType: row.image_type, bytes: row.image_bytes } : null;
  }

  async addScheduledEventUser(guildId: string, eventId: string, userId: string): Promise<boolean> {
    return (
      this.conn
        .sql(
          'INSERT INTO guild_scheduled_event_users (event_id, guild_id, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        )
        .run(eventId, guildId, userId).changes > 0
    );
  }

  async removeScheduledEventUser(guildId: string, eventId: string, userId: string): Promise<boolean> {
    return (
      this.conn
        .sql('DELETE FROM guild_scheduled_event_users WHERE guild_id = ? AND event_id = ? AND user_id = ?')
        .run(guildId, eventId, userId).changes > 0
    );
  }

  async listScheduledEventUsers(guildId: string, eventId: string, page: EventUsersPage): Promise<string[]> {
    // Snowflakes order as numbers: by length, then by text.
    const rows = page.before
      ? this.conn
          .sql(
            `SELECT user_id FROM guild_scheduled_event_users WHERE guild_id = ? AND event_id = ?
             AND (length(user_id) < length(?) OR (length(user_id) = length(?) AND user_id < ?))
             ORDER BY length(user_id) DESC, user_id DESC LIMIT ?`,
          )
          .pluck()
          .all(guildId, eventId, page.before, page.before, page.before, page.limit)
          .reverse()
      : this.conn
          .sql(
            `SELECT user_id FROM guild_scheduled_event_users WHERE guild_id = ? AND event_id = ?
             AND (length(user_id) > length(?) OR (length(user_id) = length(?) AND user_id > ?))
             ORDER BY length(user_id), user_id LIMIT ?`,
          )
          .pluck()
          .all(guildId, eventId, page.after ?? '0', page.after ?? '0', page.after ?? '0', page.limit);
    return rows as string[];
  }

  async countScheduledEventUsers(guildId: string, eventIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map(eventIds.map((id) => [id, 0]));
    if (eventIds.length === 0) return counts;
    const rows = this.conn
      .sql(
        `SELECT event_id, count(*) AS n FROM guild_scheduled_event_users
         WHERE guild_id = ? AND event_id IN (${eventIds.map(() => '?').join(', ')}) GROUP BY event_id`,
      )
      .all(guildId, ...eventIds) as { event_id: string; n: number }[];
    for (const row of rows) counts.set(row.event_id, row.n);
    return counts;
  }
}
