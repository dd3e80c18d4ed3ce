/**
 * Webhooks' messages in the web console (Debian's Chromium), as a v10 client shows them: a
 * discord.js bot makes a webhook with an avatar (`channel.createWebhook`) and sends through it
 * (`webhook.send`), once under its own name and once with a `username` override. alice sees each
 * under the webhook's name (or the override) with its avatar, served at the CDN's path, and a
 * WEBHOOK tag instead of the APP tag; the webhook's name opens no Apps menu. The bot's own answer
 * to her click (sent through the app's interaction webhook, `webhook_id` = the app's id) is the
 * app's, tagged APP. What the API reports of the messages agrees. A screenshot is taken for the docs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Events,
  GatewayIntentBits,
  PermissionFlagsBits,
  type Client,
  type Interaction,
  type TextChannel,
  type Webhook,
} from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import type { World } from '../../core/world/types.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  messageWith,
  naturalSize,
  openConsole,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { pngGradient } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  exampleWorld,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** The example world; the demo bot may manage webhooks in the test guild. */
function webhooksWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | PermissionFlagsBits.ManageWebhooks).toString();
  return world;
}

/** The bot answers the button under its own message. */
async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isButton() && interaction.customId === 'deploy') await interaction.reply('Deploying to production');
}

describe('the console: webhooks’ messages', () => {
  let server: TestServer;
  let client: Client;
  let browser: Browser;
  let alice: Page;
  let hook: Webhook;
  const raw = new Inbox<RawDispatch>((p) => `${p.t}`);
  const sent = new Map<string, string>();

  before(async () => {
    server = await startServer({ world: webhooksWorld(), config: { sandboxSignIn: true } });
    client = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw, (c) =>
      c.on(Events.InteractionCreate, (interaction) => void answer(interaction)),
    );
    const channel = (await client.channels.fetch(GENERAL)) as TextChannel;
    hook = await channel.createWebhook({ name: 'Deploys', avatar: pngGradient(64, 64, [46, 160, 67], [20, 90, 140]) });
    sent.set('own', (await hook.send({ content: 'Build **#1182** passed on `main`' })).id);
    sent.set('override', (await hook.send({ content: 'Staging is on 2.4.1', username: 'CI' })).id);
    await channel.send({
      content: 'Ready to ship 2.4.1',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('deploy').setLabel('Deploy').setStyle(ButtonStyle.Primary),
        ),
      ],
    });
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url, { height: 760 });
  });

  after(async () => {
    await browser?.close();
    await client?.destroy();
    await server?.close();
  });

  /** The name, the tags and the avatar's decoded size of the message holding `text`, as alice sees them. */
  async function seen(text: string): Promise<{ author: string; tags: string[]; avatar: number[] | null }> {
    const message = messageWith(alice, text);
    await message.waitFor();
    const head = message.locator('.message-head');
    const avatar = head.locator('img.avatar');
    return {
      author: (await head.locator('.author').innerText()).trim(),
      tags: await head.locator('.badge').allInnerTexts(),
      avatar: (await avatar.count()) > 0 ? await naturalSize(avatar) : null,
    };
  }

  test('alice sees the webhook’s name (or the override), its avatar and a WEBHOOK tag; the API agrees', async () => {
    await signInAs(alice, 'alice');
    assert.deepEqual(await seen('Build #1182 passed'), { author: 'Deploys', tags: ['WEBHOOK'], avatar: [64, 64] });
    assert.deepEqual(await seen('Staging is on 2.4.1'), { author: 'CI', tags: ['WEBHOOK'], avatar: [64, 64] });
    assert.deepEqual(await seen('Ready to ship'), { author: 'Demo Bot', tags: ['APP'], avatar: null });
    assert.equal(
      await messageWith(alice, 'Staging is on 2.4.1').getByRole('button', { name: 'CI' }).count(),
      0,
      'a webhook is no user: its name opens no Apps menu',
    );

    for (const [kind, id] of sent) {
      const read = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: ALICE_TOKEN });
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.webhook_id, hook.id, kind);
      assert.equal(read.body.application_id, DEMO_APP_ID, kind);
      assert.deepEqual(
        [read.body.author.id, read.body.author.username, read.body.author.avatar, read.body.author.bot],
        [hook.id, kind === 'own' ? 'Deploys' : 'CI', hook.avatar, true],
      );
    }
    assert.deepEqual(pageErrors(alice), []);
  });

  test('the app’s answer to a click, sent through its interaction webhook, is tagged APP', async () => {
    await messageWith(alice, 'Ready to ship').getByRole('button', { name: 'Deploy' }).click();
    assert.deepEqual(await seen('Deploying to production'), { author: 'Demo Bot', tags: ['APP'], avatar: null });
    await raw.find((p) => p.t === 'INTERACTION_CREATE', 'the click reaching the bot');
    const read = await server.request('GET', `/channels/${GENERAL}/messages?limit=10`, { auth: ALICE_TOKEN });
    const answered = (read.body as { content: string; webhook_id?: string }[]).find(
      (m) => m.content === 'Deploying to production',
    );
    assert.equal(answered?.webhook_id, DEMO_APP_ID, 'an answer’s webhook is the app');
    await assertAccessible(alice, 'webhooks’ messages');
    await screenshot(alice, 'console-webhook-messages');
  });
});
