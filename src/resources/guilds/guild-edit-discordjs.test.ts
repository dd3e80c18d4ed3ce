/**
 * A discord.js bot edits its guild as its users do (`guild.edit({ name, systemChannel, ... })`,
 * `guild.setName`) against slashd: the answer, discord.js's cached guild and `guildUpdate` (with the
 * guild before and after) show the change; without MANAGE_GUILD it gets v10's 50013, and a system
 * channel of another guild is v10's 50035.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, GuildVerificationLevel, type Guild, type TextChannel } from 'discord.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  SECOND_GUILD_CHANNEL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** MANAGE_GUILD. */
const MANAGE_GUILD = 1n << 5n;

describe('a discord.js bot edits its guild', () => {
  let server: TestServer;
  let client: Client;
  let guild: Guild;
  const updates = new Inbox<{ before: Guild; after: Guild }>((u) => u.after.name);

  before(async () => {
    server = await startServer({ world: gatewayWorld() });
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.GuildUpdate, (before, after) => updates.push({ before, after }));
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    guild = await client.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  test('without MANAGE_GUILD: 50013', async () => {
    await assert.rejects(guild.edit({ name: 'Nope' }), v10Error(403, 50013));
    assert.equal(guild.name, 'Test Guild');
  });

  test('guild.edit({ name, systemChannel, verificationLevel }): the guild after it, and guildUpdate', async () => {
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, MANAGE_GUILD);
    const general = (await guild.channels.fetch(GENERAL)) as TextChannel;
    const edited = await guild.edit({
      name: 'Edited by discord.js',
      systemChannel: general,
      verificationLevel: GuildVerificationLevel.Medium,
      description: 'edited',
      reason: 'rebrand',
    });
    assert.equal(edited.name, 'Edited by discord.js');
    assert.equal(edited.systemChannelId, GENERAL);
    assert.equal(edited.systemChannel?.id, GENERAL);
    assert.equal(edited.verificationLevel, GuildVerificationLevel.Medium);
    const update = await updates.find((u) => u.after.name === 'Edited by discord.js', 'guildUpdate');
    assert.equal(update.before.name, 'Test Guild');
    assert.equal(update.after.systemChannelId, GENERAL);
    assert.equal(client.guilds.cache.get(TEST_GUILD_ID)?.description, 'edited');
  });

  test('guild.setName, and a system channel of another guild is 50035', async () => {
    await guild.setName('Renamed again');
    await updates.find((u) => u.after.name === 'Renamed again', 'guildUpdate of setName');
    await assert.rejects(guild.edit({ systemChannel: SECOND_GUILD_CHANNEL }), v10Error(400, 50035));
    const fetched = await client.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
    assert.equal(fetched.systemChannelId, GENERAL, 'nothing written');
  });
});
