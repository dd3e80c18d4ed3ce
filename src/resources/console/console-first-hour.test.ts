/**
 * The console as a newcomer meets it in the first hour (issue 23, item 11), in Debian's Chromium
 * against a real slashd and an unmodified discord.js bot on the gateway:
 *
 * - every autocomplete choice (10 of them) is visible and clickable, at 1280 and at 360 px wide,
 *   with the mouse and with the arrows (the active choice stays in view);
 * - a subcommand reads "alice used /fruit pick", a context-menu use "alice used User Card";
 * - a command without options is sent when chosen, with no second click;
 * - a modal's required inputs are marked;
 * - an ephemeral answer is gone after signing in again, as a v10 client loses it on reload;
 * - the Permissions screen makes no request the server refuses (no 404 or 403 in the browser's log).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import {
  ActionRowBuilder,
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
  composer,
  messageWith,
  openConsole,
  openPicker,
  pageErrors,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from '../../../test/helpers/world.js';

/** Ten choices: the list showed 2 of them. */
const CITIES = [
  'Amsterdam',
  'Berlin',
  'Cairo',
  'Dakar',
  'Edinburgh',
  'Florence',
  'Geneva',
  'Hanoi',
  'Istanbul',
  'Jakarta',
];

const COMMANDS = [
  {
    name: 'travel',
    description: 'Pick a city',
    options: [{ type: 3, name: 'city', description: 'Where to', required: true, autocomplete: true }],
  },
  {
    name: 'fruit',
    description: 'Fruit things',
    options: [{ type: 1, name: 'pick', description: 'Pick a fruit' }],
  },
  { name: 'ping', description: 'Replies with pong' },
  { name: 'signup', description: 'Opens a form' },
  { name: 'whisper', description: 'Answers only you' },
  { type: 2, name: 'User Card' },
];

async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) {
    await interaction.respond(CITIES.map((c) => ({ name: c, value: c })));
    return;
  }
  if (interaction.isChatInputCommand()) {
    switch (interaction.commandName) {
      case 'travel':
        await interaction.reply(`Off to ${interaction.options.getString('city', true)}`);
        return;
      case 'fruit':
        await interaction.reply(`Picked a ${interaction.options.getSubcommand()}ed apple`);
        return;
      case 'ping':
        await interaction.reply('pong');
        return;
      case 'signup': {
        const name = new TextInputBuilder()
          .setCustomId('name')
          .setLabel('Your name')
          .setStyle(TextInputStyle.Short)
          .setRequired(true);
        const note = new TextInputBuilder()
          .setCustomId('note')
          .setLabel('A note')
          .setStyle(TextInputStyle.Paragraph)
          .setRequired(false);
        await interaction.showModal(
          new ModalBuilder()
            .setCustomId('signup-modal')
            .setTitle('Sign up')
            .addComponents(
              new ActionRowBuilder<TextInputBuilder>().addComponents(name),
              new ActionRowBuilder<TextInputBuilder>().addComponents(note),
            ),
        );
        return;
      }
      case 'whisper':
        await interaction.reply({ content: 'a whisper for you only', flags: MessageFlags.Ephemeral });
        return;
    }
  }
  if (interaction.isUserContextMenuCommand()) {
    await interaction.reply(`Card of ${interaction.targetUser.username}`);
    return;
  }
  if (interaction.isModalSubmit())
    await interaction.reply(`Signed up: ${interaction.fields.getTextInputValue('name')}`);
}

/**
 * Whether the element is what the pointer hits at its own centre: it is inside the window and no
 * ancestor's overflow cuts it off and nothing covers it. A string evaluated in the page: the tests
 * compile without the DOM's types.
 */
async function hitAtCentre(page: Page, id: string): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const element = document.getElementById(${JSON.stringify(id)});
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit === element || element.contains(hit);
  })()`);
}

/** Opens /travel's form and focuses its city field, which asks the app for its choices. */
async function openTravel(page: Page) {
  await openPicker(page, 'travel');
  await composer(page).press('Enter');
  const form = page.getByRole('form', { name: 'Options of /travel' });
  await form.waitFor();
  return form.getByRole('combobox', { name: /^city/ });
}

describe('the console of the first hour, in Chromium', () => {
  let server: TestServer;
  let client: Client;
  let browser: Browser;
  let alice: Page;

  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true, gateway: { failWithoutSession: true } } });
    const rest = new REST({ api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
    await rest.put(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), { body: COMMANDS });
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => void answer(interaction).catch(() => undefined));
    const ready = new Inbox<string>(() => 'ready');
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'the bot ready');
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url, { width: 1280, height: 800 });
    await signInAs(alice, 'alice');
  });

  after(async () => {
    await browser?.close();
    await client?.destroy();
    await server?.close();
  });

  for (const [width, height] of [
    [1280, 800],
    [360, 640],
  ] as const) {
    test(`every autocomplete choice is visible and clickable at ${width} px wide`, async () => {
      await alice.setViewportSize({ width, height });
      for (let i = 0; i < CITIES.length; i++) {
        const city = await openTravel(alice);
        await city.focus();
        const choices = alice.getByRole('listbox', { name: 'Choices for city' });
        await choices
          .getByRole('option')
          .nth(CITIES.length - 1)
          .waitFor();
        assert.equal(await choices.getByRole('option').count(), CITIES.length);
        const option = choices.getByRole('option', { name: CITIES[i]!, exact: true });
        await option.scrollIntoViewIfNeeded();
        const id = (await option.getAttribute('id')) ?? '';
        assert.ok(await hitAtCentre(alice, id), `${CITIES[i]} is under the pointer at ${width} px`);
        await option.click();
        assert.equal(await city.inputValue(), CITIES[i]);
        await alice.getByRole('form', { name: 'Options of /travel' }).getByRole('button', { name: 'Cancel' }).click();
      }
      // The arrows: the active choice stays in view all the way down, without scrolling by hand.
      const city = await openTravel(alice);
      await city.focus();
      const choices = alice.getByRole('listbox', { name: 'Choices for city' });
      await choices
        .getByRole('option')
        .nth(CITIES.length - 1)
        .waitFor();
      for (let i = 0; i < CITIES.length; i++) {
        const active = choices.getByRole('option', { selected: true });
        assert.equal(await active.textContent(), CITIES[i]);
        assert.ok(await hitAtCentre(alice, (await active.getAttribute('id')) ?? ''), `${CITIES[i]} in view`);
        if (i < CITIES.length - 1) await city.press('ArrowDown');
      }
      await city.press('Enter');
      assert.equal(await city.inputValue(), CITIES[CITIES.length - 1]);
      await alice
        .getByRole('form', { name: 'Options of /travel' })
        .getByRole('button', { name: 'Send /travel' })
        .click();
      await messageWith(alice, `Off to ${CITIES[CITIES.length - 1]}`)
        .last()
        .waitFor();
    });
  }

  test('a command without options is sent when chosen: one Enter, no form', async () => {
    await alice.setViewportSize({ width: 1280, height: 800 });
    await openPicker(alice, 'ping');
    await composer(alice).press('Enter');
    const pong = messageWith(alice, 'pong');
    await pong.waitFor();
    assert.equal(await alice.getByRole('form', { name: 'Options of /ping' }).count(), 0);
    assert.match((await pong.textContent()) ?? '', /alice\s*used\s*\/ping/);
  });

  test('a subcommand reads "/fruit pick", a context-menu use "User Card" without a slash', async () => {
    await openPicker(alice, 'fruit');
    await composer(alice).press('Enter');
    const picked = messageWith(alice, 'Picked a picked apple');
    await picked.waitFor();
    assert.match((await picked.textContent()) ?? '', /alice\s*used\s*\/fruit pick/);

    await picked.getByRole('button', { name: 'alice' }).last().click();
    await alice
      .getByRole('menu', { name: 'Actions for alice' })
      .getByRole('menuitem', { name: /User Card/ })
      .click();
    const card = messageWith(alice, 'Card of alice');
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    assert.match(text, /alice\s*used\s*User Card/);
    assert.doesNotMatch(text, /\/User Card/);
  });

  test("a modal's required input is marked, the optional one is not", async () => {
    await openPicker(alice, 'signup');
    await composer(alice).press('Enter');
    const dialog = alice.getByRole('dialog', { name: 'Sign up' });
    await dialog.waitFor();
    await dialog.getByText('Your name (required)').waitFor();
    assert.equal(await dialog.getByText('A note (required)').count(), 0);
    assert.equal(await dialog.getByLabel(/^Your name/).getAttribute('required'), '');
    await dialog.getByLabel(/^Your name/).fill('Alice');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await messageWith(alice, 'Signed up: Alice').waitFor();
  });

  test('an ephemeral answer is shown until alice signs in again, then it is gone', async () => {
    await openPicker(alice, 'whisper');
    await composer(alice).press('Enter');
    await messageWith(alice, 'a whisper for you only').getByText('Only you can see this').waitFor();
    await alice.getByRole('button', { name: 'Sign out' }).click();
    await signInAs(alice, 'alice');
    // The channel is read again: a public answer from before is there, the ephemeral one is not.
    await messageWith(alice, 'Signed up: Alice').waitFor();
    assert.equal(await messageWith(alice, 'a whisper for you only').count(), 0);
  });

  test('the Permissions screen makes no request the server refuses, for an editor or not', async () => {
    const refused: string[] = [];
    const carol = await openConsole(browser, server.url);
    for (const page of [alice, carol]) {
      page.on('console', (message) => {
        if (message.type() === 'error') refused.push(message.text());
      });
      page.on('response', (response) => {
        if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
      });
    }
    await signInAs(carol, 'carol');
    await carol.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Permissions' }).click();
    await carol
      .getByRole('alert')
      .filter({ hasText: /Manage Guild and Manage Roles/ })
      .waitFor();
    await alice.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Permissions' }).click();
    await alice.getByRole('combobox', { name: 'Command' }).selectOption({ label: '/ping' });
    await alice.getByRole('form', { name: 'Overwrites of /ping' }).waitFor();
    await alice.getByText('Synced: this command has no overwrite of its own').waitFor();
    assert.deepEqual(refused, []);
    assert.deepEqual(pageErrors(alice), []);
    assert.deepEqual(pageErrors(carol), []);
  });
});
