/**
 * READY, the first dispatch of a session (v10): the bot user, the shard's guilds as unavailable
 * (their GUILD_CREATEs follow), where to resume, and the fields v10 sends a bot that client
 * libraries skip. Pure: the gateway adapter supplies the session's facts.
 */
import type { APIApplication, GatewayReadyDispatchData } from 'discord-api-types/v10';
import type { WirePayload } from '../wire-payload.js';
import type { Application } from '../world/types.js';
import { toWireBotUser } from '../world/wire.js';

/** The gateway version READY announces (slashd serves v9 connections as v10). */
export const READY_VERSION = 10;

/**
 * READY's `d` as slashd sends it. discord-api-types' `GatewayReadyDispatchData` lacks the fields
 * v10 still sends a bot from the user-account protocol (`user_settings`, `relationships`,
 * `private_channels`, `presences`, `guild_join_requests`, `geo_ordered_rtc_regions`,
 * `session_type`, `auth`, `_trace`; some libraries log `_trace`), and wants `flags_new` in
 * `application`, where slashd sends `id` and `flags` only.
 */
export interface WireReady extends Omit<GatewayReadyDispatchData, 'application'> {
  user_settings: Record<string, never>;
  private_channels: never[];
  presences: never[];
  relationships: never[];
  guild_join_requests: never[];
  geo_ordered_rtc_regions: string[];
  session_type: 'normal';
  application: Pick<APIApplication, 'id' | 'flags'>;
  auth: Record<string, never>;
  _trace: string[];
}

/** What READY says about one session. */
export interface ReadyFacts {
  app: Application;
  sessionId: string;
  /** The URL the client resumes at (`resume_gateway_url`). */
  resumeUrl: string;
  shard: [shardId: number, numShards: number];
  /** The bot's guilds on this shard, in the order their GUILD_CREATEs follow. */
  guildIds: readonly string[];
}

/** The one `_trace` entry: names the server, as v10's name its gateway hops. */
const TRACE = '["slashd-gateway",{"micros":0}]';

export function readyPayload(facts: ReadyFacts): WirePayload<WireReady> {
  return {
    v: READY_VERSION,
    user: toWireBotUser(facts.app),
    user_settings: {},
    guilds: facts.guildIds.map((id) => ({ id, unavailable: true })),
    private_channels: [],
    presences: [],
    relationships: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    session_id: facts.sessionId,
    session_type: 'normal',
    resume_gateway_url: facts.resumeUrl,
    shard: facts.shard,
    application: { id: facts.app.id, flags: facts.app.flags },
    auth: {},
    _trace: [TRACE],
  } satisfies WireReady;
}
