/**
 * Components V2 with an unmodified discord.js (14.28) `Client` over the gateway ("Must show"): the
 * bot replies with discord.js's own builders (ContainerBuilder, SectionBuilder, TextDisplayBuilder,
 * MediaGalleryBuilder, FileBuilder, SeparatorBuilder, ThumbnailBuilder) and
 * `flags: MessageFlags.IsComponentsV2`, with files the media name by `attachment://`. A user reads
 * the message (flag, components, media resolved to files she downloads); she clicks a button inside
 * the container and one that is a section's accessory, the bot receives each click and updates the
 * message; the gateway's MESSAGE_CREATE / UPDATE carry the components and the flag. A reply with
 * `content` and the flag is refused with v10's 50035 tree. Every wait is on an event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ActionRowBuilder,
  AttachmentBuilder,
  ButtonBuilder,
  ButtonStyle,
  ContainerBuilder,
  DiscordAPIError,
  Events,
  FileBuilder,
  GatewayIntentBits,
  MediaGalleryBuilder,
  MessageFlags,
  SectionBuilder,
  SeparatorBuilder,
  SeparatorSpacingSize,
  TextDisplayBuilder,
  ThumbnailBuilder,
  type Client,
  type Interaction,
} from 'discord.js';
import { attachmentWorld, download } from '../../../test/helpers/attachments.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = any;

const IS_COMPONENTS_V2 = 32768;
const PNG = pngImage(40, 30);
const NOTES = Buffer.from('release notes\n');

interface Handled {
  id: string;
  error: unknown;
}

/** The card: a container holding a text, a section with a button, a gallery, a file, a separator and a row. */
function card(title: string): ContainerBuilder {
  return new ContainerBuilder()
    .setAccentColor(0x5865f2)
    .addTextDisplayComponents(new TextDisplayBuilder().setContent(`# ${title}\nA **components v2** card.`))
    .addSectionComponents(
      new SectionBuilder()
        .addTextDisplayComponents(new TextDisplayBuilder().setContent('Vote for the release'))
        .setButtonAccessory(new ButtonBuilder().setCustomId('vote').setLabel('Vote').setStyle(ButtonStyle.Success)),
    )
    .addMediaGalleryComponents(
      new MediaGalleryBuilder().addItems((item) => item.setURL('attachment://chart.png').setDescription('the chart')),
    )
    .addFileComponents(new FileBuilder().setURL('attachment://notes.txt'))
    .addSeparatorComponents(new SeparatorBuilder().setSpacing(SeparatorSpacingSize.Large).setDivider(true))
    .addActionRowComponents(
      new ActionRowBuilder<ButtonBuilder>().addComponents(
        new ButtonBuilder().setCustomId('ship').setLabel('Ship it').setStyle(ButtonStyle.Primary),
      ),
    );
}

/** The bot: discord.js's builders and interaction methods, nothing else. */
async function answer(interaction: Interaction): Promise<void> {
  if (interaction.isChatInputCommand() && interaction.commandName === 'card') {
    await interaction.reply({
      components: [
        card('Release 1.0'),
        new SectionBuilder()
          .addTextDisplayComponents(new TextDisplayBuilder().setContent('Outside the container'))
          .setThumbnailAccessory(new ThumbnailBuilder().setURL('attachment://chart.png').setDescription('thumb')),
      ],
      files: [new AttachmentBuilder(PNG, { name: 'chart.png' }), new AttachmentBuilder(NOTES, { name: 'notes.txt' })],
      flags: MessageFlags.IsComponentsV2,
    });
    return;
  }
  if (interaction.isChatInputCommand() && interaction.commandName === 'legacy') {
    await interaction.reply({
      content: 'content is a legacy field',
      components: [new TextDisplayBuilder().setContent('and this is v2')],
      flags: MessageFlags.IsComponentsV2,
    });
    return;
  }
  if (interaction.isButton()) {
    // The message is a components v2 one: its update needs no flag, and keeps the files.
    const text = new TextDisplayBuilder().setContent(`${interaction.customId} pressed by ${interaction.user.username}`);
    await interaction.update({ components: [new ContainerBuilder().addTextDisplayComponents(text)] });
  }
}

describe('Components V2 with an unmodified discord.js Client', () => {
  let server: TestServer;
  let client: Client;
  const commands: Record<string, Json> = {};
  const handled = new Inbox<Handled>((h) => `handled ${h.id}`);
  const raw = new Inbox<RawDispatch>((p) => `${p.t}`);
  let cardId = '';

  before(async () => {
    server = await startServer({ world: attachmentWorld() });
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [
        { name: 'card', description: 'A components v2 card' },
        { name: 'legacy', description: 'content with the v2 flag' },
      ],
    });
    assert.equal(deployed.status, 200, deployed.text);
    for (const command of deployed.body as Json[]) commands[command.name] = command;
    client = await watchingBot(
      server,
      DEMO_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
      raw,
      (c) =>
        c.on(Events.InteractionCreate, (interaction) => {
          answer(interaction).then(
            () => handled.push({ id: interaction.id, error: null }),
            (error: unknown) => handled.push({ id: interaction.id, error }),
          );
        }),
    );
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  /** Sends an interaction as alice; resolves with what the bot's handler ended with. */
  async function send(body: Json): Promise<Handled> {
    const response = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: { application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, channel_id: GENERAL, ...body },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    return handled.find((h) => h.id === id, `the bot's handling of interaction ${id}`);
  }

  function invoke(name: string): Promise<Handled> {
    const command = commands[name];
    return send({ type: 2, data: { id: command.id, name, type: 1, version: command.version } });
  }

  async function read(id: string): Promise<Json> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: ALICE });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  const click = (customId: string): Json => ({
    type: 3,
    message_id: cardId,
    data: { custom_id: customId, component_type: 2 },
  });

  test('the reply is a components v2 message: the user reads its components and downloads its media', async () => {
    const done = await invoke('card');
    assert.equal(done.error, null, `the bot's reply failed: ${String(done.error)}`);
    const created = await raw.find(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.interaction_metadata?.id === done.id,
      'MESSAGE_CREATE of the card',
    );
    cardId = created.d.id;
    assert.equal(created.d.flags & IS_COMPONENTS_V2, IS_COMPONENTS_V2, 'the gateway carries the flag');
    assert.equal(created.d.components[0].type, 17);

    const message = await read(cardId);
    assert.equal(message.flags & IS_COMPONENTS_V2, IS_COMPONENTS_V2);
    assert.equal(message.content, '');
    const [container, outside] = message.components;
    assert.equal(container.type, 17);
    assert.equal(container.accent_color, 0x5865f2);
    assert.deepEqual(
      container.components.map((c: Json) => c.type),
      [10, 9, 12, 13, 14, 1],
    );
    assert.equal(container.components[0].content, '# Release 1.0\nA **components v2** card.');
    assert.equal(container.components[1].accessory.custom_id, 'vote');
    assert.deepEqual([container.components[4].spacing, container.components[4].divider], [2, true]);

    const chart = message.attachments.find((a: Json) => a.filename === 'chart.png');
    const gallery = container.components[2].items[0];
    assert.equal(gallery.description, 'the chart');
    assert.deepEqual(
      [gallery.media.url, gallery.media.attachment_id, gallery.media.width, gallery.media.height],
      [chart.url, chart.id, 40, 30],
    );
    assert.deepEqual((await download(gallery.media.url, ALICE)).bytes, PNG, 'the gallery shows the uploaded image');
    const file = container.components[3];
    assert.deepEqual([file.name, file.size], ['notes.txt', NOTES.length]);
    assert.deepEqual((await download(file.file.url, ALICE)).bytes, NOTES);
    assert.equal(outside.type, 9);
    assert.equal(outside.accessory.media.url, chart.url, "the section's thumbnail is the image too");
  });

  test('a click on a button inside the container reaches the bot; its update() edits the message', async () => {
    const done = await send(click('ship'));
    assert.equal(done.error, null, `the bot's update failed: ${String(done.error)}`);
    const message = await read(cardId);
    assert.equal(message.components[0].components[0].content, 'ship pressed by alice');
    assert.equal(message.flags & IS_COMPONENTS_V2, IS_COMPONENTS_V2, 'the flag stays');
    const updated = await raw.find(
      (p) =>
        p.t === 'MESSAGE_UPDATE' &&
        p.d.id === cardId &&
        p.d.components?.[0]?.components?.[0]?.content === 'ship pressed by alice',
      'MESSAGE_UPDATE of the card',
    );
    assert.equal(updated.d.flags & IS_COMPONENTS_V2, IS_COMPONENTS_V2);
  });

  test("a section's button accessory is clickable too", async () => {
    // The update replaced the card; a fresh one has the section again.
    const done = await invoke('card');
    assert.equal(done.error, null);
    const created = await raw.find(
      (p) => p.t === 'MESSAGE_CREATE' && p.d.interaction_metadata?.id === done.id,
      'MESSAGE_CREATE of the second card',
    );
    cardId = created.d.id;
    const clicked = await send(click('vote'));
    assert.equal(clicked.error, null, `the bot's update failed: ${String(clicked.error)}`);
    assert.equal((await read(cardId)).components[0].components[0].content, 'vote pressed by alice');
  });

  test('content with the flag is refused with the v10 50035 tree', async () => {
    const done = await invoke('legacy');
    assert.ok(done.error instanceof DiscordAPIError, `expected a DiscordAPIError, got ${String(done.error)}`);
    assert.equal(done.error.status, 400);
    assert.equal(done.error.code, 50035);
    assert.deepEqual((done.error.rawError as Json).errors, {
      data: {
        content: {
          _errors: [
            {
              code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
              message: "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            },
          ],
        },
      },
    });
  });
});
