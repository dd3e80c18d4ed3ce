/**
 * discord.py (Debian's python3-discord, unmodified) as a bot edits itself
 * (test/python/discord_bot_profile.py): `client.user.edit(username=, avatar=bytes)` renames it and
 * sets its avatar (a reserved name refused with 50035), `client.fetch_user` reads it back, and
 * `client.user.edit(avatar=None)` removes the avatar; slashd serves the image discord.py names.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';
import { pngImage } from '../../../test/helpers/images.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN } from '../../../test/helpers/world.js';

type Json = any;

describe('discord.py: client.user.edit(username=, avatar=)', () => {
  let server: TestServer;
  let folder: string;

  before(async () => {
    server = await startServer();
    folder = mkdtempSync(join(tmpdir(), 'slashd-bot-avatar-'));
  });
  after(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the bot renames itself, sets its avatar, reads both back, and removes the avatar', async () => {
    const avatarPath = join(folder, 'avatar.png');
    const avatar = pngImage(8, 8);
    writeFileSync(avatarPath, avatar);
    const result: Json = await runDiscordPy('discord_bot_profile.py', [server.api, DEMO_BOT_TOKEN, avatarPath]);
    assert.deepEqual(result.bad_name, [400, 50035]);
    const [id, name, bot, key] = result.edited;
    assert.deepEqual([id, name, bot], [DEMO_APP_ID, 'py-renamed', true]);
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.deepEqual(result.fetched, ['py-renamed', key]);
    assert.deepEqual(result.removed, ['py-renamed', null]);
    const image = await fetch(`${server.url}/avatars/${DEMO_APP_ID}/${key}.png`);
    assert.equal(image.status, 404, 'the removed avatar is no longer served');
  });
});
