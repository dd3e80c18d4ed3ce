/**
 * discord.js as its users drive guild emojis and stickers, against slashd: a bot logged in with
 * GUILD_EXPRESSIONS makes an emoji with `guild.emojis.create({ attachment, name, roles })` (refused
 * with 50013 before it holds CREATE_GUILD_EXPRESSIONS), is told GUILD_EMOJIS_UPDATE (discord.js's
 * guildEmojiCreate / guildEmojiUpdate / guildEmojiDelete), reads its image at `emoji.imageURL()`,
 * reacts with it, renames it with `emoji.edit`, and deletes it with `emoji.delete`; makes a sticker
 * with `guild.stickers.create({ file, name, tags })` (stickerCreate, then stickerUpdate and
 * stickerDelete), sends it with `channel.send({ stickers })` (the message's `stickers`), and reads
 * the standard packs with `client.fetchStickerPacks()`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  PermissionFlagsBits,
  type GuildEmoji,
  type Sticker,
  type TextChannel,
} from 'discord.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ADMIN_ROLE, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

describe('discord.js guild emojis and stickers: emojis.create, edit, delete, stickers.create, send, fetchStickerPacks', () => {
  let server: TestServer;
  let client: Client;
  let channel: TextChannel;
  const emojiEvents = new Inbox<string>((event) => event);
  const stickerEvents = new Inbox<string>((event) => event);
  const image = pngImage(8, 8);

  before(async () => {
    server = await startServer();
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildExpressions,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.GuildMessageReactions,
      ],
      rest: { api: `${server.url}/api`, cdn: server.url },
    });
    client.on(Events.GuildEmojiCreate, (emoji) => emojiEvents.push(`create ${emoji.name}`));
    client.on(Events.GuildEmojiUpdate, (_old, emoji) => emojiEvents.push(`update ${emoji.name}`));
    client.on(Events.GuildEmojiDelete, (emoji) => emojiEvents.push(`delete ${emoji.name}`));
    client.on(Events.GuildStickerCreate, (sticker) => stickerEvents.push(`create ${sticker.name}`));
    client.on(Events.GuildStickerUpdate, (_old, sticker) => stickerEvents.push(`update ${sticker.name}`));
    client.on(Events.GuildStickerDelete, (sticker) => stickerEvents.push(`delete ${sticker.name}`));
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    const fetched = await client.channels.fetch(GENERAL);
    assert.equal(fetched?.type, ChannelType.GuildText);
    channel = fetched;
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  test('guild.emojis.create without CREATE_GUILD_EXPRESSIONS: 50013', async () => {
    await assert.rejects(channel.guild.emojis.create({ attachment: image, name: 'nope' }), v10Error(403, 50013));
  });

  let emoji: GuildEmoji;
  test('guild.emojis.create({ attachment, name, roles }): the emoji, its author, guildEmojiCreate, its image', async () => {
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      PermissionFlagsBits.CreateGuildExpressions | PermissionFlagsBits.AddReactions,
    );
    emoji = await channel.guild.emojis.create({
      attachment: image,
      name: 'mascot',
      roles: [ADMIN_ROLE],
      reason: 'art',
    });
    assert.equal(emoji.name, 'mascot');
    assert.equal(emoji.animated, false);
    assert.deepEqual([...emoji.roles.cache.keys()], [ADMIN_ROLE]);
    assert.equal(emoji.author?.id, DEMO_APP_ID);
    assert.equal(await emojiEvents.find((e) => e === 'create mascot', 'guildEmojiCreate'), 'create mascot');
    const url = emoji.imageURL({ extension: 'png' });
    assert.equal(url, `${server.url}/emojis/${emoji.id}.png`);
    assert.deepEqual(Buffer.from(await (await fetch(url)).arrayBuffer()), image);
    assert.equal(channel.guild.emojis.cache.get(emoji.id)?.name, 'mascot');
  });

  test('a 50035 for a bad name reaches the library with its path', async () => {
    await assert.rejects(channel.guild.emojis.create({ attachment: image, name: 'no spaces' }), (error: any) => {
      v10Error(400, 50035)(error);
      assert.equal(error.rawError.errors.name._errors[0].code, 'STRING_TYPE_REGEX');
      return true;
    });
  });

  test('react with it, then emoji.edit({ name, roles }): guildEmojiUpdate; emoji.delete(): guildEmojiDelete', async () => {
    await emoji.edit({ roles: [] });
    const message = await channel.send('react to me');
    const reaction = await message.react(emoji);
    assert.equal(reaction.emoji.id, emoji.id);
    const edited = await emoji.edit({ name: 'mascot_two' });
    assert.equal(edited.name, 'mascot_two');
    assert.equal(await emojiEvents.find((e) => e === 'update mascot_two', 'guildEmojiUpdate'), 'update mascot_two');
    await emoji.delete('retired');
    assert.equal(await emojiEvents.find((e) => e === 'delete mascot_two', 'guildEmojiDelete'), 'delete mascot_two');
    const listed = await channel.guild.emojis.fetch();
    assert.equal(listed.has(emoji.id), false);
  });

  let sticker: Sticker;
  test('guild.stickers.create({ file, name, tags }): the sticker, stickerCreate, its url', async () => {
    sticker = await channel.guild.stickers.create({
      file: { attachment: image, name: 'wumpus.png' },
      name: 'Wumpus',
      tags: 'wave',
      description: 'Hello',
    });
    assert.equal(sticker.name, 'Wumpus');
    assert.equal(sticker.tags, 'wave');
    assert.equal(sticker.guildId, TEST_GUILD_ID);
    assert.equal(sticker.format, 1);
    assert.equal(await stickerEvents.find((e) => e === 'create Wumpus', 'stickerCreate'), 'create Wumpus');
    assert.equal(sticker.url, `${server.url}/stickers/${sticker.id}.png`);
    assert.deepEqual(Buffer.from(await (await fetch(sticker.url)).arrayBuffer()), image);
    assert.equal((await client.fetchSticker(sticker.id)).name, 'Wumpus');
  });

  test('channel.send({ stickers }): the message carries them; a foreign id is 50081', async () => {
    const packs = await client.fetchStickerPacks();
    const pack = packs.first()!;
    const standard = pack.stickers.first()!;
    const sent = await channel.send({ stickers: [sticker, standard.id] });
    assert.deepEqual([...sent.stickers.keys()], [sticker.id, standard.id]);
    assert.equal(sent.stickers.get(standard.id)?.name, standard.name);
    const again = await channel.messages.fetch(sent.id);
    assert.deepEqual([...again.stickers.keys()], [sticker.id, standard.id]);
    await assert.rejects(channel.send({ stickers: ['1399999999999999999'] }), v10Error(400, 50081));
    assert.equal((await client.fetchStickerPacks({ packId: pack.id })).name, pack.name);
  });

  test('sticker.edit and sticker.delete: stickerUpdate, stickerDelete (MANAGE not needed for its own)', async () => {
    const edited = await sticker.edit({ name: 'Wumpus Two' });
    assert.equal(edited.name, 'Wumpus Two');
    assert.equal(await stickerEvents.find((e) => e === 'update Wumpus Two', 'stickerUpdate'), 'update Wumpus Two');
    await edited.delete();
    assert.equal(await stickerEvents.find((e) => e === 'delete Wumpus Two', 'stickerDelete'), 'delete Wumpus Two');
    assert.equal((await channel.guild.stickers.fetch()).size, 0);
  });
});
