/** `GET /guilds/{id}/preview` (v10 Guild Preview): the guild as its invite page shows it. */
import type { APIGuildPreview } from 'discord-api-types/v10';
import { guildEmojis, toWireGuildEmoji } from '../../../core/world/emojis.js';
import { guildFeatures, toWireInviteGuildFields } from '../../../core/world/guild-settings.js';
import type { Guild } from '../../../core/world/types.js';
import type { WirePayload } from '../../../core/wire-payload.js';

/** The preview of a guild of `memberCount` members (no presence is known: 0 online). */
export function toWireGuildPreview(guild: Guild, memberCount: number): WirePayload<APIGuildPreview> {
  const { icon, description } = toWireInviteGuildFields(guild);
  const wire: WirePayload<APIGuildPreview> = {
    id: guild.id,
    name: guild.name,
    icon,
    splash: null,
    discovery_splash: null,
    emojis: guildEmojis(guild).map(toWireGuildEmoji),
    features: guildFeatures(guild),
    approximate_member_count: memberCount,
    approximate_presence_count: 0,
    description,
    stickers: [],
  } satisfies APIGuildPreview;
  // v10 sends `home_header` too (its OpenAPI document requires it), which discord-api-types lacks.
  wire.home_header = null;
  return wire;
}
