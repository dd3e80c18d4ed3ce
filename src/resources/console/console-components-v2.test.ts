/**
 * The web console in Debian's Chromium draws a Components V2 message as a client does: the
 * container with its accent bar, a section with its button beside the text, text displays in
 * markdown, a section's thumbnail and a media gallery loaded from the message's files through the
 * user's token, a file, a separator; a button inside the container is clicked and the bot's update
 * is shown. The message is sent by an unmodified discord.js bot (`channel.send` with the flag); a
 * screenshot for the docs is taken.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  ContainerBuilder,
  Events,
  FileBuilder,
  GatewayIntentBits,
  MediaGalleryBuilder,
  MessageFlags,
  SectionBuilder,
  SeparatorSpacingSize,
  TextDisplayBuilder,
  ThumbnailBuilder,
  type Client,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import { attachmentWorld } from '../../../test/helpers/attachments.js';
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
import { DEMO_BOT_TOKEN, GENERAL } from '../../../test/helpers/world.js';

function release(): ContainerBuilder {
  return new ContainerBuilder()
    .setAccentColor(0x2d7d46)
    .addTextDisplayComponents(
      new TextDisplayBuilder().setContent('## Release 2.4 is out\nThe **changelog** and the build of the week.'),
    )
    .addSectionComponents(
      new SectionBuilder()
        .addTextDisplayComponents(
          new TextDisplayBuilder().setContent('**Build #1182**\nAll 412 checks passed on `main`.'),
        )
        .setThumbnailAccessory(new ThumbnailBuilder().setURL('attachment://badge.png').setDescription('build badge')),
    )
    .addMediaGalleryComponents(
      new MediaGalleryBuilder().addItems(
        (item) => item.setURL('attachment://chart.png').setDescription('weekly chart'),
        (item) => item.setURL('attachment://trend.png').setDescription('trend chart'),
      ),
    )
    .addFileComponents(new FileBuilder().setURL('attachment://changelog.txt'))
    .addSeparatorComponents((separator) => separator.setSpacing(SeparatorSpacingSize.Large))
    .addSectionComponents(
      new SectionBuilder()
        .addTextDisplayComponents(new TextDisplayBuilder().setContent('Subscribe to release notes'))
        .setButtonAccessory(
          new ButtonBuilder().setCustomId('subscribe').setLabel('Subscribe').setStyle(ButtonStyle.Secondary),
        ),
    )
    .addActionRowComponents(
      new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId('ship').setLabel('Ship it').setStyle(ButtonStyle.Success),
        new ButtonBuilder().setLabel('Docs').setStyle(ButtonStyle.Link).setURL('https://example.com/docs'),
      ),
    );
}

/** The bot: a click answers with an update of the message, in a new container. */
async function answer(interaction: Interaction): Promise<void> {
  if (!interaction.isButton()) return;
  const text = new TextDisplayBuilder().setContent(
    `**${interaction.customId}** pressed by ${interaction.user.username}`,
  );
  await interaction.update({
    components: [new ContainerBuilder().setAccentColor(0x5865f2).addTextDisplayComponents(text)],
  });
}

describe('the console draws Components V2', () => {
  let server: TestServer;
  let client: Client;
  let browser: Browser;
  let alice: Page;
  const raw = new Inbox<RawDispatch>((p) => `${p.t}`);

  before(async () => {
    server = await startServer({ world: attachmentWorld(), config: { sandboxSignIn: true } });
    client = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw, (c) =>
      c.on(Events.InteractionCreate, (interaction) => void answer(interaction)),
    );
    const channel = (await client.channels.fetch(GENERAL)) as TextChannel;
    await channel.send({
      components: [release()],
      files: [
        new AttachmentBuilder(pngGradient(64, 64, [46, 160, 67], [20, 90, 40]), { name: 'badge.png' }),
        new AttachmentBuilder(pngGradient(320, 180, [88, 101, 242], [235, 69, 158]), { name: 'chart.png' }),
        new AttachmentBuilder(pngGradient(320, 180, [254, 231, 92], [237, 66, 69]), { name: 'trend.png' }),
        new AttachmentBuilder(Buffer.from('2.4: faster builds\n'), { name: 'changelog.txt' }),
      ],
      flags: MessageFlags.IsComponentsV2,
    });
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url, { height: 820 });
  });

  after(async () => {
    await browser?.close();
    await client?.destroy();
    await server?.close();
  });

  test('alice sees the container, its texts, its images loaded through her token, its file', async () => {
    await signInAs(alice, 'alice');
    const message = messageWith(alice, 'Release 2.4 is out');
    const container = message.getByRole('region', { name: 'Container' });
    await container.waitFor();
    assert.equal(await container.getByRole('heading', { name: 'Release 2.4 is out' }).count(), 1, 'markdown heading');
    assert.equal(await container.locator('strong', { hasText: 'changelog' }).count(), 1, 'markdown bold');
    const gallery = container.getByRole('img', { name: 'weekly chart' });
    await gallery.waitFor();
    assert.deepEqual(await naturalSize(gallery), [320, 180], 'the bytes served are the image');
    await container.getByRole('img', { name: 'trend chart' }).waitFor();
    await container.getByRole('img', { name: 'build badge' }).waitFor();
    assert.equal(await container.getByRole('link', { name: 'changelog.txt' }).count(), 1);
    assert.equal(await container.getByRole('separator').count(), 1);
    const bar = await container.evaluate((element) => {
      const view = globalThis as unknown as { getComputedStyle(e: unknown): { borderLeftColor: string } };
      return view.getComputedStyle(element).borderLeftColor;
    });
    assert.equal(bar, 'rgb(45, 125, 70)', 'the accent bar has the accent color');
    assert.equal(
      await message.getByRole('link', { name: 'chart.png' }).count(),
      0,
      'files show where the components put them only',
    );
    assert.deepEqual(pageErrors(alice), []);
    await assertAccessible(alice, 'a components v2 message');
    await screenshot(alice, 'console-components-v2');
  });

  test('a button inside the container is clicked; the bot updates the message', async () => {
    await messageWith(alice, 'Release 2.4 is out').getByRole('button', { name: 'Ship it' }).click();
    await messageWith(alice, 'ship pressed by alice').waitFor();
    const update = await raw.find((p) => p.t === 'INTERACTION_CREATE', 'the click reaching the bot');
    assert.equal(update.d.data.custom_id, 'ship');
    assert.deepEqual(pageErrors(alice), []);
  });
});
