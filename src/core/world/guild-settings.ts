/**
 * A guild's settings as v10 objects show them (`GET /guilds/{id}`, GUILD_CREATE, GUILD_UPDATE, an
 * invite's guild): what `PATCH /guilds/{id}` set (the document's `settings`), else v10's default.
 */
import type {
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildFeature,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
} from 'discord-api-types/v10';
import type { Guild } from './types.js';

/** v10's default AFK timeout, in seconds. */
export const GUILD_AFK_TIMEOUT_SECONDS = 300;

/** The guild's features (the toggles set through the API; slashd's guilds have no other). */
export function guildFeatures(guild: Guild): GuildFeature[] {
  return [...(guild.settings?.features ?? [])] as GuildFeature[];
}

/** Whether a feature is on. */
export function hasGuildFeature(guild: Guild, feature: string): boolean {
  return guild.settings?.features?.includes(feature) ?? false;
}

/** The fields an invite's guild shares with the guild object. */
export function toWireInviteGuildFields(guild: Guild) {
  const s = guild.settings ?? {};
  return {
    icon: s.icon ?? null,
    description: s.description ?? null,
    verification_level: (s.verification_level ?? 0) as GuildVerificationLevel,
  };
}

/** The settings' fields of the guild object, each its default where the API set none. */
export function toWireGuildSettingsFields(guild: Guild) {
  const s = guild.settings ?? {};
  return {
    ...toWireInviteGuildFields(guild),
    features: guildFeatures(guild),
    afk_channel_id: s.afk_channel_id ?? null,
    afk_timeout: (s.afk_timeout ?? GUILD_AFK_TIMEOUT_SECONDS) as 60 | 300 | 900 | 1800 | 3600,
    system_channel_id: s.system_channel_id ?? null,
    system_channel_flags: (s.system_channel_flags ?? 0) as GuildSystemChannelFlags,
    default_message_notifications: (s.default_message_notifications ?? 0) as GuildDefaultMessageNotifications,
    explicit_content_filter: (s.explicit_content_filter ?? 0) as GuildExplicitContentFilter,
    rules_channel_id: s.rules_channel_id ?? null,
    safety_alerts_channel_id: s.safety_alerts_channel_id ?? null,
    public_updates_channel_id: s.public_updates_channel_id ?? null,
    premium_progress_bar_enabled: s.premium_progress_bar_enabled ?? false,
  };
}
