/**
 * A guild's custom stickers (docs/decisions.md, "Emojis and stickers"): kept in its document beside
 * its emojis, and their v10 sticker objects (GUILD_CREATE, GUILD_STICKERS_UPDATE).
 */
import { StickerType, type APISticker } from 'discord-api-types/v10';
import type { WirePayload } from '../wire-payload.js';
import type { Guild, Sticker } from './types.js';

/** The guild's custom stickers (none when the API made none). */
export function guildStickers(guild: Pick<Guild, 'stickers'>): readonly Sticker[] {
  return guild.stickers ?? [];
}

/** The custom sticker of `id` in the guild, or undefined. */
export function findGuildSticker(guild: Pick<Guild, 'stickers'>, id: string): Sticker | undefined {
  return guildStickers(guild).find((sticker) => sticker.id === id);
}

/** v10's sticker object of a guild's sticker (no creator: v10 sends it only with the expressions permissions). */
export function toWireGuildSticker(guildId: string, sticker: Sticker): WirePayload<APISticker> {
  return {
    id: sticker.id,
    name: sticker.name,
    description: sticker.description,
    tags: sticker.tags,
    type: StickerType.Guild,
    format_type: sticker.format_type,
    available: sticker.available,
    guild_id: guildId,
  } satisfies APISticker;
}
