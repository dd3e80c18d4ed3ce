/**
 * A discord.js bot sends a reminder by DM (`user.send`) against slashd: the DM channel is the pair's
 * one (the same on a second open), the user reads it and answers with their own token, the bot gets
 * the answer as MESSAGE_CREATE under DIRECT_MESSAGES, and nobody else reads the channel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChannelType, DiscordAPIError, GatewayIntentBits, Routes, type Client } from 'discord.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOB_TOKEN, CAROL_ID, CAROL_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, NOBODY } from '../../../test/helpers/world.js';

describe('a discord.js bot sends DMs', () => {
  let server: TestServer;
  let bot: Client;
  const raw = new Inbox<RawDispatch>((p) => `${p.t} ${p.d?.id ?? ''}`);

  before(async () => {
    server = await startServer();
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages], raw);
  });
  after(async () => {
    await bot?.destroy();
    await server?.close();
  });

  test('user.send opens the DM; the user reads it with their own token and answers; the bot is told', async () => {
    const carol = await bot.users.fetch(CAROL_ID);
    const sent = await carol.send('reminder: standup at 10');
    assert.equal(sent.channel.type, ChannelType.DM);
    const dmId = sent.channelId;
    const again = await carol.send('and bring coffee');
    assert.equal(again.channelId, dmId, 'the same DM channel on the second send');
    const reopened = (await bot.rest.post(Routes.userChannels(), { body: { recipient_id: CAROL_ID } })) as {
      id: string;
      type: number;
      recipients: { id: string }[];
    };
    assert.equal(reopened.id, dmId, 'opening again returns the same channel');
    assert.equal(reopened.type, 1);
    assert.deepEqual(
      reopened.recipients.map((r) => r.id),
      [CAROL_ID],
    );

    const read = await server.request('GET', `/channels/${dmId}/messages`, { auth: CAROL_TOKEN });
    assert.equal(read.status, 200, read.text);
    const messages = read.body as unknown as { content: string; author: { id: string } }[];
    assert.deepEqual(
      messages.map((m) => m.content),
      ['and bring coffee', 'reminder: standup at 10'],
    );
    assert.equal(messages[0]?.author.id, DEMO_APP_ID);
    const channel = await server.request('GET', `/channels/${dmId}`, { auth: CAROL_TOKEN });
    assert.equal((channel.body as { recipients: { id: string }[] }).recipients[0]?.id, DEMO_APP_ID);

    const listed = await server.request('GET', '/users/@me/channels', { auth: CAROL_TOKEN });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      (listed.body as unknown as { id: string; recipients: { id: string }[] }[]).map((c) => [
        c.id,
        c.recipients[0]?.id,
      ]),
      [[dmId, DEMO_APP_ID]],
      'the user’s DMs list it, with the bot at its other end',
    );

    const answer = await server.request('POST', `/channels/${dmId}/messages`, {
      auth: CAROL_TOKEN,
      body: { content: 'on my way' },
    });
    assert.equal(answer.status, 200, answer.text);
    const told = await raw.find(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.channel_id === dmId && p.d.author.id === CAROL_ID,
      'MESSAGE_CREATE of the answer',
    );
    assert.equal(told.d.content, 'on my way', 'a DM to the bot carries its content');
    assert.equal(told.d.guild_id, undefined);
  });

  test('nobody else reads the DM; an unknown user has no DM', async () => {
    const carol = await bot.users.fetch(CAROL_ID);
    const dm = await carol.createDM();
    const other = await server.request('GET', `/channels/${dm.id}/messages`, { auth: BOB_TOKEN });
    assert.equal(other.status, 403, other.text);
    assert.equal((other.body as { code: number }).code, 50001);
    const post = await server.request('POST', `/channels/${dm.id}/messages`, {
      auth: BOB_TOKEN,
      body: { content: 'hi' },
    });
    assert.equal(post.status, 403, post.text);
    await assert.rejects(bot.rest.post(Routes.userChannels(), { body: { recipient_id: NOBODY } }), (error: unknown) => {
      assert.ok(error instanceof DiscordAPIError);
      assert.equal(error.code, 10013);
      return true;
    });
  });
});
