/**
 * Stickers on a message (v10's `sticker_ids` of a message create, up to three): each one of the
 * guild's own stickers or a standard one, else 50081; the message keeps them as `sticker_items`
 * (id, name, format), as every read renders them. The messages resource calls these two functions.
 */
import type { APIStickerItem } from 'discord-api-types/v10';
import { apiError } from '../../../core/io/errors.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { readList, readSnowflake } from '../../../core/io/read.js';
import { reportTooLong, type Issues } from '../../../core/io/report.js';
import { findGuildSticker } from '../../../core/world/stickers.js';
import type { Guild } from '../../../core/world/types.js';
import { MESSAGE_STICKERS_MAX } from './limits.js';
import { findStandardSticker } from './standard-stickers.js';

/** `sticker_ids`: at most three sticker ids. */
export function readStickerIds(raw: unknown, path: IssuePath, issues: Issues): string[] | undefined {
  const list = readList(raw, path, issues);
  if (!list) return undefined;
  if (list.length > MESSAGE_STICKERS_MAX) reportTooLong(issues, path, MESSAGE_STICKERS_MAX);
  const ids = list.map((item, index) => readSnowflake(item, [...path, index], issues));
  return ids.filter((id) => id !== undefined);
}

/** The sticker of `id` as a message carries it, from the guild's (available ones) or the standard ones. */
function stickerItem(guild: Guild | null, id: string): APIStickerItem | undefined {
  const own = guild ? findGuildSticker(guild, id) : undefined;
  if (own?.available) return { id: own.id, name: own.name, format_type: own.format_type };
  const standard = findStandardSticker(id);
  return standard ? { id: standard.id, name: standard.name, format_type: standard.format_type } : undefined;
}

/** The stickers a new message in `guild` carries (`ids` checked by `readStickerIds`); 50081 for one it may not. */
export function stickerItemsOf(guild: Guild | null, ids: unknown): APIStickerItem[] {
  if (!Array.isArray(ids)) return [];
  return [...new Set(ids as string[])].map((id) => {
    const item = stickerItem(guild, id);
    if (!item) throw apiError('InvalidSticker');
    return item;
  });
}
