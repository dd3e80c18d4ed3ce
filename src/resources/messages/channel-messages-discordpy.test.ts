/**
 * discord.py (Debian's python3-discord, unmodified, over slashd's gateway) as a prefix-command bot:
 * alice posts "!ping" with her own token, its `on_message` answers with `message.reply`, and alice
 * reads the reply pointing at her message. A moderating bot then bulk deletes both, and discord.py's
 * `on_raw_bulk_message_delete` receives their ids (MESSAGE_DELETE_BULK).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { GENERAL } from '../../../test/helpers/world.js';
import type { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import { startDiscordPyBot, type DiscordPyBot } from '../../../test/helpers/discordpy.js';

type Json = any;

/** The gateway world (Other App may read content) with the demo bot installed as an administrator. */
function world(): World {
  const w = gatewayWorld();
  const guild = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = '8';
  return w;
}

describe('discord.py on_message: a prefix command answered with message.reply', () => {
  let server: TestServer;
  let bot: DiscordPyBot;
  let lines: Inbox<Json>;

  before(async () => {
    server = await startServer({ world: world() });
    const discovery = await server.request('GET', '/gateway');
    assert.equal(discovery.status, 200, discovery.text);
    bot = await startDiscordPyBot('discord_on_message.py', [server.api, discovery.body.url, OTHER_BOT_TOKEN]);
    lines = bot.lines;
    const ready = bot.ready;
    assert.equal(ready.user_id, OTHER_APP_ID);
  });

  after(async () => {
    await bot?.stop();
    await server?.close();
  });

  test('alice posts "!ping"; discord.py replies; alice reads it; a bulk delete reaches discord.py', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: ALICE_TOKEN,
      body: { content: '!ping' },
    });
    assert.equal(sent.status, 200, sent.text);
    const replied = await lines
      .find((l) => ['replied', 'crashed', 'error'].includes(l.event), 'the reply')
      .catch((error: Error) => assert.fail(`${error.message}\ndiscord.py said: ${bot.stderr()}`));
    assert.equal(replied.event, 'replied', `${JSON.stringify(replied)}\n${bot.stderr()}`);
    assert.equal(replied.to, sent.body.id);
    assert.equal(replied.reference, sent.body.id);

    const read = await server.request('GET', `/channels/${GENERAL}/messages/${replied.reply}`, { auth: ALICE_TOKEN });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.content, 'pong for alice');
    assert.equal(read.body.author.id, OTHER_APP_ID);
    assert.equal(read.body.message_reference.message_id, sent.body.id);
    assert.deepEqual(
      read.body.mentions.map((u: Json) => u.id),
      [ALICE_ID],
    );

    const ids = [sent.body.id as string, replied.reply as string];
    const bulk = await server.request('POST', `/channels/${GENERAL}/messages/bulk-delete`, {
      auth: BOT,
      body: { messages: ids },
    });
    assert.equal(bulk.status, 204, bulk.text);
    const deleted = await lines.find((l) => l.event === 'bulk_deleted', 'on_raw_bulk_message_delete');
    assert.deepEqual(deleted, { event: 'bulk_deleted', ids: [...ids].sort(), channel_id: GENERAL });
  });
});
