/**
 * discord.py (Debian's python3-discord, unmodified) with guild emojis and stickers as its users
 * write them (test/python/discord_expressions.py): `guild.create_custom_emoji(name=, image=,
 * roles=)` (role ids sent as JSON integers; a bad name refused with 50035), `fetch_emojis`,
 * `emoji.edit`, `emoji.delete` (then 10014); `guild.create_sticker(name=, description=, emoji=,
 * file=)` as a form, `fetch_stickers`, `channel.send(stickers=[...])` with a standard sticker of
 * `fetch_premium_sticker_packs()`, `sticker.edit`, `sticker.delete`; each change told to it over
 * the gateway (`on_guild_emojis_update`, `on_guild_stickers_update`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ADMIN_ROLE, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

describe('discord.py guild emojis and stickers: create_custom_emoji, create_sticker, send(stickers=)', () => {
  let server: TestServer;
  let folder: string;

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.CreateGuildExpressions);
    folder = mkdtempSync(join(tmpdir(), 'slashd-expressions-'));
  });
  after(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('a bot makes, reads, edits and deletes an emoji and a sticker, and sends stickers', async () => {
    const imagePath = join(folder, 'image.png');
    writeFileSync(imagePath, pngImage(6, 6));
    const discovery = await server.request('GET', '/gateway');
    const result: Json = await runDiscordPy('discord_expressions.py', [
      server.api,
      discovery.body.url,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
      GENERAL,
      ADMIN_ROLE,
      imagePath,
    ]);
    assert.deepEqual(result.bad_name, [400, 50035]);
    const [emojiId, name, animated, roles] = result.emoji;
    assert.deepEqual([name, animated, roles], ['py_mascot', false, [ADMIN_ROLE]]);
    assert.equal(result.emoji_user, DEMO_APP_ID);
    assert.deepEqual(result.fetched_emojis, ['py_mascot']);
    assert.equal(result.emoji_edited, 'py_mascot2');
    assert.deepEqual(result.emoji_gone, [400, 10014]);
    const [stickerId, stickerName, tags, description, format] = result.sticker;
    assert.deepEqual([stickerName, tags, description, format], ['py-wumpus', 'wave', 'from discord.py', 1]);
    assert.deepEqual(result.fetched_stickers, ['py-wumpus']);
    assert.deepEqual(result.packs, ['slashd Basics', 'Wave']);
    assert.deepEqual(result.sent_stickers, [stickerId, '1310000000000000011']);
    assert.equal(result.sticker_edited, 'py-wumpus-2');
    assert.deepEqual(result.after_delete, []);
    // Each change was told over the gateway with the whole list (GUILD_EMOJIS_UPDATE, GUILD_STICKERS_UPDATE).
    assert.deepEqual(result.told.emojis, [['py_mascot'], ['py_mascot2'], []]);
    assert.deepEqual(result.told.stickers, [['py-wumpus'], ['py-wumpus-2'], []]);
    const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/emojis`, { auth: BOT });
    assert.equal(
      log.body.some((e: Json) => e.id === emojiId),
      false,
    );
  });
});
