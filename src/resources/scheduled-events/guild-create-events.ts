/**
 * The scheduled events GUILD_CREATE carries (v10's `guild_scheduled_events`): those of the guild
 * the bot sees, as `GET /guilds/{g}/scheduled-events` lists them, each with the status its clock
 * gives it now (the gateway writes nothing: the next REST read settles and announces the change).
 */
import type { Guild } from '../../core/world/types.js';
import { wirePublicUserOrBot, type UserDirectory } from '../users/wire-users.js';
import { statusAt, toWireEvent, viewerSeesEvent, type WireEvent } from './rules/event.js';
import type { ScheduledEventStore } from './store.js';

export interface GuildCreateEventsDeps {
  events: Pick<ScheduledEventStore, 'listScheduledEvents'>;
  world: UserDirectory;
  now: () => number;
}

/** The guild's events the bot of `applicationId` sees, ascending by id. */
export async function guildCreateEvents(
  deps: GuildCreateEventsDeps,
  guild: Guild,
  applicationId: string,
): Promise<WireEvent[]> {
  const viewer = { kind: 'bot' as const, applicationId };
  const now = deps.now();
  const seen = (await deps.events.listScheduledEvents(guild.id)).filter((event) =>
    viewerSeesEvent(guild, viewer, event),
  );
  const wired: WireEvent[] = [];
  for (const event of seen) {
    const creator = await wirePublicUserOrBot(deps.world, event.creator_id);
    wired.push(toWireEvent({ ...event, status: statusAt(event, now) }, { creator }));
  }
  return wired;
}
