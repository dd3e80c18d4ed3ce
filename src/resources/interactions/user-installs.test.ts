/**
 * A user install (integration type 1) follows its user: after erin installs Demo Bot to her account,
 * its user-installable commands are in her picker and answer in a guild the bot is not in (context
 * 0) and in her DM with the bot (context 1), with v10's `authorizing_integration_owners`, `context`
 * and `app_permissions`, answered by a real discord.js bot over the gateway (reply and follow-up,
 * no bot in the guild). A member without USE_EXTERNAL_APPS gets the answers ephemeral. The world
 * has no group DMs (context 2), so there is no group DM case.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Events, GatewayIntentBits, type Client, type Interaction } from 'discord.js';
import { InteractionContextType } from 'discord-api-types/v10';
import { Inbox } from '../../../test/helpers/inbox.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import type { Json } from '../../../test/helpers/json.js';
import { consent } from '../../../test/helpers/oauth2.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_ID,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

/** @everyone's bits in the second guild (VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY, USE_APPLICATION_COMMANDS). */
const SECOND_GUILD_EVERYONE = '2147552256';
/** v10's bot-DM app_permissions: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS. */
const BOT_DM_APP_PERMISSIONS = String((1n << 15n) | (1n << 14n) | (1n << 17n) | (1n << 18n));
const EPHEMERAL = 64;

/** What the bot saw of one interaction, as discord.js reads it. */
interface Seen {
  id: string;
  guildId: string | null;
  context: number | null;
  /** discord.js's reading of `authorizing_integration_owners`. */
  owners: { guildId: string | null; userId: string | null };
  /** The field as sent. */
  rawOwners: unknown;
  appPermissions: string;
  userId: string;
}

describe('user installs: the picker and invocations in a guild without the bot and in the bot DM', () => {
  let server: TestServer;
  let bot: Client;
  const seen = new Inbox<Seen>();
  const raw = new Inbox<RawDispatch>();
  const commands: Record<string, Json> = {};

  before(async () => {
    const world = exampleWorld();
    // bob joins erin's guild (where only Other App is) with @everyone alone: no USE_EXTERNAL_APPS.
    world.guilds
      .find((g) => g.id === SECOND_GUILD_ID)!
      .members.push({ user_id: BOB_ID, roles: [], nick: null, joined_at: '2025-01-01T00:00:00.000Z' });
    server = await startServer({ world });
    for (const body of [
      { name: 'note', description: 'A note to self', integration_types: [1], contexts: [0, 1, 2] },
      { name: 'guildside', description: 'Guild installs only', integration_types: [0], contexts: [0, 1] },
      { name: 'dmonly', description: 'Only in DMs', integration_types: [1], contexts: [1] },
    ]) {
      const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, { auth: BOT, body });
      assert.equal(created.status, 201, created.text);
      commands[body.name] = created.body as Json;
    }
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw, (client) => {
      client.on(Events.InteractionCreate, (interaction: Interaction) => {
        if (!interaction.isChatInputCommand()) return;
        seen.push({
          id: interaction.id,
          guildId: interaction.guildId,
          context: interaction.context,
          owners: {
            guildId: interaction.authorizingIntegrationOwners.guildId,
            userId: interaction.authorizingIntegrationOwners.userId,
          },
          rawOwners: raw.all().find((packet) => packet.t === 'INTERACTION_CREATE' && packet.d.id === interaction.id)?.d
            .authorizing_integration_owners,
          appPermissions: interaction.appPermissions.bitfield.toString(),
          userId: interaction.user.id,
        });
        void (async () => {
          await interaction.reply({ content: `noted for ${interaction.user.username}` });
          await interaction.followUp({ content: 'and a follow-up' });
        })();
      });
    });
  });

  after(async () => {
    await bot?.destroy();
    await server?.close();
  });

  const picker = (channelId: string, token: string) =>
    server.request('GET', `/channels/${channelId}/application-command-index`, { auth: token });
  const names = (index: Json) => (index.application_commands as Json[]).map((c) => c.name as string).sort();
  const invoke = (token: string, name: string, guildId: string | null, channelId: string) =>
    server.request('POST', '/interactions', {
      auth: token,
      body: invocationBody(commands[name]!, { guildId, channelId }),
    });

  async function installForUser(userToken: string): Promise<void> {
    const query = new URLSearchParams({
      client_id: DEMO_APP_ID,
      scope: 'applications.commands',
      integration_type: '1',
    });
    const result = await consent(server.url, `${server.url}/oauth2/authorize?${query.toString()}`, { userToken });
    assert.ok(result.status < 400, `the install went through: ${result.status} ${result.page.slice(0, 200)}`);
  }

  /** The channel's messages as `token` reads them, once `count` of the app's are there (bounded polling). */
  async function appMessages(channelId: string, token: string, count: number): Promise<Json[]> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const listed = await server.request('GET', `/channels/${channelId}/messages`, { auth: token });
      assert.equal(listed.status, 200, listed.text);
      const ofApp = (listed.body as Json[]).filter((m) => m.application_id === DEMO_APP_ID);
      if (ofApp.length >= count) return ofApp.reverse();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.fail(`${count} messages of the app never appeared in ${channelId}`);
  }

  test('before the install: nothing in the picker of a guild without the bot, and invoking there is 403 50013', async () => {
    const index = await picker(SECOND_GUILD_CHANNEL, ERIN_TOKEN);
    assert.equal(index.status, 200, index.text);
    assert.deepEqual(names(index.body as Json), []);
    const refused = await invoke(ERIN_TOKEN, 'note', SECOND_GUILD_ID, SECOND_GUILD_CHANNEL);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 50013);
  });

  test("after it: the guild's picker lists the commands whose contexts name GUILD and integration types USER_INSTALL", async () => {
    await installForUser(ERIN_TOKEN);
    const index = await picker(SECOND_GUILD_CHANNEL, ERIN_TOKEN);
    assert.equal(index.status, 200, index.text);
    assert.deepEqual(names(index.body as Json), ['note'], 'not the guild-install command, not the DM-only one');
    assert.deepEqual(
      (index.body.applications as Json[]).map((a) => a.id),
      [DEMO_APP_ID],
    );
    const bobs = await picker(SECOND_GUILD_CHANNEL, BOB_TOKEN);
    assert.deepEqual(names(bobs.body as Json), [], "erin's install is hers alone");
  });

  test('invoked in the guild without the bot: v10 fields, a public reply and a follow-up as the app', async () => {
    const answered = await invoke(ERIN_TOKEN, 'note', SECOND_GUILD_ID, SECOND_GUILD_CHANNEL);
    assert.equal(answered.status, 200, answered.text);
    const interaction = await seen.find((s) => s.id === answered.body.id, 'the bot gets the interaction');
    assert.equal(interaction.guildId, SECOND_GUILD_ID);
    assert.equal(interaction.context, InteractionContextType.Guild);
    assert.deepEqual(interaction.rawOwners, { '1': ERIN_ID }, 'only her install authorizes it');
    assert.deepEqual(interaction.owners, { guildId: null, userId: ERIN_ID });
    assert.equal(interaction.appPermissions, SECOND_GUILD_EVERYONE, "@everyone's bits in the channel");
    const [reply, followUp] = await appMessages(SECOND_GUILD_CHANNEL, BOB_TOKEN, 2);
    assert.equal(reply!.content, 'noted for erin');
    assert.equal(followUp!.content, 'and a follow-up');
    for (const message of [reply!, followUp!]) {
      assert.equal(((message.flags as number) ?? 0) & EPHEMERAL, 0, 'shown to the channel: erin may use external apps');
      assert.equal(message.webhook_id, DEMO_APP_ID, 'sent as the app');
      assert.deepEqual((message.interaction_metadata as Json).authorizing_integration_owners, { '1': ERIN_ID });
    }
  });

  test('a member without USE_EXTERNAL_APPS gets the answers ephemeral: seen by them, not by the channel', async () => {
    await installForUser(BOB_TOKEN);
    const answered = await invoke(BOB_TOKEN, 'note', SECOND_GUILD_ID, SECOND_GUILD_CHANNEL);
    assert.equal(answered.status, 200, answered.text);
    const interaction = await seen.find((s) => s.id === answered.body.id, "bob's interaction");
    assert.deepEqual(interaction.rawOwners, { '1': BOB_ID });
    const bobSees = await appMessages(SECOND_GUILD_CHANNEL, BOB_TOKEN, 4);
    const his = bobSees.filter((m) => (m.interaction_metadata as Json).user.id === BOB_ID);
    assert.equal(his.length, 2, 'his reply and follow-up');
    for (const message of his) assert.equal((message.flags as number) & EPHEMERAL, EPHEMERAL);
    const erinSees = await appMessages(SECOND_GUILD_CHANNEL, ERIN_TOKEN, 2);
    assert.equal(erinSees.filter((m) => (m.interaction_metadata as Json).user.id === BOB_ID).length, 0);
  });

  test("the bot DM's picker lists the user-installed and bot-DM commands, and they answer there", async () => {
    const dm = await server.request('POST', '/users/@me/channels', { auth: BOT, body: { recipient_id: ERIN_ID } });
    assert.equal(dm.status, 200, dm.text);
    const dmId = dm.body.id as string;
    const index = await picker(dmId, ERIN_TOKEN);
    assert.equal(index.status, 200, index.text);
    assert.deepEqual(names(index.body as Json), ['dmonly', 'guildside', 'note']);
    const strangers = await picker(dmId, BOB_TOKEN);
    assert.equal(strangers.status, 403, "someone else's DM");
    assert.equal(strangers.body.code, 50001);

    const answered = await invoke(ERIN_TOKEN, 'dmonly', null, dmId);
    assert.equal(answered.status, 200, answered.text);
    const interaction = await seen.find((s) => s.id === answered.body.id, 'the DM interaction');
    assert.equal(interaction.guildId, null);
    assert.equal(interaction.context, InteractionContextType.BotDM);
    assert.deepEqual(interaction.rawOwners, { '1': ERIN_ID });
    assert.equal(interaction.appPermissions, BOT_DM_APP_PERMISSIONS);
  });
});
