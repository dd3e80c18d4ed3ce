/**
 * Where the user is: a guild of theirs and a channel of it they may view (v10's guild list, the
 * console's channel list), or one of their DMs with a bot or group DMs (v10's
 * `GET /users/@me/channels`, read by the screen and given here), where the place has no guild.
 * "Join a guild" takes an invite (./join-guild.tsx); the guild joined is then listed and picked.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api';
import { useRead } from '../hooks';
import { JoinGuild } from './join-guild';
import type { SetPlace } from '../screens';
import type { Json, Place } from '../types';

/** Channel types a user reads messages in: text, announcement, and threads. */
const MESSAGE_CHANNEL_TYPES = new Set([0, 5, 10, 11, 12]);
/** v10's group DM channel type. */
const GROUP_DM = 3;

export function PlaceBar({
  api,
  place,
  setPlace,
  channels,
  privateChannels,
  guildOnly = false,
}: {
  api: Api;
  place: Place | null;
  setPlace: SetPlace;
  channels: Json[];
  /** The user's DMs and group DMs. */
  privateChannels: Json[];
  /** A screen of the guild as a whole (its events): no channel to pick. */
  guildOnly?: boolean;
}) {
  const guilds = useRead<Json[]>(async () => (await api.get('/users/@me/guilds')) as Json[], [api]);
  const readable = channels.filter((c) => MESSAGE_CHANNEL_TYPES.has(c.type as number));
  const guildId = place?.guildId ?? '';
  /** In no guild and no DM: there is nothing to pick, only a guild to join. */
  const nowhere = guilds.data?.length === 0 && privateChannels.length === 0;
  const [joining, setJoining] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const joined = (id: string, sentence: string) => {
    setJoining(false);
    setNotice(sentence);
    guilds.reload();
    setPlace({ guildId: id, channelId: '' });
  };
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
      return current && current.guildId !== null && !current.channelId && first
        ? { guildId: current.guildId, channelId: first.id as string }
        : current;
    });
  }, [readable.length, place]);
  // A DM or group DM picked is a place without a guild: its interactions carry no guild_id.
  const pickChannel = (channelId: string) => {
    const isPrivate = privateChannels.some((c) => c.id === channelId);
    setPlace({ guildId: isPrivate ? null : (place?.guildId ?? null), channelId });
  };
  return (
    <div class="place-bar">
      {!nowhere && (
        <>
          <label>
            <span class="label">Guild</span>
            <select value={guildId} onChange={(e) => setPlace({ guildId: e.currentTarget.value, channelId: '' })}>
              {place?.guildId === null && <option value="">No guild (direct messages)</option>}
              {(guilds.data ?? []).map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          {!guildOnly && (
            <label>
              <span class="label">Channel</span>
              <select value={place?.channelId ?? ''} onChange={(e) => pickChannel(e.currentTarget.value)}>
                {readable.map((c) => (
                  <option key={c.id} value={c.id}>
                    #{c.name}
                  </option>
                ))}
                {privateChannels.length > 0 && (
                  <optgroup label="Direct messages">
                    {privateChannels.map((dm) => (
                      <option key={dm.id} value={dm.id}>
                        {privateChannelName(dm)}
                      </option>
                    ))}
                  </optgroup>
                )}
              </select>
            </label>
          )}
        </>
      )}
      {nowhere && <p class="place-hint muted">You are in no guild yet: join one with an invite.</p>}
      <button
        type="button"
        class="button secondary small join-guild-toggle"
        aria-expanded={joining}
        onClick={() => {
          setJoining(!joining);
          setNotice(null);
        }}
      >
        Join a guild
      </button>
      {notice && (
        <p class="join-guild-notice" role="status">
          {notice}
        </p>
      )}
      {joining && <JoinGuild api={api} joined={joined} close={() => setJoining(false)} />}
    </div>
  );
}

/**
 * How a DM or group DM is named: a DM by the bot at its other end (`@Demo Bot`), a group DM by
 * its name, or its other recipients when it has none.
 */
export function privateChannelName(dm: Json): string {
  const recipients = (dm.recipients ?? []) as Json[];
  if (dm.type === GROUP_DM) {
    const others = recipients.map((u) => (u.global_name ?? u.username) as string).join(', ');
    return (dm.name as string | null) || others || (dm.id as string);
  }
  return `@${(recipients[0]?.username as string | undefined) ?? (dm.id as string)}`;
}
