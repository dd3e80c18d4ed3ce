/** Data of the chat screen, read through v10 as the signed-in user. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from './api';
import { followChannel } from './live';
import type { CommandIndex, Json } from './types';

/** Messages read per channel (v10's default page). */
export const MESSAGES_SHOWN = 50;

/** A read that runs again when its inputs change; `reload` reads again now. */
export function useRead<T>(
  read: (() => Promise<T>) | null,
  deps: unknown[],
): { data: T | null; error: string | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!read) {
      setData(null);
      return undefined;
    }
    let live = true;
    read().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
      },
      (failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload };
}

/** The guild's viewable channels, roles and members: names for mentions and the option pickers. */
export interface GuildData {
  channels: Json[];
  roles: Json[];
  members: Json[];
  /** The guild's custom emojis, offered for reactions. */
  emojis: Json[];
}

export function useGuild(api: Api, guildId: string | null) {
  return useRead<GuildData>(
    guildId
      ? async () => {
          const [channels, roles, members, emojis] = await Promise.all([
            api.consoleGet(`/guilds/${guildId}/channels`),
            api.get(`/guilds/${guildId}/roles`),
            api.consoleGet(`/guilds/${guildId}/members`),
            api.get(`/guilds/${guildId}/emojis`),
          ]);
          return { channels, roles, members, emojis };
        }
      : null,
    [api, guildId],
  );
}

/** The user's DMs with bots and their group DMs (v10's `GET /users/@me/channels`). */
export function usePrivateChannels(api: Api) {
  return useRead<Json[]>(async () => (await api.get('/users/@me/channels')) as Json[], [api]);
}

/** The channel's messages, oldest first, re-read on every live event and whenever `reload` is called. */
export function useMessages(api: Api, channelId: string | null) {
  const read = useRead<Json[]>(
    channelId
      ? async () => ((await api.get(`/channels/${channelId}/messages?limit=${MESSAGES_SHOWN}`)) as Json[]).reverse()
      : null,
    [api, channelId],
  );
  const [live, setLive] = useState(false);
  const { reload } = read;
  useEffect(() => {
    setLive(false);
    if (!channelId) return undefined;
    return followChannel(
      api,
      channelId,
      () => reload(),
      () => {
        setLive(true);
        reload();
      },
    );
  }, [api, channelId, reload]);
  return { ...read, live };
}

/** The channel's command index, read when the channel is picked and again each time the picker opens. */
export function useCommandIndex(api: Api, channelId: string | null) {
  return useRead<CommandIndex>(
    channelId ? async () => (await api.get(`/channels/${channelId}/application-command-index`)) as CommandIndex : null,
    [api, channelId],
  );
}

/** An interaction the user started, as the console follows it (GET /interactions/{id}). */
export interface Tracked {
  id: string;
  label: string;
  state: string;
  failure_reason?: string;
  failure_detail?: string;
  response?: Json;
}

/** Follow-up reads of an interaction: every so often while it is pending or deferred, up to a bound. */
const POLL_EVERY_MS = 250;
const POLL_FOR_MS = 120_000;

/**
 * Follows the user's own interactions until they are answered or failed: v10's GET
 * /interactions/{id} is the only source of a failure, a modal, and the user's own ephemeral
 * answers (which no stream carries). `onChange` runs on every change (the console re-reads the channel).
 */
export function useTracker(api: Api, onChange: (tracked: Tracked) => void) {
  const [tracked, setTracked] = useState<Tracked[]>([]);
  const change = useRef(onChange);
  change.current = onChange;
  const track = useCallback(
    (first: Json, label: string) => {
      const started = Date.now();
      const update = (status: Json) => {
        const next: Tracked = { id: status.id, label, state: status.state, response: status.response ?? undefined };
        if (status.failure_reason) next.failure_reason = status.failure_reason;
        if (status.failure_detail) next.failure_detail = status.failure_detail;
        setTracked((list) => [...list.filter((t) => t.id !== next.id), next]);
        change.current(next);
        return next;
      };
      let last = update(first);
      const poll = async () => {
        // Failed at once (no bot connected, say): POST /interactions carries no reason; the status read does.
        if (last.state === 'failed' && !last.failure_reason) {
          try {
            last = update(await api.get(`/interactions/${last.id}`));
          } catch {
            return;
          }
        }
        // A deferred answer is followed until its message is edited: the channel is re-read each time.
        while ((last.state === 'pending' || last.state === 'acknowledged') && Date.now() - started < POLL_FOR_MS) {
          await new Promise((done) => setTimeout(done, POLL_EVERY_MS));
          try {
            const status = await api.get(`/interactions/${last.id}`);
            if (status.state !== last.state || last.state === 'acknowledged') last = update(status);
          } catch {
            return;
          }
        }
      };
      void poll();
    },
    [api],
  );
  const dismiss = useCallback((id: string) => setTracked((list) => list.filter((t) => t.id !== id)), []);
  return { tracked, track, dismiss };
}
