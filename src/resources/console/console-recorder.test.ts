/**
 * The console's Record button (issue 28) in Debian's Chromium against a real slashd and an
 * unmodified discord.js bot: alice records `/weather city:Paris days:3`, a click on its button, a
 * modal's submission, an ephemeral answer, a message and a reaction, downloads the YAML, and
 * `runScenario` replays the file against the same bot: it passes; after the bot's reply changes, it
 * fails with the diff of what was observed. The same file against a discord.py bot answering alike
 * (test/python/discord_weather.py): the same.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import type { Client } from 'discord.js';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
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
import { runScenario, type ScenarioRun } from '../../testing/index.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { watchingBot } from '../../../test/helpers/discordjs.js';
import { startDiscordPyBot } from '../../../test/helpers/discordpy.js';
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
import { ADMIN_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from '../../../test/helpers/world.js';

const COMMANDS = [
  {
    name: 'weather',
    description: 'The weather of a city',
    options: [
      { type: 3, name: 'city', description: 'Which city', required: true },
      { type: 4, name: 'days', description: 'How many days', required: true, min_value: 1, max_value: 7 },
    ],
  },
  { name: 'feedback', description: 'Tell the app what you think' },
  { name: 'secret', description: 'Answers only you' },
];

/** The word of the weather the bot reports: the test changes it to break the recorded scenario. */
let sky = 'sunny';

async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isChatInputCommand() && interaction.commandName === 'weather') {
    const city = interaction.options.getString('city', true);
    const days = interaction.options.getInteger('days', true);
    const refresh = new ButtonBuilder().setCustomId(`refresh:${city}:${days}`).setLabel('Refresh');
    await interaction.reply({
      content: `**${city}**: ${sky} for ${days} days`,
      embeds: [{ title: `Forecast for ${city}`, fields: [{ name: 'Asked by', value: `<@${interaction.user.id}>` }] }],
      components: [new ActionRowBuilder<ButtonBuilder>().addComponents(refresh.setStyle(ButtonStyle.Primary))],
    });
  } else if (interaction.isChatInputCommand() && interaction.commandName === 'feedback') {
    const input = new TextInputBuilder().setCustomId('comment').setLabel('Your comment');
    await interaction.showModal(
      new ModalBuilder()
        .setCustomId('feedback-modal')
        .setTitle('Feedback')
        .addComponents(
          new ActionRowBuilder<TextInputBuilder>().addComponents(input.setStyle(TextInputStyle.Paragraph)),
        ),
    );
  } else if (interaction.isChatInputCommand() && interaction.commandName === 'secret') {
    await interaction.reply({ content: 'a secret for you only', flags: MessageFlags.Ephemeral });
  } else if (interaction.isButton()) {
    const [, city, days] = interaction.customId.split(':');
    await interaction.update({ content: `**${city}**: refreshed, still ${sky} for ${days} days`, components: [] });
  } else if (interaction.isModalSubmit()) {
    await interaction.reply(`Thanks for your feedback: ${interaction.fields.getTextInputValue('comment')}`);
  }
}

/** The replay's report once the bot says "rainy": the first step fails with its diff, the rest skipped. */
function assertChangedReply(run: ScenarioRun): void {
  assert.equal(run.passed, false);
  assert.match(run.report, /✗ alice invokes \/weather city:Paris days:3 in #\S+/);
  assert.match(
    run.report,
    /- expected: "\*\*Paris\*\*: sunny for 3 days"\n {10}\+ observed: "\*\*Paris\*\*: rainy for 3 days"/,
  );
  assert.match(run.report, /- alice clicks \{"label":"Refresh"\} \(skipped\)/);
}

describe('recording a session in the console, then replaying it', () => {
  let server: TestServer;
  let client: Client;
  let browser: Browser;
  let alice: Page;
  const folder = mkdtempSync(join(tmpdir(), 'slashd-recorded-'));
  let file = '';

  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    const rest = new REST({ api: `${server.url}/api` }).setToken(DEMO_BOT_TOKEN);
    await rest.put(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), { body: COMMANDS });
    client = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], new Inbox(), (bot) =>
      bot.on(Events.InteractionCreate, (interaction) => void answer(interaction).catch(() => undefined)),
    );
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
  });

  after(async () => {
    await browser?.close();
    await client?.destroy();
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('Record, a command with options, a button, a modal, Stop: the YAML is shown and downloads', async () => {
    await signInAs(alice, 'alice');
    await alice.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await alice.getByRole('button', { name: '● Record' }).click();

    await openPicker(alice, 'weather');
    await composer(alice).press('Enter');
    const form = alice.getByRole('form', { name: 'Options of /weather' });
    await form.getByLabel(/^city/).fill('Paris');
    await form.getByLabel(/^days/).fill('3');
    await form.getByRole('button', { name: 'Send /weather' }).click();
    const forecast = messageWith(alice, 'sunny for 3 days');
    await forecast.getByRole('button', { name: 'Refresh' }).click();
    await messageWith(alice, 'refreshed, still sunny for 3 days').waitFor();

    await openPicker(alice, 'feedback');
    await composer(alice).press('Enter');
    const dialog = alice.getByRole('dialog', { name: 'Feedback' });
    await dialog.getByLabel('Your comment').fill('lovely console');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await messageWith(alice, 'Thanks for your feedback: lovely console').waitFor();

    await openPicker(alice, 'secret');
    await composer(alice).press('Enter');
    await messageWith(alice, 'a secret for you only').waitFor();
    await composer(alice).fill('hello all');
    await composer(alice).press('Enter');
    const hello = messageWith(alice, 'hello all');
    await hello.getByRole('button', { name: 'Add reaction' }).click();
    await hello.getByRole('button', { name: 'React with 👍' }).click();
    await hello.getByRole('button', { name: /^👍, 1 reaction/ }).waitFor();

    await alice.getByRole('button', { name: '■ Stop recording' }).click();
    const shown = alice.getByRole('region', { name: 'Recorded scenario' });
    const yaml = (await shown.locator('pre').textContent()) ?? '';
    assert.match(yaml, /invoke: \/weather city:Paris days:3/);
    assert.match(yaml, /click:\s+label: Refresh/);
    assert.match(yaml, /submit:\s+comment: lovely console/);
    assert.match(yaml, /invoke: \/secret\n(?:.*\n)*?\s+- ephemeral:\s+content: a secret for you only/);
    assert.match(yaml, /post: hello all/);
    assert.match(yaml, /react: 👍/);
    // The mention holds alice's id: recorded as a pattern, not the literal id.
    assert.match(yaml, /matches: \^<@\\d\{17,20\}>\$/);

    const download = alice.waitForEvent('download');
    await shown.getByRole('button', { name: /^Download / }).click();
    const saved = await download;
    assert.equal(saved.suggestedFilename(), 'demo-bot.scenario.yaml');
    file = join(folder, saved.suggestedFilename());
    await saved.saveAs(file);
    assert.equal(readFileSync(file, 'utf8'), yaml);
    assert.deepEqual(pageErrors(alice), []);
  });

  test('the downloaded file replays against the same bot: passes', async () => {
    const run = await runScenario(file, { url: server.url, adminToken: ADMIN_TOKEN });
    assert.ok(run.passed, run.report);
    assert.equal(run.results[0]!.steps.length, 7);
  });

  test("after the bot's reply changes, the replay fails with a readable diff", async () => {
    sky = 'rainy';
    assertChangedReply(await runScenario(file, { url: server.url, adminToken: ADMIN_TOKEN }));
  });

  test('the same file replays against a discord.py bot answering alike: passes, then fails with the diff', async () => {
    await client.destroy();
    const discovery = await server.request('GET', '/gateway');
    const bot = await startDiscordPyBot('discord_weather.py', [
      server.api,
      discovery.body.url,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
    ]);
    try {
      const run = await runScenario(file, { url: server.url, adminToken: ADMIN_TOKEN });
      assert.ok(run.passed, `${run.report}\n${bot.stderr()}`);
      bot.send('sky rainy');
      await bot.lines.find((l) => l.event === 'sky', 'the sky changed');
      assertChangedReply(await runScenario(file, { url: server.url, adminToken: ADMIN_TOKEN }));
    } finally {
      await bot.stop();
    }
  });
});
