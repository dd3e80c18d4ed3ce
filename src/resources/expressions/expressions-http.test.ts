/**
 * Guild emojis and stickers over real HTTP and the gateway, on SQLite and PostgreSQL (issue 37):
 * made with CREATE_GUILD_EXPRESSIONS (50013 without), their bodies' rules at their 50035 paths, the
 * slots of boost level 0 (50 static emojis: 30008; 5 stickers: 30039), edited and deleted by their
 * maker with CREATE or by anyone with MANAGE_GUILD_EXPRESSIONS, each change one
 * GUILD_EMOJIS_UPDATE / GUILD_STICKERS_UPDATE with the whole list and one audit entry (60-62,
 * 90-92); a made emoji in GUILD_CREATE, `GET /guilds/{id}` and reactions; images at
 * `/emojis/{id}.png` and `/stickers/{id}.png`; `sticker_ids` on a message (the guild's or standard
 * ones: 50081 otherwise) rendered as `sticker_items` on every read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, PermissionFlagsBits, type Client } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  ADMIN_ROLE,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const WORLD_EMOJI = { id: '1345183757107200501', name: 'blob', animated: false, roles: [], available: true };
const STANDARD_WAVE = '1310000000000000011';
const GIF = Buffer.from(
  'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
  'latin1',
);

function expressionsWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.emojis = [WORLD_EMOJI];
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | PermissionFlagsBits.AddReactions).toString();
  return world;
}

const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** The `errors` tree's codes by dotted path. */
function codesOf(errors: Json, prefix = ''): [string, string][] {
  return Object.entries(errors).flatMap(([key, value]) =>
    key === '_errors'
      ? (value as { code: string }[]).map((e): [string, string] => [prefix, e.code])
      : codesOf(value as Json, prefix ? `${prefix}.${key}` : key),
  );
}

function describeExpressions(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: guild emojis and stickers`, () => {
    let server: TestServer;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => String(p.t));

    before(async () => {
      server = await startServer({ ...options(), world: expressionsWorld() });
      watcher = await watchingBot(
        server,
        OTHER_BOT_TOKEN,
        [GatewayIntentBits.Guilds, GatewayIntentBits.GuildExpressions, GatewayIntentBits.GuildModeration],
        raw,
      );
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    const emojis = `/guilds/${TEST_GUILD_ID}/emojis`;
    const stickers = `/guilds/${TEST_GUILD_ID}/stickers`;

    async function uploadSticker(fields: Record<string, string>, file?: { bytes: Buffer; name: string; type: string }) {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      if (file) form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
      const response = await fetch(`${server.api}${stickers}`, {
        method: 'POST',
        headers: { authorization: BOT, 'x-audit-log-reason': 'team art' },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as Json };
    }

    test('without CREATE_GUILD_EXPRESSIONS: 50013 for an emoji and a sticker, nothing made', async () => {
      const made = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'nope', image: dataUri('image/png', pngImage(2, 2)) },
      });
      assert.equal(made.status, 403, made.text);
      assert.equal(made.body.code, 50013);
      const sticker = await uploadSticker(
        { name: 'nope', tags: 'x' },
        { bytes: pngImage(2, 2), name: 'a.png', type: 'image/png' },
      );
      assert.equal(sticker.status, 403);
      assert.equal(sticker.body.code, 50013);
      const listed = await server.request('GET', emojis, { auth: BOT });
      assert.deepEqual(
        listed.body.map((e: Json) => e.id),
        [WORLD_EMOJI.id],
      );
      assert.equal(listed.body[0].user, undefined);
    });

    let emojiId: string;
    test('POST an emoji: 201 with its creator; GUILD_EMOJIS_UPDATE with the whole list; its image; GET guild lists it', async () => {
      await grantBotBits(
        server,
        TEST_GUILD_ID,
        DEMO_APP_ID,
        PermissionFlagsBits.CreateGuildExpressions | PermissionFlagsBits.ViewAuditLog,
      );
      const image = pngImage(3, 3);
      const made = await server.request('POST', emojis, {
        auth: BOT,
        headers: { 'x-audit-log-reason': 'new mascot' },
        body: { name: 'mascot', image: dataUri('image/png', image), roles: [ADMIN_ROLE] },
      });
      assert.equal(made.status, 201, made.text);
      emojiId = made.body.id;
      assert.equal(made.body.name, 'mascot');
      assert.deepEqual(made.body.roles, [ADMIN_ROLE]);
      assert.equal(made.body.animated, false);
      assert.equal(made.body.user.id, DEMO_APP_ID);
      const update = await raw.find(
        (p) => p.t === 'GUILD_EMOJIS_UPDATE' && p.d.emojis.some((e: Json) => e.id === emojiId),
        'GUILD_EMOJIS_UPDATE',
      );
      assert.deepEqual(
        update.d.emojis.map((e: Json) => e.id),
        [WORLD_EMOJI.id, emojiId],
      );
      const served = await fetch(`${server.url}/emojis/${emojiId}.png`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), image);
      const guild = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.equal(guild.status, 200, guild.text);
      assert.ok(guild.body.emojis.some((e: Json) => e.id === emojiId));
      const one = await server.request('GET', `${emojis}/${emojiId}`, { auth: BOT });
      assert.equal(one.body.user.id, DEMO_APP_ID);
      // A user without the expressions permissions reads it without its creator.
      const byUser = await server.request('GET', `${emojis}/${emojiId}`, { auth: ALICE_TOKEN });
      assert.equal(byUser.status, 200, byUser.text);
    });

    test('a GIF makes an animated emoji, served as a GIF', async () => {
      const made = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'spinner', image: dataUri('image/gif', GIF) },
      });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.animated, true);
      const served = await fetch(`${server.url}/emojis/${made.body.id}.gif`);
      assert.equal(served.headers.get('content-type'), 'image/gif');
      const gone = await server.request('DELETE', `${emojis}/${made.body.id}`, { auth: BOT });
      assert.equal(gone.status, 204);
      assert.equal((await fetch(`${server.url}/emojis/${made.body.id}.gif`)).status, 404);
    });

    test('bad bodies: 50035 at name and image; an unknown role: 50028; nothing made', async () => {
      const bad = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'no spaces', image: 'data:image/png;base64,AAAA' },
      });
      assert.equal(bad.status, 400, bad.text);
      assert.deepEqual(codesOf(bad.body.errors).sort(), [
        ['image', 'IMAGE_INVALID'],
        ['name', 'STRING_TYPE_REGEX'],
      ]);
      const missing = await server.request('POST', emojis, { auth: BOT, body: {} });
      assert.deepEqual(codesOf(missing.body.errors).sort(), [
        ['image', 'BASE_TYPE_REQUIRED'],
        ['name', 'BASE_TYPE_REQUIRED'],
      ]);
      const big = Buffer.concat([pngImage(1, 1), Buffer.alloc(256 * 1024)]);
      const tooBig = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'huge', image: dataUri('image/png', big) },
      });
      assert.deepEqual(codesOf(tooBig.body.errors), [['image', 'IMAGE_INVALID']]);
      const role = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'roled', image: dataUri('image/png', pngImage(1, 1)), roles: ['1399999999999999999'] },
      });
      assert.equal(role.body.code, 50028, role.text);
      const listed = await server.request('GET', emojis, { auth: BOT });
      assert.equal(listed.body.length, 2);
    });

    test('edit and delete: the maker with CREATE edits its own, not the world file’s; MANAGE edits any', async () => {
      const edited = await server.request('PATCH', `${emojis}/${emojiId}`, {
        auth: BOT,
        body: { name: 'mascot2', roles: null },
      });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.name, 'mascot2');
      assert.deepEqual(edited.body.roles, []);
      const others = await server.request('PATCH', `${emojis}/${WORLD_EMOJI.id}`, {
        auth: BOT,
        body: { name: 'blob2' },
      });
      assert.equal(others.status, 403, others.text);
      const unknown = await server.request('PATCH', `${emojis}/1399999999999999999`, {
        auth: BOT,
        body: { name: 'x_y' },
      });
      assert.equal(unknown.body.code, 10014);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PermissionFlagsBits.ManageGuildExpressions);
      const managed = await server.request('PATCH', `${emojis}/${WORLD_EMOJI.id}`, {
        auth: BOT,
        body: { name: 'blob2' },
      });
      assert.equal(managed.status, 200, managed.text);
      assert.equal(managed.body.name, 'blob2');
    });

    test('a made emoji reacts like a world one', async () => {
      const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { content: 'react' },
      });
      const path = `/channels/${GENERAL}/messages/${sent.body.id}/reactions/${encodeURIComponent(`mascot2:${emojiId}`)}/@me`;
      const reacted = await server.request('PUT', path, { auth: BOT });
      assert.equal(reacted.status, 204, reacted.text);
      const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: BOT });
      assert.equal(read.body.reactions[0].emoji.id, emojiId);
    });

    test('the audit log holds EMOJI_CREATE (60) with the reason, EMOJI_UPDATE (61), EMOJI_DELETE (62)', async () => {
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs`, { auth: BOT });
      assert.equal(log.status, 200, log.text);
      const entries = (log.body.audit_log_entries as Json[]).filter((e) => [60, 61, 62].includes(e.action_type));
      const created = entries.find((e) => e.action_type === 60 && e.target_id === emojiId);
      assert.equal(created?.reason, 'new mascot');
      assert.deepEqual(
        created?.changes.find((c: Json) => c.key === 'name'),
        { key: 'name', new_value: 'mascot' },
      );
      assert.ok(entries.some((e) => e.action_type === 61 && e.target_id === emojiId));
      assert.ok(entries.some((e) => e.action_type === 62));
    });

    test('50 static emojis at boost level 0: the 51st is 30008, an animated one still fits', async () => {
      const listed = await server.request('GET', emojis, { auth: BOT });
      const statics = listed.body.filter((e: Json) => !e.animated).length;
      for (let i = statics; i < 50; i += 1) {
        const made = await server.request('POST', emojis, {
          auth: BOT,
          body: { name: `fill_${i}`, image: dataUri('image/png', pngImage(1, 1)) },
        });
        assert.equal(made.status, 201, made.text);
      }
      const full = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'one_more', image: dataUri('image/png', pngImage(1, 1)) },
      });
      assert.equal(full.status, 400);
      assert.equal(full.body.code, 30008);
      assert.equal(full.body.message, 'Maximum number of emojis reached (50)');
      const animated = await server.request('POST', emojis, {
        auth: BOT,
        body: { name: 'moving', image: dataUri('image/gif', GIF) },
      });
      assert.equal(animated.status, 201, animated.text);
    });

    let stickerId: string;
    test('POST a sticker (a form): 201; GUILD_STICKERS_UPDATE; its file; GET /stickers/{id}; GET guild lists it', async () => {
      const png = pngImage(5, 5);
      const made = await uploadSticker(
        { name: 'Wumpus', tags: 'wave', description: 'Hi there' },
        { bytes: png, name: 'wumpus.png', type: 'image/png' },
      );
      assert.equal(made.status, 201, JSON.stringify(made.body));
      stickerId = made.body.id;
      assert.equal(made.body.type, 2);
      assert.equal(made.body.format_type, 1);
      assert.equal(made.body.guild_id, TEST_GUILD_ID);
      assert.equal(made.body.user.id, DEMO_APP_ID);
      const update = await raw.find(
        (p) => p.t === 'GUILD_STICKERS_UPDATE' && p.d.stickers.some((s: Json) => s.id === stickerId),
        'GUILD_STICKERS_UPDATE',
      );
      assert.equal(update.d.guild_id, TEST_GUILD_ID);
      const served = await fetch(`${server.url}/stickers/${stickerId}.png`);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
      const byId = await server.request('GET', `/stickers/${stickerId}`, { auth: BOT });
      assert.equal(byId.body.name, 'Wumpus');
      const guild = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.deepEqual(
        guild.body.stickers.map((s: Json) => s.id),
        [stickerId],
      );
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs?action_type=90`, { auth: BOT });
      assert.equal(log.body.audit_log_entries[0].reason, 'team art');
    });

    test('sticker bodies: 50035 at name, tags, description and file; Lottie, APNG and GIF are read from the bytes', async () => {
      const bad = await uploadSticker({ name: 'x', description: 'y', tags: '' }, undefined);
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.deepEqual(
        codesOf(bad.body.errors)
          .map(([path]) => path)
          .sort(),
        ['description', 'file', 'name', 'tags'],
      );
      const text = await uploadSticker(
        { name: 'Text', tags: 'x' },
        { bytes: Buffer.from('hello'), name: 'a.png', type: 'image/png' },
      );
      assert.deepEqual(codesOf(text.body.errors), [['file', 'IMAGE_INVALID']]);
      const huge = await uploadSticker(
        { name: 'Huge', tags: 'x' },
        { bytes: Buffer.concat([pngImage(1, 1), Buffer.alloc(512 * 1024)]), name: 'a.png', type: 'image/png' },
      );
      assert.deepEqual(codesOf(huge.body.errors), [['file', 'BINARY_TYPE_MAX_SIZE']]);
      const lottie = await uploadSticker(
        { name: 'Lottie', tags: 'x' },
        { bytes: Buffer.from('{"v":"5.5.2","layers":[]}'), name: 'a.json', type: 'application/json' },
      );
      assert.equal(lottie.body.format_type, 3, JSON.stringify(lottie.body));
      const gif = await uploadSticker({ name: 'Gif', tags: 'x' }, { bytes: GIF, name: 'a.gif', type: 'image/gif' });
      assert.equal(gif.body.format_type, 4, JSON.stringify(gif.body));
      const apngBytes = Buffer.from(pngImage(1, 1));
      // An acTL chunk name before IDAT marks the PNG animated.
      const apng = Buffer.concat([
        apngBytes.subarray(0, 33),
        Buffer.from([0, 0, 0, 8]),
        Buffer.from('acTL'),
        Buffer.alloc(12),
        apngBytes.subarray(33),
      ]);
      const animated = await uploadSticker(
        { name: 'Apng', tags: 'x' },
        { bytes: apng, name: 'a.png', type: 'image/png' },
      );
      assert.equal(animated.body.format_type, 2, JSON.stringify(animated.body));
    });

    test('5 stickers at boost level 0: the 6th is 30039', async () => {
      const fifth = await uploadSticker(
        { name: 'Fifth', tags: 'x' },
        { bytes: pngImage(1, 1), name: 'a.png', type: 'image/png' },
      );
      assert.equal(fifth.status, 201, JSON.stringify(fifth.body));
      const full = await uploadSticker(
        { name: 'Sixth', tags: 'x' },
        { bytes: pngImage(1, 1), name: 'a.png', type: 'image/png' },
      );
      assert.equal(full.status, 400);
      assert.equal(full.body.code, 30039);
      const listed = await server.request('GET', stickers, { auth: BOT });
      assert.equal(listed.body.length, 5);
    });

    test('sticker_ids on a message: the guild’s and a standard one, as sticker_items on every read; others 50081; four 50035', async () => {
      const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { sticker_ids: [stickerId, STANDARD_WAVE] },
      });
      assert.equal(sent.status, 200, sent.text);
      assert.deepEqual(sent.body.sticker_items, [
        { id: stickerId, name: 'Wumpus', format_type: 1 },
        { id: STANDARD_WAVE, name: 'Wave', format_type: 1 },
      ]);
      const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: BOT });
      assert.deepEqual(read.body.sticker_items, sent.body.sticker_items);
      const unknown = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { sticker_ids: ['1399999999999999999'] },
      });
      assert.equal(unknown.body.code, 50081, unknown.text);
      const four = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { sticker_ids: [stickerId, stickerId, stickerId, stickerId] },
      });
      assert.deepEqual(codesOf(four.body.errors), [['sticker_ids', 'BASE_TYPE_MAX_LENGTH']]);
    });

    test('a new session’s GUILD_CREATE lists the made emojis and stickers', async () => {
      const fresh = new Inbox<RawDispatch>((p) => String(p.t));
      const late = await watchingBot(server, OTHER_BOT_TOKEN, [GatewayIntentBits.Guilds], fresh);
      try {
        const created = await fresh.find((p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID, 'GUILD_CREATE');
        assert.ok(created.d.emojis.some((e: Json) => e.id === emojiId));
        assert.ok(created.d.stickers.some((s: Json) => s.id === stickerId && s.tags === 'wave'));
      } finally {
        await late.destroy();
      }
    });

    test('edit and delete a sticker: 91 and 92; then 10060; the standard packs', async () => {
      const edited = await server.request('PATCH', `${stickers}/${stickerId}`, {
        auth: BOT,
        body: { name: 'Wumpus 2', description: '' },
      });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.name, 'Wumpus 2');
      assert.equal(edited.body.description, null);
      const gone = await server.request('DELETE', `${stickers}/${stickerId}`, { auth: BOT });
      assert.equal(gone.status, 204);
      const after = await server.request('GET', `${stickers}/${stickerId}`, { auth: BOT });
      assert.equal(after.status, 404);
      assert.equal(after.body.code, 10060);
      assert.equal((await server.request('GET', `/stickers/${stickerId}`, { auth: BOT })).body.code, 10060);
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs`, { auth: BOT });
      const actions = (log.body.audit_log_entries as Json[])
        .filter((e) => e.target_id === stickerId)
        .map((e) => e.action_type);
      assert.deepEqual(actions.sort(), [90, 91, 92]);
      const packs = await server.request('GET', '/sticker-packs', { auth: BOT });
      assert.equal(packs.body.sticker_packs[0].stickers[0].id, STANDARD_WAVE);
      const pack = await server.request('GET', `/sticker-packs/${packs.body.sticker_packs[0].id}`, { auth: BOT });
      assert.equal(pack.body.name, packs.body.sticker_packs[0].name);
      assert.equal((await server.request('GET', '/sticker-packs/1399999999999999999', { auth: BOT })).body.code, 10061);
      assert.equal((await fetch(`${server.url}/stickers/${STANDARD_WAVE}.png`)).status, 200);
    });
  });
}

describeExpressions(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_expressions');
describeExpressions(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
