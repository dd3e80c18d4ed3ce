/**
 * An unmodified discord.js `Client` against slashd over the gateway: only `rest.api` points at
 * slashd; the WebSocket URL comes from `GET /gateway/bot`, as for any bot. It logs in, becomes
 * ready with its application, receives each of its guilds (with roles and channels) and a guild it
 * is installed in later; a user invokes slash commands and the bot answers through discord.js's own
 * `reply`, `deferReply` + `editReply`, `followUp`, an ephemeral reply and autocomplete `respond`;
 * the user reads every answer; a permissions PUT reaches the bot as
 * `applicationCommandPermissionsUpdate`. Every wait is on an event, with a guard for failure only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  type ApplicationCommandPermissionsUpdateData,
  type Guild,
  type Interaction,
  type Role,
} from 'discord.js';
import type { World } from '../src/core/world/types.js';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ADDED_GUILD_ID,
  ADMIN_TOKEN,
  ALICE_ID,
  ALICE_TOKEN as ALICE,
  BOT,
  CAROL_TOKEN as CAROL,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  MODERATOR_ROLE,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

type Json = any;

const ALICE_PERMISSIONS = 'Bearer alice-perm-token';
/** A guild created through the admin API after the bot is ready, with the bot installed. */
const LATER_GUILD_ID = ADDED_GUILD_ID;
const NEW_ROLE_ID = '1345183757107200005';

const COMMANDS: Json[] = [
  { name: 'hello', description: 'Says hello' },
  { name: 'later', description: 'Answers later' },
  { name: 'more', description: 'Answers twice' },
  { name: 'secret', description: 'Answers only you' },
  { name: 'whois', description: 'Reads the member and posts in the channel' },
  {
    name: 'search',
    description: 'Searches',
    options: [{ type: 3, name: 'query', description: 'What', required: true, autocomplete: true }],
  },
];

/** The example world, with the demo bot also in the Second Guild: two guilds at start-up. */
function e2eWorld(): World {
  const world = exampleWorld();
  const second = world.guilds.find((g) => g.id === SECOND_GUILD_ID)!;
  second.installs.push({
    application_id: DEMO_APP_ID,
    scopes: ['bot', 'applications.commands'],
    permissions: '2147552256',
  });
  return world;
}

/** What the bot did with one interaction: resolved once its handler has finished. */
interface Handled {
  id: string;
  error: unknown;
}

describe('an unmodified discord.js Client over the slashd gateway', () => {
  let server: TestServer;
  let client: Client;
  const commands: Record<string, Json> = {};
  const available = new Inbox<Guild>((g) => `guildAvailable ${g.id}`);
  const created = new Inbox<Guild>((g) => `guildCreate ${g.id}`);
  const roles = new Inbox<Role>((r) => `roleCreate ${r.id}`);
  const raw = new Inbox<Json>((p) => `${p.t}`);
  const handled = new Inbox<Handled>((h) => `handled ${h.id}`);
  const permissionUpdates = new Inbox<ApplicationCommandPermissionsUpdateData>((d) => `permissions ${d.id}`);
  let readyAt: Client<true> | null = null;

  /** The bot's answers, by command name: discord.js's own interaction methods, nothing else. */
  async function answer(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) {
      const typed = interaction.options.getFocused();
      await interaction.respond([
        { name: `${typed}-one`, value: `${typed}1` },
        { name: `${typed}-two`, value: `${typed}2` },
      ]);
      return;
    }
    if (!interaction.isChatInputCommand()) return;
    switch (interaction.commandName) {
      case 'hello':
        await interaction.reply(`hello ${interaction.user.username} from discord.js`);
        return;
      case 'later':
        await interaction.deferReply();
        await interaction.editReply('done, later');
        return;
      case 'more':
        await interaction.reply('first answer');
        await interaction.followUp('a follow-up');
        return;
      case 'secret':
        await interaction.reply({ content: 'only for you', flags: MessageFlags.Ephemeral });
        return;
      case 'whois': {
        // The REST reads and writes a bot makes while handling: the member, the channel, a message.
        const member = await interaction.guild!.members.fetch({ user: interaction.user.id, force: true });
        const channel = await client.channels.fetch(interaction.channelId, { force: true });
        if (!channel?.isSendable()) throw new Error(`channel ${interaction.channelId} is not sendable`);
        await channel.send(`posted by the bot in #${'name' in channel ? channel.name : '?'}`);
        const roles = member.roles.cache.filter((r) => r.id !== interaction.guildId).map((r) => r.name);
        await interaction.reply(`${member.user.username}: ${roles.join(', ')}`);
        return;
      }
    }
  }

  before(async () => {
    server = await startServer({ world: e2eWorld() });
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: COMMANDS,
    });
    assert.equal(deployed.status, 200, deployed.text);
    for (const command of deployed.body as Json[]) commands[command.name] = command;

    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.GuildAvailable, (guild) => available.push(guild));
    client.on(Events.GuildCreate, (guild) => created.push(guild));
    client.on(Events.GuildRoleCreate, (role) => roles.push(role));
    client.on(Events.Raw, (packet: Json) => raw.push(packet));
    client.on(Events.ApplicationCommandPermissionsUpdate, (data) => permissionUpdates.push(data));
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).then(
        () => handled.push({ id: interaction.id, error: null }),
        (error: unknown) => handled.push({ id: interaction.id, error }),
      );
    });
    const ready = new Inbox<Client<true>>(() => 'ready');
    client.once(Events.ClientReady, (c) => ready.push(c));
    await client.login(DEMO_BOT_TOKEN);
    readyAt = await ready.find(() => true, 'ready');
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  /** Alice (or `auth`) invokes a deployed command in #general; the bot's handler has finished when this resolves. */
  async function invoke(name: string, data: Json = {}, type = 2, auth = ALICE): Promise<string> {
    const command = commands[name]!;
    const response = await server.request('POST', '/interactions', {
      auth,
      body: invocationBody(command, { type, data }),
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const done = await handled.find((h) => h.id === id, `the bot's handling of interaction ${id}`);
    assert.equal(done.error, null, `the bot's answer failed: ${String(done.error)}`);
    return id;
  }

  async function status(id: string, auth = ALICE): Promise<Json> {
    const response = await server.request('GET', `/interactions/${id}`, { auth });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  /** The messages of this interaction in #general as `auth`'s user sees them, oldest first. */
  async function answersTo(id: string, auth = ALICE): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth });
    assert.equal(response.status, 200, response.text);
    return (response.body as Json[]).filter((m) => m.interaction_metadata?.id === id).reverse();
  }

  test('logs in: ready fires with client.application set and the user of the bot', () => {
    assert.ok(readyAt, 'ready fired');
    assert.equal(client.application?.id, DEMO_APP_ID);
    assert.equal(client.user?.id, DEMO_APP_ID, "the bot user has the application's id");
    assert.equal(client.user?.bot, true);
    const readyPacket = raw.all().find((p) => p.t === 'READY');
    assert.ok(readyPacket, 'a READY dispatch');
    assert.equal(readyPacket.d.v, 10);
    assert.equal(typeof readyPacket.d.session_id, 'string');
    assert.equal(typeof readyPacket.d.resume_gateway_url, 'string');
    assert.deepEqual(readyPacket.d.guilds.map((g: Json) => g.id).sort(), [TEST_GUILD_ID, SECOND_GUILD_ID].sort());
    for (const guild of readyPacket.d.guilds) assert.equal(guild.unavailable, true, 'guilds in READY are unavailable');
  });

  test('one GUILD_CREATE per guild (guildAvailable in discord.js), before ready', async () => {
    const guilds = await available.findMany(2, () => true, 'guildAvailable');
    assert.deepEqual(guilds.map((g) => g.id).sort(), [TEST_GUILD_ID, SECOND_GUILD_ID].sort());
    const packets = raw.all().filter((p) => p.t === 'GUILD_CREATE');
    assert.deepEqual(packets.map((p) => p.d.id).sort(), [TEST_GUILD_ID, SECOND_GUILD_ID].sort());
  });

  test('client.guilds.cache has each guild with its roles and channels', () => {
    const guild = client.guilds.cache.get(TEST_GUILD_ID);
    assert.ok(guild, 'the Test Guild is cached');
    assert.equal(guild.name, 'Test Guild');
    assert.equal(guild.available, true);
    assert.equal(guild.ownerId, ALICE_ID);
    assert.deepEqual(
      guild.roles.cache.map((r) => r.name).sort(),
      ['@everyone', 'Admin', 'Moderator', 'Muted'].sort(),
      'every role',
    );
    assert.equal(guild.roles.everyone.id, TEST_GUILD_ID);
    assert.equal(guild.roles.cache.get(MODERATOR_ROLE)?.permissions.bitfield, 268435490n);
    const channels = guild.channels.cache.map((c) => c.name).sort();
    for (const name of ['Text', 'general', 'nsfw-lounge', 'announcements', 'a-thread']) {
      assert.ok(channels.includes(name), `channel ${name} cached (have ${channels.join(', ')})`);
    }
    assert.equal(guild.channels.cache.get(GENERAL)?.isTextBased(), true);
    assert.ok(guild.memberCount >= 4, `member_count ${guild.memberCount}`);
    assert.ok(guild.members.me, "the bot's own member is cached");
    const second = client.guilds.cache.get(SECOND_GUILD_ID);
    assert.equal(second?.name, 'Second Guild');
    assert.deepEqual(
      second?.channels.cache.map((c) => c.name),
      ['allgemein'],
    );
  });

  test('a user invokes a slash command: interactionCreate fires and interaction.reply is what the user reads', async () => {
    const id = await invoke('hello');
    const state = await status(id);
    assert.equal(state.state, 'responded');
    assert.equal(state.response.type, 4);
    assert.equal(state.response.data.content, 'hello alice from discord.js');
    const [message] = await answersTo(id);
    assert.equal(message?.content, 'hello alice from discord.js');
    assert.equal(message.author.id, DEMO_APP_ID);
    assert.equal(message.interaction_metadata.user.id, ALICE_ID);
    assert.ok((await answersTo(id, CAROL)).length === 1, 'a public answer: another member reads it too');
  });

  test('deferReply then editReply: the user reads the edited answer', async () => {
    const id = await invoke('later');
    assert.equal((await status(id)).state, 'responded');
    const messages = await answersTo(id);
    assert.equal(messages.length, 1, 'one message, edited in place');
    assert.equal(messages[0].content, 'done, later');
    assert.equal((messages[0].flags ?? 0) & (1 << 7), 0, 'no longer loading');
  });

  test('reply then followUp: the user reads both, in order', async () => {
    const id = await invoke('more');
    const messages = await answersTo(id);
    assert.deepEqual(
      messages.map((m) => m.content),
      ['first answer', 'a follow-up'],
    );
  });

  test('an ephemeral reply: the invoking user reads it, another member does not', async () => {
    const id = await invoke('secret');
    const [message] = await answersTo(id);
    assert.equal(message?.content, 'only for you');
    assert.equal(message.flags & MessageFlags.Ephemeral, MessageFlags.Ephemeral);
    assert.deepEqual(await answersTo(id, CAROL), [], 'carol does not see it');
  });

  test('the bot fetches the member and the channel and sends a message while handling', async () => {
    const id = await invoke('whois');
    const [answer] = await answersTo(id);
    assert.equal(answer?.content, 'alice: Admin');
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=10`, { auth: ALICE });
    const posted = (response.body as Json[]).find((m) => m.content === 'posted by the bot in #general');
    assert.ok(posted, 'the user reads the message the bot sent');
    assert.equal(posted.author.id, DEMO_APP_ID);
  });

  test('autocomplete: respond() gives the user the choices', async () => {
    const id = await invoke('search', { options: [{ name: 'query', type: 3, value: 'sla', focused: true }] }, 4);
    const state = await status(id);
    assert.equal(state.state, 'responded');
    assert.equal(state.response.type, 8);
    assert.deepEqual(
      state.response.data.choices.map((c: Json) => [c.name, c.value]),
      [
        ['sla-one', 'sla1'],
        ['sla-two', 'sla2'],
      ],
    );
  });

  test('a permissions PUT fires applicationCommandPermissionsUpdate with the new overwrites', async () => {
    const hello = commands.hello!;
    const put = await server.request(
      'PUT',
      `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${hello.id}/permissions`,
      { auth: ALICE_PERMISSIONS, body: { permissions: [{ id: MODERATOR_ROLE, type: 1, permission: true }] } },
    );
    assert.equal(put.status, 200, put.text);
    const update = await permissionUpdates.find((d) => d.id === hello.id, 'applicationCommandPermissionsUpdate');
    assert.equal(update.guildId, TEST_GUILD_ID);
    assert.equal(update.applicationId, DEMO_APP_ID);
    assert.deepEqual(
      update.permissions.map((p) => ({ id: p.id, type: p.type, permission: p.permission })),
      [{ id: MODERATOR_ROLE, type: 1, permission: true }],
    );
  });

  test('a role created through the admin API reaches the cache (roleCreate)', async () => {
    const guild = (await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
    })) as Json;
    assert.equal(guild.status, 200, guild.text);
    const changed = {
      ...guild.body,
      roles: [...guild.body.roles, { id: NEW_ROLE_ID, name: 'Helper', permissions: '0' }],
    };
    const put = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: changed,
    });
    assert.equal(put.status, 200, put.text);
    const role = await roles.find((r) => r.id === NEW_ROLE_ID, 'roleCreate');
    assert.equal(role.name, 'Helper');
    assert.equal(client.guilds.cache.get(TEST_GUILD_ID)?.roles.cache.get(NEW_ROLE_ID)?.name, 'Helper');
  });

  test('a guild the bot is installed in after ready fires guildCreate', async () => {
    const put = await server.request('PUT', `${server.url}/admin/guilds/${LATER_GUILD_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: {
        id: LATER_GUILD_ID,
        name: 'Later Guild',
        owner_id: ALICE_ID,
        preferred_locale: 'en-US',
        roles: [{ id: LATER_GUILD_ID, name: '@everyone', permissions: '2147552256' }],
        channels: [{ id: '1345183757107202011', type: 0, name: 'lobby' }],
        members: [{ user_id: ALICE_ID, roles: [], joined_at: '2025-03-06T00:00:00.000Z' }],
        installs: [{ application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'] }],
      },
    });
    assert.equal(put.status, 200, put.text);
    const guild = await created.find((g) => g.id === LATER_GUILD_ID, 'guildCreate');
    assert.equal(guild.name, 'Later Guild');
    assert.deepEqual(
      guild.channels.cache.map((c) => c.name),
      ['lobby'],
    );
    assert.ok(client.guilds.cache.has(LATER_GUILD_ID));
  });
});
