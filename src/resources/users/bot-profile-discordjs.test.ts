/**
 * discord.js as its users change their bot, against slashd: `client.user.setUsername('x')` (a
 * reserved name refused with 50035), `client.user.setAvatar(buffer)` and
 * `client.user.edit({ banner })`; `client.user` shows each, `avatarURL()` names an image slashd
 * serves (`rest.cdn` pointing at slashd), another client logging in later is READY with the new
 * name, and a message the bot sends carries it as its author.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type TextChannel } from 'discord.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL } from '../../../test/helpers/world.js';

async function loggedIn(server: TestServer): Promise<Client> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
    rest: { api: `${server.url}/api`, cdn: server.url },
  });
  const ready = new Inbox<string>();
  client.once(Events.ClientReady, () => ready.push('ready'));
  await client.login(DEMO_BOT_TOKEN);
  await ready.find(() => true, 'ready');
  return client;
}

describe('discord.js: client.user.setUsername, setAvatar, edit({ banner })', () => {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = await startServer();
    client = await loggedIn(server);
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  test('the bot renames itself and sets its images; every later read shows them', async () => {
    const me = client.user!;
    assert.equal(me.username, 'Demo Bot');
    await assert.rejects(me.setUsername('the discord bot'), v10Error(400, 50035));
    await me.setUsername('Renamed by djs');
    assert.equal(client.user!.username, 'Renamed by djs');

    const avatar = pngImage(5, 5);
    await client.user!.setAvatar(avatar);
    const avatarUrl = client.user!.avatarURL({ extension: 'png' });
    assert.ok(avatarUrl?.startsWith(`${server.url}/avatars/${DEMO_APP_ID}/`), String(avatarUrl));
    const served = await fetch(avatarUrl!);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), avatar);

    const banner = pngImage(9, 3);
    await client.user!.edit({ banner });
    const bannerUrl = client.user!.bannerURL({ extension: 'png' });
    assert.ok(bannerUrl, 'a banner is set');
    assert.deepEqual(Buffer.from(await (await fetch(bannerUrl)).arrayBuffer()), banner);

    const channel = (await client.channels.fetch(GENERAL)) as TextChannel;
    const sent = await channel.send('after the rename');
    assert.equal(sent.author.username, 'Renamed by djs');
    assert.equal(sent.author.avatar, client.user!.avatar);

    const later = await loggedIn(server);
    try {
      assert.equal(later.user!.username, 'Renamed by djs');
      assert.equal(later.user!.avatar, client.user!.avatar);
      assert.equal(later.user!.banner, client.user!.banner);
    } finally {
      await later.destroy();
    }

    await client.user!.setAvatar(null);
    assert.equal(client.user!.avatar, null);
  });
});
