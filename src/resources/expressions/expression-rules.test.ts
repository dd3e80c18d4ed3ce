/**
 * The expression rules alone: a sticker file's format read from its bytes (PNG, APNG, GIF,
 * Lottie; others and oversized files refused at `file`), an emoji image whose URI names the wrong
 * type read as what its bytes are, the slots by boost level, `sticker_ids` (at most three; the
 * guild's available stickers or standard ones, else 50081), the world diff's GUILD_STICKERS_UPDATE
 * and the intent that carries both expression dispatches.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayIntentBits, StickerFormatType } from 'discord-api-types/v10';
import { pngImage } from '../../../test/helpers/images.js';
import { ApiError } from '../../core/io/errors.js';
import type { Issue } from '../../core/io/issue.js';
import { intentsAllow } from '../../core/gateway/intents.js';
import { diffWorlds } from '../../core/world/diff.js';
import type { Guild, Sticker, World } from '../../core/world/types.js';
import { readEmojiImage } from './rules/emoji-image.js';
import { EMOJI_SLOTS_BY_TIER, STICKER_FILE_BYTES_MAX, STICKER_SLOTS_BY_TIER } from './rules/limits.js';
import { readStickerIds, stickerItemsOf } from './rules/message-stickers.js';
import { checkStickerFile, stickerFormatOf } from './rules/sticker-file.js';

const GUILD_ID = '1345183757107200001';
const STICKER: Sticker = {
  id: '1345183757107200700',
  name: 'Wumpus',
  description: null,
  tags: 'wave',
  format_type: StickerFormatType.PNG,
  available: true,
};

function guild(stickers: Sticker[]): Guild {
  return {
    id: GUILD_ID,
    name: 'G',
    owner_id: '1335036896870400001',
    preferred_locale: 'en-US',
    roles: [{ id: GUILD_ID, name: '@everyone', permissions: '0' }],
    channels: [],
    members: [],
    installs: [],
    messages: [],
    stickers,
  };
}

const world = (g: Guild): World => ({ applications: [], users: [], guilds: [g], oauth2_tokens: [] });

function codes(issues: Issue[]): string[] {
  return issues.map((issue) => `${issue.path.join('.')}:${issue.code}`);
}

describe('expression rules', () => {
  test('a sticker file’s format is its bytes’: PNG, APNG (acTL before IDAT), GIF, Lottie JSON', () => {
    const png = pngImage(1, 1);
    assert.equal(stickerFormatOf(png), StickerFormatType.PNG);
    const apng = Buffer.concat([
      png.subarray(0, 33),
      Buffer.from('\0\0\0\x08acTL'),
      Buffer.alloc(12),
      png.subarray(33),
    ]);
    assert.equal(stickerFormatOf(apng), StickerFormatType.APNG);
    assert.equal(stickerFormatOf(Buffer.from('GIF89a....')), StickerFormatType.GIF);
    assert.equal(stickerFormatOf(Buffer.from('{"v":"5.7.1","layers":[]}')), StickerFormatType.Lottie);
    assert.equal(stickerFormatOf(Buffer.from('{"layers":[]}')), undefined, 'JSON without a version is no Lottie');
    assert.equal(stickerFormatOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), undefined, 'a JPEG is no sticker');
  });

  test('a sticker file: required, at most 512 KiB, of a sticker format', () => {
    const issues: Issue[] = [];
    assert.equal(checkStickerFile(undefined, issues), undefined);
    assert.equal(checkStickerFile(Buffer.alloc(STICKER_FILE_BYTES_MAX + 1), issues), undefined);
    assert.equal(checkStickerFile(Buffer.from('text'), issues), undefined);
    assert.deepEqual(codes(issues), ['file:BASE_TYPE_REQUIRED', 'file:BINARY_TYPE_MAX_SIZE', 'file:IMAGE_INVALID']);
    assert.equal(checkStickerFile(pngImage(1, 1), issues)?.format, StickerFormatType.PNG);
  });

  test('an emoji image named image/jpg holding a PNG is a PNG; bytes of no image stay refused', () => {
    const issues: Issue[] = [];
    const png = pngImage(2, 2);
    const read = readEmojiImage(`data:image/jpg;base64,${png.toString('base64')}`, ['image'], issues);
    assert.equal(read?.contentType, 'image/png');
    assert.deepEqual(read?.bytes, png);
    assert.equal(
      readEmojiImage(`data:image/png;base64,${Buffer.from('no image').toString('base64')}`, ['image'], issues),
      undefined,
    );
    assert.deepEqual(codes(issues), ['image:IMAGE_INVALID']);
  });

  test('slots by boost level 0-3 as v10: emojis 50/100/150/250 of each kind, stickers 5/15/30/60', () => {
    assert.deepEqual(EMOJI_SLOTS_BY_TIER, [50, 100, 150, 250]);
    assert.deepEqual(STICKER_SLOTS_BY_TIER, [5, 15, 30, 60]);
  });

  test('sticker_ids: at most three snowflakes; the guild’s available ones and standard ones, else 50081', () => {
    const issues: Issue[] = [];
    readStickerIds(['1', '2', '3', '4'], ['sticker_ids'], issues);
    readStickerIds(['x'], ['sticker_ids'], issues);
    assert.deepEqual(codes(issues), ['sticker_ids:BASE_TYPE_MAX_LENGTH', 'sticker_ids.0:NUMBER_TYPE_COERCE']);
    assert.deepEqual(stickerItemsOf(guild([STICKER]), [STICKER.id, '1310000000000000012']), [
      { id: STICKER.id, name: 'Wumpus', format_type: 1 },
      { id: '1310000000000000012', name: 'Thumbs up', format_type: 1 },
    ]);
    const invalid = (error: unknown) => error instanceof ApiError && error.code === 50081;
    assert.throws(() => stickerItemsOf(guild([{ ...STICKER, available: false }]), [STICKER.id]), invalid);
    assert.throws(() => stickerItemsOf(guild([]), [STICKER.id]), invalid);
  });

  test('a sticker added, changed or removed is one GUILD_STICKERS_UPDATE with the whole list; under GUILD_EXPRESSIONS', () => {
    const events = diffWorlds(world(guild([])), world(guild([STICKER])));
    const update = events.flatMap((e) =>
      e.kind === 'dispatch' && e.event.t === 'GUILD_STICKERS_UPDATE' ? [e.event] : [],
    );
    assert.equal(update.length, 1);
    assert.deepEqual(update[0]?.d, {
      guild_id: GUILD_ID,
      stickers: [{ ...STICKER, type: 2, guild_id: GUILD_ID }],
    });
    assert.deepEqual(diffWorlds(world(guild([STICKER])), world(guild([STICKER]))), []);
    assert.equal(intentsAllow(GatewayIntentBits.GuildExpressions, 'GUILD_STICKERS_UPDATE', true), true);
    assert.equal(intentsAllow(GatewayIntentBits.Guilds, 'GUILD_STICKERS_UPDATE', true), false);
    assert.equal(intentsAllow(GatewayIntentBits.Guilds, 'GUILD_EMOJIS_UPDATE', true), false);
  });
});
