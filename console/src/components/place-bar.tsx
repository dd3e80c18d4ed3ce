/**
 * Where the user is: a guild of theirs and a channel of it they may view (v10's guild list, the
 * console's channel list), or one of their DMs with a bot (v10's `GET /users/@me/channels`).
 */
import { useEffect } from 'preact/hooks';
import type { Api } from '../api';
import { useRead } from '../hooks';
import type { SetPlace } from '../screens';
import type { Json, Place } from '../types';

/** Channel types a user reads messages in: text, announcement, and threads. */
const MESSAGE_CHANNEL_TYPES = new Set([0, 5, 10, 11, 12]);

export function PlaceBar({
  api,
  place,
  setPlace,
  channels,
}: {
  api: Api;
  place: Place | null;
  setPlace: SetPlace;
  channels: Json[];
}) {
  const guilds = useRead<Json[]>(async () => (await api.get('/users/@me/guilds')) as Json[], [api]);
  const dms = useRead<Json[]>(async () => (await api.get('/users/@me/channels')) as Json[], [api]);
  const readable = channels.filter((c) => MESSAGE_CHANNEL_TYPES.has(c.type as number));
  const guildId = place?.guildId ?? '';
  // The first guild, then its first readable channel, until the user picks. The defaults are
  // applied to the place as it is when they land, never to the one this render saw: a pick made
  // between the render and the effect stays.
  useEffect(() => {
    const first = guilds.data?.[0];
    if (first) setPlace((current) => current ?? { guildId: first.id as string, channelId: '' });
  }, [guilds.data, place]);
  useEffect(() => {
    setPlace((current) => {
      // The channels of the guild picked: those of the one before may still be shown while its own load.
      const first = readable.find((c) => c.guild_id === current?.guildId);
      return current && !current.channelId && first
        ? { guildId: current.guildId, channelId: first.id as string }
        : current;
    });
  }, [readable.length, place]);
  return (
    <div class="place-bar">
      <label>
        <span class="label">Guild</span>
        <select value={guildId} onChange={(e) => setPlace({ guildId: e.currentTarget.value, channelId: '' })}>
          {(guilds.data ?? []).map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span class="label">Channel</span>
        <select
          value={place?.channelId ?? ''}
          onChange={(e) => place && setPlace({ guildId: place.guildId, channelId: e.currentTarget.value })}
        >
          {readable.map((c) => (
            <option key={c.id} value={c.id}>
              #{c.name}
            </option>
          ))}
          {(dms.data ?? []).length > 0 && (
            <optgroup label="Direct messages">
              {(dms.data ?? []).map((dm) => (
                <option key={dm.id} value={dm.id}>
                  @{dmName(dm)}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
    </div>
  );
}

/** A DM is named by the bot at its other end. */
function dmName(dm: Json): string {
  const recipients = (dm.recipients ?? []) as Json[];
  return (recipients[0]?.username as string | undefined) ?? (dm.id as string);
}
