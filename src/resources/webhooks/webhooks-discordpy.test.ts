/**
 * discord.py (Debian's python3-discord, unmodified) with webhooks as its users write them
 * (test/python/discord_webhooks.py): a bot's `channel.create_webhook(name=, avatar=)` (a reserved
 * name refused with 50035), `channel.webhooks()`, `guild.webhooks()`; then `Webhook.partial(id,
 * token, session=...)` sending with `wait=True` (a file, an embed, a `username`), editing,
 * fetching and deleting its message, `Webhook.from_url` with a discord.com URL (slashd's own URL
 * is refused by discord.py's pattern), and `webhook.delete()` (its token then 10015).
 */
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

describe('discord.py webhooks: create_webhook, Webhook.partial, Webhook.from_url, send(wait=True)', () => {
  let server: TestServer;
  let folder: string;

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
    folder = mkdtempSync(join(tmpdir(), 'slashd-webhook-avatar-'));
  });
  after(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('a bot makes the webhook; the webhook alone sends, edits and deletes, then is deleted', async () => {
    const avatarPath = join(folder, 'avatar.png');
    writeFileSync(avatarPath, pngImage(8, 8));
    const result: Json = await runDiscordPy('discord_webhooks.py', [server.api, DEMO_BOT_TOKEN, GENERAL, avatarPath]);
    assert.deepEqual(result.bad_name, [400, 50035]);
    const [id, name, type, channelId, hasToken] = result.created;
    assert.deepEqual([name, type, channelId, hasToken], ['py-hook', 1, GENERAL, true]);
    assert.match(result.avatar_key, /^[0-9a-f]{32}$/);
    assert.deepEqual(result.channel_webhooks, [id]);
    assert.deepEqual(result.guild_webhooks, [id]);
    const [sentId, webhookId, author, bot, content, embedTitle, filename] = result.sent;
    assert.deepEqual(
      [webhookId, author, bot, content, embedTitle, filename],
      [id, 'py-release', true, 'deploy done', 'v2.0.0', 'result.txt'],
    );
    assert.deepEqual(result.edited, ['deploy done (edited)', true]);
    assert.equal(result.fetched, 'deploy done (edited)');
    assert.equal(result.no_wait, null, 'without wait, send returns nothing (204)');
    assert.deepEqual(result.from_url, [id, 'through from_url']);
    assert.equal(result.slashd_url, 'ValueError');
    assert.deepEqual(result.deleted, [404, 10008]);
    assert.deepEqual(result.after_delete, [404, 10015]);
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sentId}`, { auth: ALICE_TOKEN });
    assert.equal(read.body.code, 10008, read.text);
  });
});
