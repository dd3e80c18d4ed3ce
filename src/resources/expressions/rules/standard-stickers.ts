/**
 * The standard stickers slashd serves (docs/decisions.md, "Standard stickers"): one built-in pack of
 * three PNG stickers, the same on every node, which any message may carry and `GET /sticker-packs`
 * lists. Their ids are fixed snowflakes; their image is one small PNG, served like a guild sticker's.
 */
import { StickerFormatType, StickerType, type APISticker, type APIStickerPack } from 'discord-api-types/v10';
import type { WirePayload } from '../../../core/wire-payload.js';

/** The built-in pack's id, and its (unsold) SKU's. */
export const STANDARD_PACK_ID = '1310000000000000001';
const STANDARD_PACK_SKU_ID = '1310000000000000002';

/** A 1x1 PNG: every standard sticker's image. */
export const STANDARD_STICKER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const STANDARD_STICKERS: readonly WirePayload<APISticker>[] = [
  { id: '1310000000000000011', name: 'Wave', tags: 'wave', description: 'Hello there' },
  { id: '1310000000000000012', name: 'Thumbs up', tags: 'thumbsup', description: 'Sounds good' },
  { id: '1310000000000000013', name: 'Party', tags: 'tada', description: 'Shipped it' },
].map(
  (sticker, index) =>
    ({
      ...sticker,
      type: StickerType.Standard,
      format_type: StickerFormatType.PNG,
      available: true,
      pack_id: STANDARD_PACK_ID,
      sort_value: index,
    }) satisfies APISticker,
);

const STANDARD_PACK = {
  id: STANDARD_PACK_ID,
  sku_id: STANDARD_PACK_SKU_ID,
  name: 'slashd Basics',
  description: 'The standard stickers of a slashd server.',
  stickers: [...STANDARD_STICKERS],
  cover_sticker_id: STANDARD_STICKERS[0]!.id,
} satisfies APIStickerPack;

/** Every standard sticker pack. */
export function standardStickerPacks(): WirePayload<APIStickerPack>[] {
  return [STANDARD_PACK];
}

/** The standard sticker pack of `id`, or undefined. */
export function findStandardPack(id: string): WirePayload<APIStickerPack> | undefined {
  return standardStickerPacks().find((pack) => pack.id === id);
}

/** The standard sticker of `id`, or undefined. */
export function findStandardSticker(id: string): WirePayload<APISticker> | undefined {
  return STANDARD_STICKERS.find((sticker) => sticker.id === id);
}
