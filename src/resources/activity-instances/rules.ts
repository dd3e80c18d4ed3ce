/**
 * An Activity instance as v10's `GET /applications/{id}/activity-instances/{instance_id}` answers it
 * (docs/v10-behaviour.md#activity-instances): the instance launched by an entry point command
 * (LAUNCH_ACTIVITY, or the DISCORD_LAUNCH_ACTIVITY handler), where it runs and who is in it. Pure.
 */
import { ActivityLocationKind, type APIActivityInstance } from 'discord-api-types/v10';

/** What the interactions store keeps of a launched instance, as these rules read it. */
export interface LaunchedInstance {
  id: string;
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  user_id: string;
  interaction_id: string;
}

/** The longest instance id slashd looks up: it makes snowflakes (v10's path allows far longer ids, none of them slashd's). */
const INSTANCE_ID = /^\d{1,20}$/;

/** Whether the path's instance id can be one slashd made (else it is unknown without a read). */
export function isInstanceId(id: string): boolean {
  return INSTANCE_ID.test(id);
}

/**
 * v10's activity instance object: the launch is the interaction that launched it, the location its
 * channel (`gc-{guild}-{channel}` in a guild, `pc-{channel}` in a DM), and its users the one who
 * launched it (slashd has no Activity clients joining later).
 */
export function toWireActivityInstance(instance: LaunchedInstance): APIActivityInstance {
  const location =
    instance.guild_id !== null
      ? {
          id: `gc-${instance.guild_id}-${instance.channel_id}`,
          kind: ActivityLocationKind.GuildChannel,
          channel_id: instance.channel_id,
          guild_id: instance.guild_id,
        }
      : { id: `pc-${instance.channel_id}`, kind: ActivityLocationKind.PrivateChannel, channel_id: instance.channel_id };
  return {
    application_id: instance.application_id,
    instance_id: instance.id,
    launch_id: instance.interaction_id,
    location,
    users: [instance.user_id],
  };
}
