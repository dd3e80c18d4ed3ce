/**
 * An unmodified discord.js `Client` (no gateway: only `rest.api` pointed at slashd) reads the world
 * and sends messages through its managers, exactly as a bot handling an interaction does: the guild,
 * its channels, roles and a member, a user, the bot's guilds, a channel, and its messages (send,
 * fetch a page, fetch one, edit, delete). Every response also passes the OpenAPI checks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChannelType, Client, type TextChannel } from 'discord.js';
import { withSchemaChecks } from './helpers/openapi.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  BOB_ID,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE as HELLO,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
} from './helpers/world.js';

describe('discord.js Client reads the world and sends messages', () => {
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = withSchemaChecks(await startServer());
    client = new Client({ intents: [], rest: { api: `${server.url}/api` } });
    client.token = DEMO_BOT_TOKEN;
    client.rest.setToken(DEMO_BOT_TOKEN);
  });
  after(async () => {
    await client.destroy();
    await server.close();
  });

  test('guilds.fetch(id): the guild, then its channels, roles and a member', async () => {
    const guild = await client.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
    assert.equal(guild.name, 'Test Guild');
    assert.equal(guild.approximateMemberCount, 5);
    assert.equal(guild.roles.everyone.id, TEST_GUILD_ID);
    const channels = await guild.channels.fetch();
    assert.equal(channels.get(GENERAL)?.type, ChannelType.GuildText);
    assert.equal(channels.get(GENERAL)?.parentId, CATEGORY);
    const roles = await guild.roles.fetch();
    assert.equal(roles.size, 4);
    assert.equal(roles.find((r) => r.name === 'Admin')?.position, 3);
    const bob = await guild.members.fetch(BOB_ID);
    assert.equal(bob.nickname, 'Bobby');
    assert.equal(bob.user.username, 'bob');
    assert.ok(bob.roles.cache.has(MODERATOR_ROLE));
    const me = await guild.members.fetch(DEMO_APP_ID);
    assert.equal(me.user.bot, true);
  });

  test("users.fetch and guilds.fetch(): a user, and the bot's guilds", async () => {
    const bob = await client.users.fetch(BOB_ID, { force: true });
    assert.equal(bob.username, 'bob');
    const guilds = await client.guilds.fetch();
    assert.deepEqual([...guilds.keys()], [TEST_GUILD_ID]);
  });

  test('channels.fetch, send, messages.fetch, edit and delete', async () => {
    const channel = (await client.channels.fetch(GENERAL, { force: true })) as TextChannel;
    assert.equal(channel.name, 'general');
    const sent = await channel.send({ content: 'from discord.js', embeds: [{ title: 'An embed' }] });
    assert.equal(sent.content, 'from discord.js');
    assert.equal(sent.author.id, DEMO_APP_ID);
    assert.equal(sent.embeds[0]?.title, 'An embed');
    const page = await channel.messages.fetch({ limit: 2 });
    assert.deepEqual([...page.keys()], [sent.id, HELLO]);
    const hello = await channel.messages.fetch({ message: HELLO, force: true });
    assert.equal(hello.content, 'hello world');
    const edited = await channel.messages.edit(sent.id, { content: 'edited' });
    assert.equal(edited.content, 'edited');
    assert.ok(edited.editedTimestamp);
    await channel.messages.delete(sent.id);
    const after = await channel.messages.fetch({ limit: 10 });
    assert.deepEqual([...after.keys()], [HELLO]);
  });
});
