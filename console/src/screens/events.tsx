/**
 * Events: the guild's scheduled events as its members see them (v10's
 * `GET /guilds/{id}/scheduled-events?with_user_count=true`), each with its name, time, place,
 * status and how many are interested, and an "Interested" toggle for the signed-in user
 * (`PUT`/`DELETE /guilds/{g}/scheduled-events/{e}/users/@me`, the client's routes). Whether the
 * user is interested is read from the event's users: the first one after the user's id minus one.
 */
import { useState } from 'preact/hooks';
import { ApiError, type Api } from '../api';
import { PlaceBar } from '../components/place-bar';
import { useGuild, useRead } from '../hooks';
import type { ScreenProps } from '../screens';
import type { Json } from '../types';
import './events.css';

/** v10's event statuses (GuildScheduledEventStatus) as the client words them. */
const STATUS_LABEL: Record<number, string> = { 1: 'Scheduled', 2: 'Happening now', 3: 'Ended', 4: 'Canceled' };
/** Completed and canceled events take no one new (v10: 180002). */
const FINISHED = new Set([3, 4]);
/** v10's entity types: a stage or voice channel, or a place outside the guild. */
const EXTERNAL = 3;

interface ShownEvent {
  event: Json;
  interested: boolean;
}

/** The one id before `id`: `after` it, the event's users (ascending by id) start at the user if they are there. */
function idBefore(id: string): string {
  return (BigInt(id) - 1n).toString();
}

async function readEvents(api: Api, guildId: string, userId: string): Promise<ShownEvent[]> {
  const events = (await api.get(`/guilds/${guildId}/scheduled-events?with_user_count=true`)) as Json[];
  const shown = await Promise.all(
    events.map(async (event) => {
      const first = (await api.get(
        `/guilds/${guildId}/scheduled-events/${event.id as string}/users?limit=1&after=${idBefore(userId)}`,
      )) as Json[];
      return { event, interested: first[0]?.user?.id === userId };
    }),
  );
  return shown.sort((a, b) => Date.parse(a.event.scheduled_start_time) - Date.parse(b.event.scheduled_start_time));
}

const DAY_AND_TIME: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** "Sat, Dec 5, 7:00 PM – 9:00 PM": the end as a time alone when it is the same day. */
function timeText(start: string, end: string | null): string {
  const from = new Date(start);
  if (!end) return from.toLocaleString(undefined, DAY_AND_TIME);
  const to = new Date(end);
  const sameDay = from.toDateString() === to.toDateString();
  return `${from.toLocaleString(undefined, DAY_AND_TIME)} – ${to.toLocaleString(undefined, sameDay ? TIME : DAY_AND_TIME)}`;
}

function placeText(event: Json, channels: Json[]): string {
  if (event.entity_type === EXTERNAL) return (event.entity_metadata?.location as string | undefined) ?? '';
  const channel = channels.find((c) => c.id === event.channel_id);
  return channel ? `Voice channel: ${channel.name as string}` : 'A voice channel';
}

function refusalText(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}

function EventCard({
  shown,
  channels,
  toggle,
}: {
  shown: ShownEvent;
  channels: Json[];
  toggle: (shown: ShownEvent) => Promise<string | null>;
}) {
  const { event, interested } = shown;
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const status = event.status as number;
  const count = (event.user_count as number | undefined) ?? 0;
  const nameId = `event-${event.id as string}`;
  const press = async () => {
    setBusy(true);
    setRefused(await toggle(shown));
    setBusy(false);
  };
  return (
    <li class={`event-card status-${status}`} aria-labelledby={nameId}>
      <div class="event-when">
        <span class={`event-status status-${status}`}>{STATUS_LABEL[status] ?? `Status ${status}`}</span>
        <time dateTime={event.scheduled_start_time}>
          {timeText(event.scheduled_start_time as string, (event.scheduled_end_time as string | null) ?? null)}
        </time>
      </div>
      <h2 id={nameId} class="event-name">
        {event.name}
      </h2>
      {placeText(event, channels) && <p class="event-where">{placeText(event, channels)}</p>}
      {event.description && <p class="event-description muted">{event.description}</p>}
      <div class="event-foot">
        <span class="event-count">{count === 1 ? '1 interested' : `${count} interested`}</span>
        <button
          type="button"
          class={interested ? 'button primary small' : 'button secondary small'}
          aria-pressed={interested}
          disabled={busy || (FINISHED.has(status) && !interested)}
          onClick={() => void press()}
        >
          <span aria-hidden="true">{interested ? '✓ ' : '☆ '}</span>
          Interested
        </button>
      </div>
      {refused && (
        <p class="form-refusal" role="alert">
          {refused}
        </p>
      )}
    </li>
  );
}

export function EventsScreen({ session, place, setPlace }: ScreenProps) {
  const { api, user } = session;
  const guildId = place?.guildId ?? null;
  const guild = useGuild(api, guildId);
  const channels: Json[] = guild.data?.channels ?? [];
  const events = useRead<ShownEvent[]>(guildId ? () => readEvents(api, guildId, user.id) : null, [api, guildId]);
  const toggle = async ({ event, interested }: ShownEvent): Promise<string | null> => {
    try {
      await api.call(
        interested ? 'DELETE' : 'PUT',
        `/guilds/${event.guild_id as string}/scheduled-events/${event.id as string}/users/@me`,
      );
    } catch (error) {
      return refusalText(error);
    }
    events.reload();
    return null;
  };
  const list = events.data ?? [];
  return (
    <div class="events">
      <PlaceBar api={api} place={place} setPlace={setPlace} channels={channels} privateChannels={[]} guildOnly />
      <div class="events-body">
        <div class="events-head">
          <h1 class="events-title">Events</h1>
          <button type="button" class="button secondary small" onClick={events.reload} disabled={!guildId}>
            Check again
          </button>
        </div>
        {events.error && (
          <p class="form-refusal" role="alert">
            {events.error}
          </p>
        )}
        {!guildId && <p class="muted">Pick a guild to see its events.</p>}
        {guildId && events.data && list.length === 0 && <p class="muted">No events in this guild.</p>}
        {list.length > 0 && (
          <ul class="event-list" aria-label="Events">
            {list.map((shown) => (
              <EventCard key={shown.event.id} shown={shown} channels={channels} toggle={toggle} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
