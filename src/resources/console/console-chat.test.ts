/**
 * The web console in Debian's Chromium against a real slashd and a real bot: commands deployed
 * with @discordjs/rest, answered by an unmodified discord.js Client over the gateway. alice signs
 * in, finds /weather in the picker, runs `/weather city:Paris days:3` with the app's autocomplete,
 * clicks a button that updates the answer, fills a modal, gets an ephemeral answer bob never sees,
 * uses a message command from the Apps menu, and sees "The application did not respond" when the
 * app stays silent. axe-core checks every screen; the docs' screenshots are taken here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  ModalBuilder,
  Routes,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  composer,
  messageWith,
  openConsole,
  openPicker,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from '../../../test/helpers/world.js';

/** The interaction deadline is v10's 3 s: the server's clock is moved past it instead of waiting. */
const DEADLINE_MS = 3_000;

const COMMANDS = [
  {
    name: 'weather',
    description: 'The weather of a city',
    description_localizations: { fr: 'La météo d’une ville' },
    options: [
      { type: 3, name: 'city', description: 'Which city', required: true, autocomplete: true },
      { type: 4, name: 'days', description: 'How many days', required: true, min_value: 1, max_value: 7 },
    ],
  },
  { name: 'feedback', description: 'Tell the app what you think' },
  { name: 'secret', description: 'Answers only you' },
  { name: 'silent', description: 'Never answers' },
  { type: 3, name: 'Quote' },
];

const CITIES = ['Paris', 'Pará', 'Parma', 'London', 'Lisbon'];

/** The bot's answers, with discord.js's own interaction methods. */
async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) {
    const typed = interaction.options.getFocused().toLowerCase();
    await interaction.respond(
      CITIES.filter((c) => c.toLowerCase().startsWith(typed)).map((c) => ({ name: c, value: c })),
    );
    return;
  }
  if (interaction.isChatInputCommand()) {
    switch (interaction.commandName) {
      case 'weather': {
        const city = interaction.options.getString('city', true);
        const days = interaction.options.getInteger('days', true);
        const refresh = new ButtonBuilder()
          .setCustomId(`refresh:${city}:${days}`)
          .setLabel('Refresh')
          .setStyle(ButtonStyle.Primary);
        await interaction.reply({
          content: `**${city}**: sunny for ${days} days`,
          embeds: [
            {
              title: `Forecast for ${city}`,
              description: `${days} days of sun`,
              fields: [{ name: 'High', value: '21 °C', inline: true }],
            },
          ],
          components: [new ActionRowBuilder<ButtonBuilder>().addComponents(refresh)],
        });
        return;
      }
      case 'feedback': {
        const input = new TextInputBuilder()
          .setCustomId('comment')
          .setLabel('Your comment')
          .setStyle(TextInputStyle.Paragraph);
        const modal = new ModalBuilder()
          .setCustomId('feedback-modal')
          .setTitle('Feedback')
          .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input));
        await interaction.showModal(modal);
        return;
      }
      case 'secret':
        await interaction.reply({ content: 'a secret for you only', flags: MessageFlags.Ephemeral });
        return;
      case 'silent':
        return;
    }
  }
  if (interaction.isMessageContextMenuCommand()) {
    await interaction.reply(`Quoted: "${interaction.targetMessage.content}"`);
    return;
  }
  if (interaction.isButton()) {
    const [, city, days] = interaction.customId.split(':');
    await interaction.update({ content: `**${city}**: refreshed, still sunny for ${days} days`, components: [] });
    return;
  }
  if (interaction.isModalSubmit()) {
    await interaction.reply(`Thanks for your feedback: ${interaction.fields.getTextInputValue('comment')}`);
  }
}

describe('the web console in Chromium', () => {
  let server: TestServer;
  let client: Client;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  /** Added to the server's clock: moved past the deadline for the silent command. */
  let skew = 0;

  before(async () => {
    server = await startServer({
      now: () => Date.now() + skew,
      config: { sandboxSignIn: true, gateway: { failWithoutSession: true } },
    });
    // The app deploys its commands with @discordjs/rest, only the base URL changed.
    const rest = new REST({ api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
    const deployed = (await rest.put(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), {
      body: COMMANDS,
    })) as unknown[];
    assert.equal(deployed.length, COMMANDS.length);

    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => void answer(interaction).catch(() => undefined));
    const ready = new Inbox<string>(() => 'ready');
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'the bot ready');

    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
    bob = await openConsole(browser, server.url, { colorScheme: 'dark' });
  });

  after(async () => {
    await browser?.close();
    await client?.destroy();
    await server?.close();
  });

  test('signs in from the sandbox user list', async () => {
    await alice.getByRole('heading', { name: 'Sandbox: sign in as' }).waitFor();
    await assertAccessible(alice, 'the sign-in screen');
    await signInAs(alice, 'alice');
    await signInAs(bob, 'bob');
    await alice.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await assertAccessible(alice, 'the chat screen');
    await assertAccessible(bob, 'the chat screen, dark theme');
  });

  test('typing / shows the deployed bot in the picker, grouped by app, and the keyboard moves through it', async () => {
    await openPicker(alice);
    const picker = alice.getByRole('listbox', { name: 'Commands' });
    await picker
      .getByRole('group', { name: 'Demo Bot' })
      .getByRole('option', { name: /\/weather/ })
      .waitFor();
    assert.equal(await composer(alice).getAttribute('aria-expanded'), 'true');
    const first = await picker.getByRole('option', { selected: true }).textContent();
    await composer(alice).press('ArrowDown');
    const second = await picker.getByRole('option', { selected: true }).textContent();
    assert.notEqual(first, second, 'ArrowDown moves the choice');
    await assertAccessible(alice, 'the picker');
    await screenshot(alice, 'console-picker');
    await composer(alice).press('Escape');
    await picker.waitFor({ state: 'detached' });
    // bob's picker is in his locale (fr): the description the app localized.
    await openPicker(bob, 'wea');
    await bob.getByRole('option', { name: /La météo d’une ville/ }).waitFor();
    await composer(bob).press('Escape');
  });

  test('/weather city:Paris days:3 with autocomplete: errors inline first, then the answer for everyone', async () => {
    await openPicker(alice, 'weat');
    await composer(alice).press('Enter');
    const form = alice.getByRole('form', { name: 'Options of /weather' });
    await form.waitFor();
    // Sent empty: the required options are flagged before anything is sent.
    await form.getByRole('button', { name: 'Send /weather' }).click();
    await form.getByText('This option is required.').first().waitFor();
    assert.equal(await form.getByLabel(/^city/).getAttribute('aria-invalid'), 'true');
    await form.getByLabel(/^days/).fill('9');
    await form.getByRole('button', { name: 'Send /weather' }).click();
    await form.getByText('At most 7.').waitFor();

    const city = form.getByRole('combobox', { name: /^city/ });
    await city.fill('');
    await city.pressSequentially('Par');
    const choices = alice.getByRole('listbox', { name: 'Choices for city' });
    await choices.getByRole('option', { name: 'Paris' }).waitFor();
    // The app's choices for "Par" replace those for the empty field: London goes.
    await choices.getByRole('option', { name: 'London' }).waitFor({ state: 'detached' });
    assert.equal(await choices.getByRole('option').count(), 3, 'Paris, Pará and Parma');
    await assertAccessible(alice, 'the option form with autocomplete');
    await city.press('Enter');
    assert.equal(await city.inputValue(), 'Paris');
    await form.getByLabel(/^days/).fill('3');
    await form.getByRole('button', { name: 'Send /weather' }).click();

    const answer = messageWith(alice, 'sunny for 3 days');
    await answer.waitFor();
    assert.match((await answer.textContent()) ?? '', /alice\s*used\s*\/weather/);
    await answer.getByText('Forecast for Paris').waitFor();
    // bob sees it live, without reloading.
    await messageWith(bob, 'sunny for 3 days').waitFor();
    await assertAccessible(alice, 'a conversation');
    await screenshot(alice, 'console-conversation');
  });

  test('a button click updates the message', async () => {
    const answer = messageWith(alice, 'sunny for 3 days').last();
    await answer.getByRole('button', { name: 'Refresh' }).click();
    await messageWith(alice, 'refreshed, still sunny for 3 days').waitFor();
    await messageWith(bob, 'refreshed, still sunny for 3 days').waitFor();
  });

  test("a modal opens as a dialog, is submitted, and the app's answer is shown", async () => {
    await openPicker(alice, 'feedback');
    await composer(alice).press('Enter');
    // Without options, /feedback is sent when chosen.
    const dialog = alice.getByRole('dialog', { name: 'Feedback' });
    await dialog.waitFor();
    await assertAccessible(alice, 'a modal');
    await dialog.getByLabel('Your comment').fill('lovely console');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await messageWith(alice, 'Thanks for your feedback: lovely console').waitFor();
  });

  test('an ephemeral answer is shown to alice only, and can be dismissed', async () => {
    await openPicker(alice, 'secret');
    await composer(alice).press('Enter');
    const secret = messageWith(alice, 'a secret for you only');
    await secret.getByText('Only you can see this').waitFor();
    // bob's view: a later public message arrives, the ephemeral one never does.
    await openPicker(alice, 'weather');
    await composer(alice).press('Enter');
    const form = alice.getByRole('form', { name: 'Options of /weather' });
    await form.getByRole('combobox', { name: /^city/ }).fill('Lisbon');
    await form.getByLabel(/^days/).fill('2');
    await form.getByRole('button', { name: 'Send /weather' }).click();
    await messageWith(bob, 'sunny for 2 days').waitFor();
    assert.equal(await messageWith(bob, 'a secret for you only').count(), 0);
    await secret.getByRole('button', { name: 'Dismiss message' }).click();
    await secret.waitFor({ state: 'detached' });
  });

  test('a message command from the Apps menu', async () => {
    const target = messageWith(alice, 'sunny for 2 days').last();
    await target.getByRole('button', { name: 'Message actions' }).click();
    const menu = alice.getByRole('menu', { name: 'Message actions' });
    await menu.waitFor();
    await assertAccessible(alice, 'the Apps menu');
    await menu.getByRole('menuitem', { name: /Quote/ }).click();
    await messageWith(alice, /Quoted: ".*sunny for 2 days"/).waitFor();
  });

  test('an app that stays silent: "The application did not respond", with the reason for its developer', async () => {
    await openPicker(alice, 'silent');
    await composer(alice).press('Enter');
    await alice.getByRole('status').filter({ hasText: 'Waiting for /silent' }).waitFor();
    skew += DEADLINE_MS;
    const failure = alice.getByRole('alert').filter({ hasText: 'The application did not respond' });
    await failure.waitFor();
    await failure.getByText("Why? (for the app's developer)").click();
    await failure.getByText('timeout').waitFor();
  });

  test('works at 360 px wide, with no error in the page', async () => {
    await alice.setViewportSize({ width: 360, height: 640 });
    await openPicker(alice, 'wea');
    // A string, evaluated in the page: the tests compile without the DOM's types.
    const overflow = await alice.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 360 px`);
    await assertAccessible(alice, 'the picker at 360 px');
    await composer(alice).press('Escape');
    assert.deepEqual(pageErrors(alice), []);
    assert.deepEqual(pageErrors(bob), []);
  });
});
