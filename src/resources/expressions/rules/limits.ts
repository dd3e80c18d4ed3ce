/** The bounds of guild emojis and stickers (v10's), each a named constant. */
import type { Guild } from '../../../core/world/types.js';

/** The largest emoji image v10 takes: 256 KiB. */
export const EMOJI_IMAGE_BYTES_MAX = 256 * 1024;
/** An emoji body's bound: the image's base64 (4/3 of its bytes) and room for the rest. */
export const EMOJI_BODY_LIMIT_BYTES = Math.ceil((EMOJI_IMAGE_BYTES_MAX * 4) / 3) + 64 * 1024;
/** A guild's emoji slots of each kind (static, animated) by boost level 0-3 (v10). */
export const EMOJI_SLOTS_BY_TIER: readonly number[] = [50, 100, 150, 250];
/** The most roles an emoji may be locked to: every role a guild holds (v10's 250). */
export const EMOJI_ROLES_MAX = 250;

/** The largest sticker file v10 takes: 512 KiB. */
export const STICKER_FILE_BYTES_MAX = 512 * 1024;
/** A guild's sticker slots by boost level 0-3 (v10). */
export const STICKER_SLOTS_BY_TIER: readonly number[] = [5, 15, 30, 60];
/** The shortest sticker name v10 takes. */
export const STICKER_NAME_MIN = 2;
/** The longest sticker name v10 takes. */
export const STICKER_NAME_MAX = 30;
/** A sticker's description, when not empty: 2 to 100 characters. */
export const STICKER_DESCRIPTION_MIN = 2;
export const STICKER_DESCRIPTION_MAX = 100;
/** A sticker's tags: 1 to 200 characters. */
export const STICKER_TAGS_MIN = 1;
export const STICKER_TAGS_MAX = 200;

/** The most stickers one message carries (v10's `sticker_ids`). */
export const MESSAGE_STICKERS_MAX = 3;

/**
 * A guild's boost level: always 0, as v10's guild object slashd sends says (`premium_tier`; slashd
 * has no boosts). The slots are read through it, so a level the world could one day set counts.
 */
export function premiumTierOf(_guild: Guild): number {
  return 0;
}

/** The guild's emoji slots of one kind at its boost level. */
export function emojiSlotsOf(guild: Guild): number {
  return EMOJI_SLOTS_BY_TIER[premiumTierOf(guild)] ?? EMOJI_SLOTS_BY_TIER[0]!;
}

/** The guild's sticker slots at its boost level. */
export function stickerSlotsOf(guild: Guild): number {
  return STICKER_SLOTS_BY_TIER[premiumTierOf(guild)] ?? STICKER_SLOTS_BY_TIER[0]!;
}

/** The most files of a kind a guild's rows may hold: its slots at the highest boost level (both emoji kinds). */
export const EMOJI_FILES_PER_GUILD_MAX = 2 * EMOJI_SLOTS_BY_TIER[EMOJI_SLOTS_BY_TIER.length - 1]!;
export const STICKER_FILES_PER_GUILD_MAX = STICKER_SLOTS_BY_TIER[STICKER_SLOTS_BY_TIER.length - 1]!;
