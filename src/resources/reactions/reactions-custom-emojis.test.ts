/**
 * A guild's custom emojis (the world file's `emojis`) in reactions: discord.js sees them in
 * GUILD_CREATE and reacts with one (a GuildEmoji, and `a:name:id` text), discord.py fetches them and
 * reacts too; the reaction carries
 * `{id, name, animated}` in MESSAGE_REACTION_ADD/REMOVE, in the message's `reactions` and under
 * its own path; `GET /guilds/{id}/emojis` lists them; an emoji locked to roles the reactor lacks, one no longer available, and one the
 * guild does not have are 10014; a guild written with new emojis is GUILD_EMOJIS_UPDATE (GuildExpressions).
 * The world file refuses bad emojis at their path.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client, type TextChannel } from 'discord.js';
import { parseWorld } from '../../core/world/parse.js';
import type { Emoji, World } from '../../core/world/types.js';
import { ROOT } from '../../../test/helpers/cli-process.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { adminRequest, startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_ROLE,
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'python', 'discord_custom_emojis.py');
const run = promisify(execFile);
const ADD_REACTIONS = 1n << 6n;
const BLOB: Emoji = { id: '1345183757107200501', name: 'blob', animated: false, roles: [], available: true };
const PARTY: Emoji = { id: '1345183757107200502', name: 'party_parrot', animated: true, roles: [], available: true };
const ADMINS: Emoji = {
  id: '1345183757107200503',
  name: 'admins',
  animated: false,
  roles: [ADMIN_ROLE],
  available: true,
};
const FADED: Emoji = { id: '1345183757107200504', name: 'faded', animated: false, roles: [], available: false };
const reactionPath = (message: string, emoji: string, rest = '') =>
  `/channels/${GENERAL}/messages/${message}/reactions/${encodeURIComponent(emoji)}${rest}`;

/** The gateway world: the test guild has four emojis, and the demo bot may add reactions. */
function emojiWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.emojis = [BLOB, PARTY, ADMINS, FADED];
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | ADD_REACTIONS).toString();
  return world;
}

describe('custom emojis in reactions', () => {
  let server: TestServer;
  let bot: Client;
  let watcher: Client;
  const raw = new Inbox<RawDispatch>((p) => String(p.t));
  const botRaw = new Inbox<RawDispatch>((p) => String(p.t));

  before(async () => {
    server = await startServer({ world: emojiWorld() });
    watcher = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessageReactions, GatewayIntentBits.GuildExpressions],
      raw,
    );
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], botRaw);
  });
  after(async () => {
    await Promise.all([bot?.destroy(), watcher?.destroy()]);
    await server?.close();
  });

  test('discord.js reads the guild emojis from GUILD_CREATE and reacts with them; the other bot is told', async () => {
    const emojis = bot.guilds.cache.get(TEST_GUILD_ID)!.emojis.cache;
    assert.deepEqual(
      [...emojis.values()].map((e) => [e.id, e.name, e.animated, e.available, [...e.roles.cache.keys()]]),
      [BLOB, PARTY, ADMINS, FADED].map((e) => [e.id, e.name, e.animated, e.available, e.roles]),
    );
    const channel = (await bot.channels.fetch(GENERAL, { force: true })) as TextChannel;
    const sent = await channel.send('react with the guild’s own');
    const blob = await sent.react(emojis.get(BLOB.id)!);
    assert.deepEqual([blob.emoji.id, blob.emoji.name, blob.me], [BLOB.id, 'blob', true]);
    await sent.react(`a:party_parrot:${PARTY.id}`);

    const add = await raw.find((p) => p.t === 'MESSAGE_REACTION_ADD' && p.d.emoji.id === BLOB.id, 'blob added');
    assert.deepEqual(add.d.emoji, { id: BLOB.id, name: 'blob', animated: false });
    assert.equal(add.d.message_id, sent.id);
    const party = await raw.find((p) => p.t === 'MESSAGE_REACTION_ADD' && p.d.emoji.id === PARTY.id, 'party added');
    assert.deepEqual(party.d.emoji, { id: PARTY.id, name: 'party_parrot', animated: true });

    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
    assert.deepEqual(
      read.body.reactions.map((r: any) => [r.emoji, r.count, r.me]),
      [
        [{ id: BLOB.id, name: 'blob', animated: false }, 1, false],
        [{ id: PARTY.id, name: 'party_parrot', animated: true }, 1, false],
      ],
    );
    const fetched = await channel.messages.fetch({ message: sent.id, force: true });
    assert.deepEqual(
      [...fetched.reactions.cache.values()].map((r) => [r.emoji.id, r.emoji.name, r.count, r.me]),
      [
        [BLOB.id, 'blob', 1, true],
        [PARTY.id, 'party_parrot', 1, true],
      ],
    );
    const users = await fetched.reactions.cache.get(BLOB.id)!.users.fetch();
    assert.deepEqual([...users.keys()], [DEMO_APP_ID]);

    await fetched.reactions.cache.get(PARTY.id)!.users.remove(DEMO_APP_ID);
    const removed = await raw.find((p) => p.t === 'MESSAGE_REACTION_REMOVE' && p.d.emoji.id === PARTY.id, 'removed');
    assert.deepEqual(removed.d.emoji, { id: PARTY.id, name: 'party_parrot', animated: true });
  });

  test('discord.py: guild.fetch_emojis(), add_reaction(emoji) and add_reaction("<a:name:id>"), remove_reaction()', async () => {
    const { stdout } = await run(PYTHON, [SCRIPT, server.api, DEMO_BOT_TOKEN, TEST_GUILD_ID, GENERAL], {
      timeout: 120_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    assert.deepEqual(
      result.emojis,
      [BLOB, PARTY, ADMINS, FADED].map((e) => [e.id, e.name, e.animated]),
    );
    assert.deepEqual(result.reactions, [
      [BLOB.id, 'blob', false, 1, true],
      [PARTY.id, 'party_parrot', true, 1, true],
    ]);
    assert.deepEqual(result.after_remove, ['party_parrot']);
  });

  test('an emoji locked to a role: its holder reacts, another member is refused 10014 even to join', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'admins only' },
    });
    const admins = `admins:${ADMINS.id}`;
    const alice = await server.request('PUT', reactionPath(sent.body.id, admins, '/@me'), { auth: ALICE_TOKEN });
    assert.equal(alice.status, 204, alice.text);
    const bob = await server.request('PUT', reactionPath(sent.body.id, admins, '/@me'), { auth: BOB_TOKEN });
    assert.deepEqual([bob.status, bob.body.code, bob.body.message], [400, 10014, 'Unknown Emoji']);
    const listed = await server.request('GET', reactionPath(sent.body.id, admins), { auth: BOB_TOKEN });
    assert.equal(listed.status, 200, 'reading who reacted is not using the emoji');
    assert.equal(listed.body.length, 1);
  });

  test('an unavailable emoji and one the guild lacks are 10014', async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body: { content: 'x' } });
    for (const emoji of [`faded:${FADED.id}`, 'blob:1345183757107200599']) {
      const put = await server.request('PUT', reactionPath(sent.body.id, emoji, '/@me'), { auth: BOT });
      assert.deepEqual([put.status, put.body.code, put.body.message], [400, 10014, 'Unknown Emoji'], emoji);
    }
  });

  test('GET /guilds/{id}/emojis and …/emojis/{id}: discord.js guild.emojis.fetch(); an unknown id is 10014', async () => {
    const guild = bot.guilds.cache.get(TEST_GUILD_ID)!;
    const fetched = await guild.emojis.fetch(undefined, { force: true });
    assert.deepEqual(
      [...fetched.values()].map((e) => [e.id, e.name, e.requiresColons, e.managed]),
      [BLOB, PARTY, ADMINS, FADED].map((e) => [e.id, e.name, true, false]),
    );
    const one = await server.request('GET', `/guilds/${TEST_GUILD_ID}/emojis/${PARTY.id}`, { auth: ALICE_TOKEN });
    assert.deepEqual(one.body, { ...PARTY, require_colons: true, managed: false });
    const unknown = await server.request('GET', `/guilds/${TEST_GUILD_ID}/emojis/1345183757107200599`, { auth: BOT });
    assert.equal(unknown.body.code, 10014);
  });

  test('the admin API keeps a guild’s emojis', async () => {
    const guild = await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}`);
    assert.deepEqual(guild.body.emojis, [BLOB, PARTY, ADMINS, FADED]);
  });

  test('a guild written with another emoji: GUILD_EMOJIS_UPDATE to bots with GuildExpressions only', async () => {
    const guild = (await adminRequest(server, 'GET', `/guilds/${TEST_GUILD_ID}`)).body;
    const wave: Emoji = { id: '1345183757107200505', name: 'wave', animated: false, roles: [], available: true };
    const put = await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}`, {
      ...guild,
      emojis: [...guild.emojis, wave],
    });
    assert.equal(put.status, 200, put.text);
    const update = await raw.find((p) => p.t === 'GUILD_EMOJIS_UPDATE', 'the emojis update');
    assert.equal(update.d.guild_id, TEST_GUILD_ID);
    assert.deepEqual(
      update.d.emojis.map((e: { name: string }) => e.name),
      ['blob', 'party_parrot', 'admins', 'faded', 'wave'],
    );
    assert.equal(watcher.guilds.cache.get(TEST_GUILD_ID)!.emojis.cache.get(wave.id)?.name, 'wave');
    // The demo bot, without the intent, was not told: a GUILD_UPDATE after it (Guilds) comes alone.
    await adminRequest(server, 'PUT', `/guilds/${TEST_GUILD_ID}`, {
      ...guild,
      name: 'Renamed Guild',
      emojis: [...guild.emojis, wave],
    });
    await botRaw.find((p) => p.t === 'GUILD_UPDATE' && p.d.name === 'Renamed Guild', 'the rename');
    assert.equal(
      botRaw.all().some((p) => p.t === 'GUILD_EMOJIS_UPDATE'),
      false,
    );
  });
});

describe('the world file’s emojis', () => {
  function worldWithEmojis(emojis: unknown[]): unknown {
    const world = emojiWorld();
    (world.guilds[0] as { emojis?: unknown }).emojis = emojis;
    return world;
  }

  test('defaults fill in: not animated, no roles, available', () => {
    const parsed = parseWorld(worldWithEmojis([{ id: BLOB.id, name: 'blob' }]));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.guilds[0]!.emojis, [BLOB]);
  });

  test('bad emojis are refused at their path', () => {
    const parsed = parseWorld(
      worldWithEmojis([
        { id: BLOB.id, name: 'b' },
        { id: PARTY.id, name: 'no spaces' },
        { id: PARTY.id, name: 'again' },
        { id: ADMINS.id, name: 'admins', roles: ['1345183757107209999'] },
      ]),
    );
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.deepEqual(
      parsed.issues.map((i) => [i.path.join('.'), i.code]),
      [
        ['guilds.0.emojis.0.name', 'BASE_TYPE_BAD_LENGTH'],
        ['guilds.0.emojis.1.name', 'STRING_TYPE_REGEX'],
      ],
    );
    const consistent = parseWorld(
      worldWithEmojis([
        { id: PARTY.id, name: 'party' },
        { id: PARTY.id, name: 'again' },
        { id: ADMINS.id, name: 'admins', roles: ['1345183757107209999'] },
      ]),
    );
    assert.equal(consistent.ok, false);
    if (consistent.ok) return;
    assert.deepEqual(
      consistent.issues.map((i) => [i.path.join('.'), i.code]),
      [
        ['guilds.0.emojis.1.id', 'WORLD_DUPLICATE'],
        ['guilds.0.emojis.2.roles.0', 'WORLD_UNKNOWN_REFERENCE'],
      ],
    );
  });
});
