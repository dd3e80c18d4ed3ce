/**
 * discord.py (Debian's python3-discord, unmodified) follows an announcement channel and publishes
 * (test/python/discord_followers.py): `news.follow(destination=)` makes a channel follower webhook
 * (type 2) in the destination, `message.publish()` marks the original crossposted and puts its
 * copy in the destination (IS_CROSSPOST, a reference to the original, written by the follower),
 * and a second `publish()` is refused 40033.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { announcementWorld } from '../../../test/helpers/announcement-world.js';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ANNOUNCEMENTS, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;

describe('discord.py: TextChannel.follow and Message.publish', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ world: announcementWorld() });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageWebhooks);
  });
  after(() => server?.close());

  test('follow, publish, and the copy in the destination', async () => {
    const result: Json = await runDiscordPy('discord_followers.py', [
      server.api,
      DEMO_BOT_TOKEN,
      ANNOUNCEMENTS,
      GENERAL,
    ]);
    assert.equal(result.is_news, true);
    const [followerId, type, channelId] = result.follower;
    assert.deepEqual([type, channelId], [2, GENERAL]);
    assert.deepEqual(result.webhook_types, [2]);
    assert.deepEqual(result.published_flags, [true, 1]);
    assert.deepEqual(result.copies, [['py release notes', true, ANNOUNCEMENTS, followerId]]);
    assert.deepEqual(result.again, [400, 40033]);
  });
});
