/**
 * Auto moderation with discord.py (Debian's python3-discord, unmodified) over slashd's gateway
 * (test/python/discord_automod.py): `guild.create_automod_rule` (block with a custom message,
 * alert channel) and its `on_automod_rule_create`; a member's message blocked (200000) and the
 * bot's `on_automod_action` for each action; `fetch_automod_rules`, `rule.edit`, a lookahead refused
 * (50035), `rule.delete` and then 10066.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { startDiscordPyBot, type DiscordPyBot } from '../../../test/helpers/discordpy.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ANNOUNCEMENTS,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

describe('discord.py: guild.create_automod_rule and on_automod_action', () => {
  let server: TestServer;
  let bot: DiscordPyBot;

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageGuild);
    const discovery = await server.request('GET', '/gateway');
    bot = await startDiscordPyBot('discord_automod.py', [
      `${server.api}`,
      discovery.body.url as string,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
      ANNOUNCEMENTS,
    ]);
  });
  after(async () => {
    await bot?.stop();
    await server?.close();
  });

  test('create, a blocked message and its actions, read, edit, refuse, delete', async () => {
    assert.deepEqual(bot.ready.guilds, [TEST_GUILD_ID]);
    bot.send('create');
    const created: Json = await bot.lines.find((l) => ['created', 'failed'].includes(l.event), 'the rule');
    assert.equal(created.event, 'created', JSON.stringify(created));
    assert.equal(created.trigger_type, 1);
    assert.deepEqual(created.keywords, ['pineapple*']);
    assert.deepEqual(created.actions, [
      [1, 'No fruit on pizza.', null],
      [2, null, ANNOUNCEMENTS],
    ]);
    assert.equal(created.creator, DEMO_APP_ID);
    await bot.lines.find((l) => l.event === 'rule_create' && l.id === created.id, 'on_automod_rule_create');

    const send = (content: string) =>
      server.request('POST', `/channels/${GENERAL}/messages`, { auth: CAROL_TOKEN, body: { content } });
    const blocked = await send('pineapple pizza rules');
    assert.equal(blocked.body.code, 200000, blocked.text);
    assert.equal(blocked.body.custom_message, 'No fruit on pizza.');
    assert.equal((await send('I like pineapples')).status, 200, 'the allow list');
    const actions: Json[] = await bot.lines.findMany(2, (l) => l.event === 'action', 'on_automod_action twice');
    assert.deepEqual(actions.map((a) => a.type).sort(), [1, 2]);
    for (const action of actions) {
      assert.equal(action.rule_id, created.id);
      assert.equal(action.user_id, CAROL_ID);
      assert.equal(action.channel_id, GENERAL);
      assert.equal(action.matched_keyword, 'pineapple*');
    }
    const alert = actions.find((a) => a.type === 2);
    const system = await server.request('GET', `/channels/${ANNOUNCEMENTS}/messages/${alert.alert_system_message_id}`, {
      auth: BOT,
    });
    assert.equal(system.body.type, 24, system.text);

    bot.send('finish');
    const finished: Json = await bot.lines.find((l) => ['finished', 'failed'].includes(l.event), 'the end');
    assert.equal(finished.event, 'finished', JSON.stringify(finished));
    assert.deepEqual(finished.listed, [created.id]);
    assert.deepEqual(finished.edited, ['discord.py filter, renamed', false]);
    assert.deepEqual(finished.refused, [400, 50035]);
    assert.deepEqual(finished.gone, [404, 10066]);
  });
});
