/**
 * A user install from the web console (Debian's Chromium, a real slashd, an unmodified discord.js
 * bot over the gateway): erin installs Demo Bot to her account, then in the console opens a guild
 * the bot is not in and a group DM of hers, finds the user-installed command in the picker (and
 * not the guild-install or bot-DM ones), runs it, and reads the app's reply and follow-up there.
 * The app receives v10's `context` (0 in the guild, 2 in the group DM),
 * `authorizing_integration_owners {"1": erin}` and `app_permissions` of a bot that is not there.
 * bob, who lacks USE_EXTERNAL_APPS in that guild, gets his answer ephemeral: his console shows it
 * ("Only you can see this"), erin's does not. "Why not?" in both places names the user-install
 * rule of each command.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChannelType, Events, GatewayIntentBits, type Client, type Interaction } from 'discord.js';
import { InteractionContextType } from 'discord-api-types/v10';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  composer,
  messageWith,
  openConsole,
  openPicker,
  pageErrors,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import type { Json } from '../../../test/helpers/json.js';
import { consent } from '../../../test/helpers/oauth2.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_ID,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

const GROUP_DM = '1350000000000000301';
/** @everyone's bits in the second guild (VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY, USE_APPLICATION_COMMANDS). */
const SECOND_GUILD_EVERYONE = '2147552256';
/** v10's group-DM app_permissions: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE. */
const GROUP_DM_APP_PERMISSIONS = String((1n << 15n) | (1n << 14n) | (1n << 17n));

const COMMANDS = [
  { name: 'note', description: 'A note to self', integration_types: [1], contexts: [0, 1, 2] },
  { name: 'guildside', description: 'Guild installs only', integration_types: [0], contexts: [0, 1, 2] },
  { name: 'dmonly', description: 'Only in DMs', integration_types: [1], contexts: [1] },
];

/** The INTERACTION_CREATE as the app received it. */
interface Received {
  d: Json;
  /** discord.js's reading of `authorizing_integration_owners`. */
  owners: { guildId: string | null; userId: string | null };
}

describe('the console runs user-installed commands in a guild without the bot and in a group DM', () => {
  let server: TestServer;
  let bot: Client;
  let browser: Browser;
  let erin: Page;
  const raw = new Inbox<RawDispatch>();
  const received = new Inbox<Received>();

  async function installForUser(userToken: string): Promise<void> {
    const query = new URLSearchParams({
      client_id: DEMO_APP_ID,
      scope: 'applications.commands',
      integration_type: '1',
    });
    const result = await consent(server.url, `${server.url}/oauth2/authorize?${query.toString()}`, { userToken });
    assert.ok(result.status < 400, `the install went through: ${result.status}`);
  }

  before(async () => {
    const world = exampleWorld();
    world.group_dms = [{ id: GROUP_DM, name: 'trio', owner_id: ERIN_ID, recipients: [ERIN_ID, BOB_ID, CAROL_ID] }];
    // bob joins erin's guild (where Demo Bot is not) with @everyone alone: no USE_EXTERNAL_APPS.
    world.guilds
      .find((g) => g.id === SECOND_GUILD_ID)!
      .members.push({ user_id: BOB_ID, roles: [], nick: null, joined_at: '2025-01-01T00:00:00.000Z' });
    server = await startServer({ world, config: { sandboxSignIn: true } });
    for (const body of COMMANDS) {
      const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, { auth: BOT, body });
      assert.equal(created.status, 201, created.text);
    }
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw, (client) => {
      client.on(Events.InteractionCreate, (interaction: Interaction) => {
        if (!interaction.isChatInputCommand()) return;
        const packet = raw.all().find((p) => p.t === 'INTERACTION_CREATE' && p.d.id === interaction.id)!;
        received.push({
          d: packet.d as Json,
          owners: {
            guildId: interaction.authorizingIntegrationOwners.guildId,
            userId: interaction.authorizingIntegrationOwners.userId,
          },
        });
        const where = interaction.context === InteractionContextType.Guild ? 'the guild' : 'the group';
        void (async () => {
          await interaction.reply({ content: `noted in ${where} for ${interaction.user.username}` });
          await interaction.followUp({ content: `and a follow-up in ${where} for ${interaction.user.username}` });
        })();
      });
    });
    await installForUser(ERIN_TOKEN);
    await installForUser(BOB_TOKEN);
    browser = await launchBrowser();
    erin = await openConsole(browser, server.url);
    await signInAs(erin, 'erin');
  });

  after(async () => {
    await browser?.close();
    await bot?.destroy();
    await server?.close();
  });

  /** The picker's command names as the page lists them, after typing `/`. */
  async function pickerNames(page: Page): Promise<string[]> {
    await openPicker(page);
    const picker = page.getByRole('listbox', { name: 'Commands' });
    await picker.getByRole('group', { name: 'Demo Bot' }).waitFor();
    const names = await picker.getByRole('option').locator('.picker-label').allTextContents();
    await composer(page).press('Escape');
    return names.sort();
  }

  async function run(page: Page, name: string): Promise<void> {
    await openPicker(page, name);
    await page
      .getByRole('listbox', { name: 'Commands' })
      .getByRole('option', { name: new RegExp(`/${name}`) })
      .click();
  }

  test("in erin's guild without the bot: /note alone is in the picker, and its answers show in the channel", async () => {
    await erin.getByLabel('Guild').selectOption(SECOND_GUILD_ID);
    await erin.getByRole('combobox', { name: 'Message #allgemein' }).waitFor();
    assert.equal(await erin.getByLabel('Channel').inputValue(), SECOND_GUILD_CHANNEL);
    assert.deepEqual(await pickerNames(erin), ['/note'], 'not the guild-install command, not the DM-only one');

    await run(erin, 'note');
    const reply = messageWith(erin, 'noted in the guild for erin');
    const followUp = messageWith(erin, 'and a follow-up in the guild for erin');
    await reply.waitFor();
    await followUp.waitFor();
    for (const message of [reply, followUp]) {
      assert.match((await message.textContent()) ?? '', /Demo Bot/, 'shown as the app');
      assert.doesNotMatch((await message.textContent()) ?? '', /Only you can see this/, 'erin may use external apps');
    }
    const interaction = await received.find((r) => r.d.guild_id === SECOND_GUILD_ID, 'the guild interaction');
    assert.equal(interaction.d.context, InteractionContextType.Guild);
    assert.equal(interaction.d.channel_id, SECOND_GUILD_CHANNEL);
    assert.deepEqual(interaction.d.authorizing_integration_owners, { '1': ERIN_ID }, 'only her install');
    assert.deepEqual(interaction.owners, { guildId: null, userId: ERIN_ID });
    assert.equal(interaction.d.app_permissions, SECOND_GUILD_EVERYONE, "@everyone's bits in the channel");
    assert.equal((interaction.d.member as Json).user.id, ERIN_ID);
    await assertAccessible(erin, 'the chat screen in a guild without the bot');
  });

  test('bob, without USE_EXTERNAL_APPS there, sees his answers as ephemeral in his console; erin does not see them', async () => {
    const bob = await openConsole(browser, server.url);
    try {
      await signInAs(bob, 'bob');
      await bob.getByLabel('Guild').selectOption(SECOND_GUILD_ID);
      await bob.getByRole('combobox', { name: 'Message #allgemein' }).waitFor();
      await run(bob, 'note');
      const reply = messageWith(bob, 'noted in the guild for bob');
      await reply.waitFor();
      await messageWith(bob, 'and a follow-up in the guild for bob').waitFor();
      assert.match((await reply.textContent()) ?? '', /Only you can see this/);
      const interaction = await received.find((r) => (r.d.member as Json | undefined)?.user.id === BOB_ID, "bob's");
      assert.deepEqual(interaction.d.authorizing_integration_owners, { '1': BOB_ID });
      // A fresh read of the channel as erin: his ephemeral answers are not in it.
      await erin.reload();
      await composer(erin).waitFor();
      await erin.getByLabel('Guild').selectOption(SECOND_GUILD_ID);
      await erin.getByRole('combobox', { name: 'Message #allgemein' }).waitFor();
      await messageWith(erin, 'noted in the guild for erin').first().waitFor();
      assert.equal(await messageWith(erin, 'for bob').count(), 0, "bob's ephemeral answers are his alone");
    } finally {
      await bob.context().close();
    }
  });

  test('in the group DM: listed as "trio", /note alone in the picker, answered there as the app', async () => {
    const channel = erin.getByLabel('Channel');
    const option = channel.locator('optgroup[label="Direct messages"] option', { hasText: 'trio' });
    await option.waitFor({ state: 'attached' });
    assert.equal(await option.getAttribute('value'), GROUP_DM);
    await channel.selectOption(GROUP_DM);
    await erin.getByRole('combobox', { name: 'Message trio' }).waitFor();
    assert.equal(await erin.getByLabel('Guild').inputValue(), '', 'a group DM is in no guild');
    assert.deepEqual(await pickerNames(erin), ['/note']);

    await run(erin, 'note');
    await messageWith(erin, 'noted in the group for erin').waitFor();
    await messageWith(erin, 'and a follow-up in the group for erin').waitFor();
    const interaction = await received.find((r) => r.d.channel_id === GROUP_DM, 'the group DM interaction');
    assert.equal(interaction.d.context, InteractionContextType.PrivateChannel);
    assert.equal(interaction.d.guild_id, undefined, 'no guild');
    assert.equal((interaction.d.channel as Json).type, ChannelType.GroupDM);
    assert.deepEqual(interaction.d.authorizing_integration_owners, { '1': ERIN_ID });
    assert.deepEqual(interaction.owners, { guildId: null, userId: ERIN_ID });
    assert.equal(interaction.d.app_permissions, GROUP_DM_APP_PERMISSIONS);
    assert.equal((interaction.d.user as Json).id, ERIN_ID);
    await assertAccessible(erin, 'the chat screen in a group DM');
    assert.deepEqual(pageErrors(erin), []);
  });

  test('"Why not?" in the group DM and in the guild without the bot names the user-install rule of each command', async () => {
    await erin.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Why not?' }).click();
    await erin.getByRole('main', { name: 'Why not?' }).waitFor();
    const demo = erin.getByRole('region', { name: 'Demo Bot' });
    const item = (name: string) => demo.getByRole('listitem').filter({ hasText: `/${name}` });
    await item('note')
      .getByText('Shown: you installed the app to your account, and the command works in group DMs.')
      .waitFor();
    await item('dmonly')
      .getByText(/^Hidden: the command's contexts \(BOT_DM\) leave out group DMs/)
      .waitFor();

    await erin.getByLabel('Guild').selectOption(SECOND_GUILD_ID);
    await erin.getByRole('heading', { name: /in #allgemein/ }).waitFor();
    await item('note')
      .getByText('Shown: you installed the app to your account, and the command works in servers.')
      .waitFor();
    await item('dmonly').getByText("Hidden: the command's contexts (BOT_DM) leave out servers (GUILD).").waitFor();
    await item('guildside')
      .getByText(/^Hidden: the command's integration types \(GUILD_INSTALL\)/)
      .waitFor();
    await assertAccessible(erin, 'Why not? in a guild without the bot');
  });
});
