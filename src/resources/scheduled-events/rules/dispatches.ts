/**
 * The scheduled event dispatches (v10, GUILD_SCHEDULED_EVENTS intent): the event itself on create,
 * update and delete, and `{guild_scheduled_event_id, user_id, guild_id}` when a user becomes
 * interested or stops. Their names and payloads join the world's typed map from here, so the
 * kernel's table names no resource's events.
 */
import type {
  GatewayDispatchEvents,
  GatewayGuildScheduledEventUserAddDispatchData,
  GatewayGuildScheduledEventUserRemoveDispatchData,
} from 'discord-api-types/v10';
import { guildDispatch } from '../../../core/world/dispatch.js';
import type { WorldEvent } from '../../../core/world/dispatch.js';
import type { WireEvent } from './event.js';

declare module '../../../core/world/dispatch-payloads.js' {
  interface WorldDispatchPayloads {
    [GatewayDispatchEvents.GuildScheduledEventCreate]: WireEvent;
    [GatewayDispatchEvents.GuildScheduledEventUpdate]: WireEvent;
    [GatewayDispatchEvents.GuildScheduledEventDelete]: WireEvent;
    [GatewayDispatchEvents.GuildScheduledEventUserAdd]: GatewayGuildScheduledEventUserAddDispatchData;
    [GatewayDispatchEvents.GuildScheduledEventUserRemove]: GatewayGuildScheduledEventUserRemoveDispatchData;
  }
}

type EventChange = 'GUILD_SCHEDULED_EVENT_CREATE' | 'GUILD_SCHEDULED_EVENT_UPDATE' | 'GUILD_SCHEDULED_EVENT_DELETE';

/** The event's create, update or delete; scoped to its channel, so only bots that see it are told. */
export function eventDispatch(t: EventChange, wire: WireEvent): WorldEvent {
  return guildDispatch(t, wire.guild_id, wire.channel_id, wire);
}

/** A user became interested in the event, or stopped. */
export function eventUserDispatch(
  added: boolean,
  event: { id: string; guild_id: string; channel_id: string | null },
  userId: string,
): WorldEvent {
  const d = { guild_scheduled_event_id: event.id, user_id: userId, guild_id: event.guild_id };
  return added
    ? guildDispatch('GUILD_SCHEDULED_EVENT_USER_ADD', event.guild_id, event.channel_id, d)
    : guildDispatch('GUILD_SCHEDULED_EVENT_USER_REMOVE', event.guild_id, event.channel_id, d);
}
