/**
 * discord.py (Debian's python3-discord, unmodified) as a premium bot's code uses it
 * (test/python/discord_monetization.py): SKUs read at start, test entitlements made for a user
 * (10027 for a SKU the app lacks) and listed, a `/premium` command gated on the entitlements its
 * interaction carries ("premium only", then "premium: welcome", then "premium only" again once
 * the test entitlement is deleted), a consumable consumed (a durable one refused with 50035),
 * role-connection metadata records refused (50035, nothing written) then declared and read, and
 * an application emoji made (its name once), used in a message and a reaction, renamed, listed and
 * deleted (10014 after). discord.py 2.2.2 wraps none of these endpoints: the script calls them
 * through its own HTTP client, as that version's users do.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { startDiscordPyBot, type DiscordPyBot } from './helpers/discordpy.js';
import { grantBotBits } from './helpers/guild-admin.js';
import { pngImage } from './helpers/images.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from './helpers/world.js';

type Json = any;

const PREMIUM_SKU = '1400000000000000001';
const COINS_SKU = '1400000000000000002';

describe('discord.py: entitlements, a gated command, role-connection metadata, application emojis', () => {
  let server: TestServer;
  let bot: DiscordPyBot;
  let folder: string;

  before(async () => {
    server = await startServer();
    folder = mkdtempSync(join(tmpdir(), 'slashd-monetization-'));
    const skus = await server.request('PUT', `${server.url}/admin/applications/${DEMO_APP_ID}/skus`, {
      auth: ADMIN_AUTH,
      body: [
        { id: PREMIUM_SKU, type: 2, name: 'Premium' },
        { id: COINS_SKU, type: 3, name: '100 coins' },
      ],
    });
    assert.equal(skus.status, 200, skus.text);
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.AddReactions);
    const discovery = await server.request('GET', '/gateway');
    bot = await startDiscordPyBot('discord_monetization.py', [
      server.api,
      discovery.body.url,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
      GENERAL,
      ALICE_ID,
      PREMIUM_SKU,
      COINS_SKU,
    ]);
  });
  after(async () => {
    await bot?.stop();
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Runs one step of the bot's and resolves with what it reported. */
  async function step(line: string): Promise<Json> {
    const name = line.split(' ')[0];
    bot.send(line);
    const done = await bot.lines.find(
      (l) => l.event === name || l.event === 'step_failed' || l.event === 'exited',
      `the bot's ${name}`,
    );
    assert.equal(done.event, name, `${JSON.stringify(done)}\n${bot.stderr()}`);
    return done;
  }

  /** Alice invokes /premium in #general; the bot's answer and the entitlements its interaction carried. */
  async function invokePremium(): Promise<{ content: string; carried: Json[] }> {
    const list = await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
    });
    const command = (list.body as Json[]).find((c) => c.name === 'premium');
    assert.ok(command, `the bot synced /premium: ${list.text}`);
    const response = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: {
        type: 2,
        application_id: DEMO_APP_ID,
        guild_id: TEST_GUILD_ID,
        channel_id: GENERAL,
        data: { id: command.id, name: command.name, type: 1, version: command.version },
      },
    });
    assert.equal(response.status, 200, response.text);
    const id = response.body.id as string;
    const done = await bot.lines.find(
      (l) => l.interaction_id === id || l.event === 'exited',
      `discord.py's answer to ${id}`,
    );
    assert.equal(done.event, 'answered', `${JSON.stringify(done)}\n${bot.stderr()}`);
    return done;
  }

  test('it reads its SKUs at start', () => {
    assert.deepEqual(bot.ready.skus, [
      [PREMIUM_SKU, 2, 'Premium'],
      [COINS_SKU, 3, '100 coins'],
    ]);
  });

  let ids: { premium: string; coins: string };
  test('/premium is gated: refused before, welcome once a test entitlement is made for the user', async () => {
    const before = await invokePremium();
    assert.deepEqual([before.content, before.carried], ['premium only', []]);

    const granted = await step('grant');
    assert.deepEqual(granted.made, {
      premium: [PREMIUM_SKU, ALICE_ID, 4, false],
      coins: [COINS_SKU, ALICE_ID, 4, false],
    });
    assert.deepEqual(granted.unknown_sku, [404, 10027]);
    ids = granted.ids;
    assert.deepEqual(granted.listed, [ids.premium, ids.coins].sort());

    const after = await invokePremium();
    assert.equal(after.content, 'premium: welcome');
    assert.deepEqual(after.carried.map((e: Json) => e.sku_id).sort(), [PREMIUM_SKU, COINS_SKU].sort());
  });

  test('consume a consumable (a durable one is 50035); delete the test entitlement, and /premium is gated again', async () => {
    const consumed = await step('consume');
    assert.deepEqual([consumed.consumed, consumed.durable], [true, [400, 50035]]);
    const deleted = await step('delete');
    assert.deepEqual(deleted.again, [404, 10029]);
    assert.deepEqual(deleted.listed, [ids.coins]);
    assert.equal(deleted.with_deleted, 2);
    const again = await invokePremium();
    assert.deepEqual([again.content, again.carried], ['premium only', []], 'a consumed one grants nothing either');
  });

  test('role-connection metadata: a bad list is 50035 and writes nothing; the records are declared and read', async () => {
    const metadata = await step('metadata');
    assert.deepEqual(metadata.bad, [400, 50035]);
    assert.deepEqual(metadata.before, []);
    assert.deepEqual(metadata.put, [
      ['level', 2],
      ['verified', 7],
    ]);
    assert.deepEqual(metadata.fetched, [
      ['level', 2, 'Level'],
      ['verified', 7, 'Verified'],
    ]);
  });

  test('an application emoji: made (its name once), in a message and a reaction, renamed, listed, deleted', async () => {
    const imagePath = join(folder, 'mascot.png');
    writeFileSync(imagePath, pngImage(6, 6));
    const emojis = await step(`emojis ${imagePath}`);
    const [id, name, animated, user] = emojis.made;
    assert.deepEqual([name, animated, user], ['py_mascot', false, DEMO_APP_ID]);
    assert.deepEqual(emojis.taken, [400, 50035]);
    assert.equal(emojis.content, `from discord.py <:py_mascot:${id}>`);
    assert.equal(emojis.renamed, 'py_mascot2');
    assert.deepEqual(emojis.listed, ['py_mascot2']);
    assert.deepEqual(emojis.gone, [400, 10014]);
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${emojis.message}`, { auth: ALICE_TOKEN });
    assert.deepEqual(
      read.body.reactions.map((r: Json) => [r.emoji.id, r.count]),
      [[id, 1]],
      'the reaction stays, as v10 keeps one of a deleted emoji',
    );
  });
});
