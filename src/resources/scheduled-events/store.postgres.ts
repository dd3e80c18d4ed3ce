/** The PostgreSQL ScheduledEventStore: guild_scheduled_events and guild_scheduled_event_users. */
import type { PostgresConnection } from '../../store/postgres/connection.js';
import type { ScheduledEvent } from './rules/event.js';
import { EVENT_COLUMNS, OPEN_STATUSES, eventOfRow, eventValues, type EventRow } from './rows.js';
import type { EventUsersPage, ScheduledEventStore, StoredImage } from './store.js';

const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** `column = $n, ...` for every column but the keys, from $1; then next_transition_at. */
const UPDATE_COLUMNS = [...EVENT_COLUMNS.split(', ').slice(2), 'next_transition_at']
  .map((column, i) => `${column} = $${i + 1}`)
  .join(', ');
const UPDATED_COUNT = EVENT_COLUMNS.split(', ').length - 1;

/** Snowflakes order as numbers: by length, then by text (ids are COLLATE "C"). */
const BY_ID = (column: string, direction = '') => `length(${column}) ${direction}, ${column} ${direction}`;

export class PostgresScheduledEventStore implements ScheduledEventStore {
  constructor(private readonly conn: PostgresConnection) {}

  async createScheduledEvent(event: ScheduledEvent, image: StoredImage | null, maxOpen: number) {
    return this.conn.transaction(async (client) => {
      // One create per guild at a time, so that two racing creates cannot both take the last place.
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd scheduled events/' || $1, 0))", [
        event.guild_id,
      ]);
      const count = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM guild_scheduled_events WHERE guild_id = $1 AND status IN (${OPEN_STATUSES.join(', ')})`,
        [event.guild_id],
      );
      if (Number(count.rows[0]?.n ?? 0) >= maxOpen) return 'full' as const;
      await client.query(
        `INSERT INTO guild_scheduled_events (${EVENT_COLUMNS}, next_transition_at, image_type, image_bytes)
         VALUES (${placeholders(1, 17)})`,
        [...eventValues(event), image?.contentType ?? null, image?.bytes ?? null],
      );
      return 'created' as const;
    });
  }

  async getScheduledEvent(guildId: string, eventId: string): Promise<ScheduledEvent | null> {
    const result = await this.conn.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM guild_scheduled_events WHERE guild_id = $1 AND id = $2`,
      [guildId, eventId],
    );
    return result.rows[0] ? eventOfRow(result.rows[0]) : null;
  }

  async listScheduledEvents(guildId: string): Promise<ScheduledEvent[]> {
    const result = await this.conn.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM guild_scheduled_events WHERE guild_id = $1 ORDER BY ${BY_ID('id')}`,
      [guildId],
    );
    return result.rows.map(eventOfRow);
  }

  async updateScheduledEvent(event: ScheduledEvent, expectedStatus: number, image: StoredImage | null | undefined) {
    const values = eventValues(event).slice(2);
    let next = UPDATED_COUNT + 1;
    const imageSet = image === undefined ? '' : `, image_type = $${next++}, image_bytes = $${next++}`;
    const imageValues = image === undefined ? [] : [image?.contentType ?? null, image?.bytes ?? null];
    const result = await this.conn.pool.query(
      `UPDATE guild_scheduled_events SET ${UPDATE_COLUMNS}${imageSet}
       WHERE guild_id = $${next} AND id = $${next + 1} AND status = $${next + 2}`,
      [...values, ...imageValues, event.guild_id, event.id, expectedStatus],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async deleteScheduledEvent(guildId: string, eventId: string): Promise<boolean> {
    return this.conn.transaction(async (client) => {
      await client.query('DELETE FROM guild_scheduled_event_users WHERE guild_id = $1 AND event_id = $2', [
        guildId,
        eventId,
      ]);
      const deleted = await client.query('DELETE FROM guild_scheduled_events WHERE guild_id = $1 AND id = $2', [
        guildId,
        eventId,
      ]);
      return (deleted.rowCount ?? 0) > 0;
    });
  }

  async dueScheduledEvents(guildId: string, now: number): Promise<ScheduledEvent[]> {
    const result = await this.conn.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM guild_scheduled_events
       WHERE guild_id = $1 AND next_transition_at IS NOT NULL AND next_transition_at <= $2 ORDER BY ${BY_ID('id')}`,
      [guildId, now],
    );
    return result.rows.map(eventOfRow);
  }

  async getScheduledEventImage(eventId: string, hash: string): Promise<StoredImage | null> {
    const result = await this.conn.pool.query<{ image_type: string; image_bytes: Buffer }>(
      `SELECT image_type, image_bytes FROM guild_scheduled_events
       WHERE id = $1 AND image = $2 AND image_bytes IS NOT NULL`,
      [eventId, hash],
    );
    const row = result.rows[0];
    return row ? { contentType: row.image_type, bytes: row.image_bytes } : null;
  }

  async addScheduledEventUser(guildId: string, eventId: string, userId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'INSERT INTO guild_scheduled_event_users (event_id, guild_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [eventId, guildId, userId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async removeScheduledEventUser(guildId: string, eventId: string, userId: string): Promise<boolean> {
    const result = await this.conn.pool.query(
      'DELETE FROM guild_scheduled_event_users WHERE guild_id = $1 AND event_id = $2 AND user_id = $3',
      [guildId, eventId, userId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async listScheduledEventUsers(guildId: string, eventId: string, page: EventUsersPage): Promise<string[]> {
    if (page.before) {
      const result = await this.conn.pool.query<{ user_id: string }>(
        `SELECT user_id FROM guild_scheduled_event_users WHERE guild_id = $1 AND event_id = $2
         AND (length(user_id) < length($3) OR (length(user_id) = length($3) AND user_id < $3))
         ORDER BY ${BY_ID('user_id', 'DESC')} LIMIT $4`,
        [guildId, eventId, page.before, page.limit],
      );
      return result.rows.map((row) => row.user_id).reverse();
    }
    const after = page.after ?? '0';
    const result = await this.conn.pool.query<{ user_id: string }>(
      `SELECT user_id FROM guild_scheduled_event_users WHERE guild_id = $1 AND event_id = $2
       AND (length(user_id) > length($3) OR (length(user_id) = length($3) AND user_id > $3))
       ORDER BY ${BY_ID('user_id')} LIMIT $4`,
      [guildId, eventId, after, page.limit],
    );
    return result.rows.map((row) => row.user_id);
  }

  async countScheduledEventUsers(guildId: string, eventIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map(eventIds.map((id) => [id, 0]));
    if (eventIds.length === 0) return counts;
    const result = await this.conn.pool.query<{ event_id: string; n: string }>(
      `SELECT event_id, count(*) AS n FROM guild_scheduled_event_users
       WHERE guild_id = $1 AND event_id = ANY($2::text[]) GROUP BY event_id`,
      [guildId, [...eventIds]],
    );
    for (const row of result.rows) counts.set(row.event_id, Number(row.n));
    return counts;
  }
}
