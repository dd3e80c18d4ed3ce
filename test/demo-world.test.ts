/**
 * The demo world as `npm start` serves it (`slashd serve --demo`, a real child process): Demo Bot,
 * through discord.js's REST client as a bot calls it, does what the README says a bot does: reacts,
 * uploads a file, pins, starts a thread and posts in it, each answered 2xx (they were 50013). Its
 * managed role stands where an owner puts a bot's role: below Admin, above Moderator and Muted.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REST } from '@discordjs/rest';
import { Routes, type APIMessage, type APIRole, type APIThreadChannel } from 'discord-api-types/v10';
import { CLI, killAll, startChild, type RunningChild } from './helpers/cli-process.js';
import { requestAt } from './helpers/nodes.js';
import {
  ADMIN_ROLE,
  ADMIN_TOKEN,
  ALICE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  HELLO_MESSAGE,
  MODERATOR_ROLE,
  MUTED_ROLE,
  TEST_GUILD_ID,
} from './helpers/world.js';

const dir = mkdtempSync(join(tmpdir(), 'slashd-demo-world-'));

after(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('Demo Bot in the demo world of npm start', () => {
  let server: RunningChild;
  let url: string;
  let rest: REST;

  before(async () => {
    // What package.json's `start` runs, on a free port.
    server = startChild(process.execPath, [CLI, 'serve', '--db', join(dir, 'slashd.sqlite'), '--demo', '--port', '0']);
    url = (await server.waitForLine(/listening on (http:\S+)/))[1]!;
    rest = new REST({ version: '10', api: `${url}/api` }).setToken(DEMO_BOT_TOKEN);
  });

  after(async () => {
    await server?.stop();
  });

  test("its managed role is listed below Admin and above the members' roles", async () => {
    const roles = (await rest.get(Routes.guildRoles(TEST_GUILD_ID))) as APIRole[];
    const own = roles.find((role) => role.tags?.bot_id === DEMO_APP_ID);
    assert.ok(own, `a role of the bot: ${JSON.stringify(roles)}`);
    assert.equal(own.managed, true);
    assert.equal(own.name, 'Demo Bot');
    const position = (id: string) => roles.find((role) => role.id === id)!.position;
    assert.ok(position(ADMIN_ROLE) > own.position, 'below the owner’s Admin role');
    assert.ok(own.position > position(MODERATOR_ROLE), 'above Moderator');
    assert.ok(own.position > position(MUTED_ROLE), 'above Muted');
  });

  test('it reacts, uploads, pins, starts a thread and posts in it', async () => {
    await rest.put(Routes.channelMessageOwnReaction(GENERAL, HELLO_MESSAGE, encodeURIComponent('👍')));
    const uploaded = (await rest.post(Routes.channelMessages(GENERAL), {
      body: { content: 'the notes', embeds: [{ title: 'Notes', description: 'attached' }] },
      files: [{ name: 'notes.txt', data: Buffer.from('line one\n') }],
    })) as APIMessage;
    assert.equal(uploaded.attachments.length, 1);
    assert.equal(uploaded.attachments[0]!.filename, 'notes.txt');
    await rest.put(Routes.channelMessagesPin(GENERAL, uploaded.id));
    const thread = (await rest.post(Routes.threads(GENERAL, uploaded.id), {
      body: { name: 'about the notes' },
    })) as APIThreadChannel;
    const inThread = (await rest.post(Routes.channelMessages(thread.id), {
      body: { content: 'in the thread' },
    })) as APIMessage;
    assert.equal(inThread.channel_id, thread.id);

    // What a member of the guild reads afterwards.
    const read = async (path: string) => {
      const response = await fetch(`${url}/api/v10${path}`, { headers: { authorization: ALICE_TOKEN } });
      assert.equal(response.status, 200, path);
      return (await response.json()) as any;
    };
    const hello = await read(`/channels/${GENERAL}/messages/${HELLO_MESSAGE}`);
    assert.deepEqual(
      hello.reactions.map((r: any) => [r.emoji.name, r.count]),
      [['👍', 1]],
    );
    const pins = await read(`/channels/${GENERAL}/messages/pins`);
    assert.deepEqual(
      pins.items.map((item: any) => item.message.id),
      [uploaded.id],
    );
    const posted = await read(`/channels/${thread.id}/messages`);
    assert.deepEqual(
      posted.map((m: any) => m.content),
      ['in the thread'],
    );
  });
});

describe('the demo world across restarts', () => {
  const db = join(dir, 'restarts.sqlite');

  async function start(...extra: string[]): Promise<{ server: RunningChild; url: string }> {
    const server = startChild(process.execPath, [
      CLI,
      'serve',
      '--db',
      db,
      '--demo',
      '--port',
      '0',
      '--admin-token',
      ADMIN_TOKEN,
      ...extra,
    ]);
    return { server, url: (await server.waitForLine(/listening on (http:\S+)/))[1]! };
  }

  async function state(url: string): Promise<{ name: string; permissions: string | undefined }> {
    const app = await requestAt(url, 'GET', '/applications/@me', { auth: `Bot ${DEMO_BOT_TOKEN}` });
    const guild = await requestAt(url, 'GET', `${url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
    });
    assert.equal(app.status, 200, app.text);
    assert.equal(guild.status, 200, guild.text);
    const installs = (guild.body as { installs: { application_id: string; permissions?: string }[] }).installs;
    return {
      name: (app.body as { name: string }).name,
      permissions: installs.find((install) => install.application_id === DEMO_APP_ID)?.permissions,
    };
  }

  test('a restart keeps what the admin API changed of the demo; --reset-demo restores the demo', async () => {
    const first = await start();
    const demo = await state(first.url);
    const admin = `${first.url}/admin`;
    const bearer = `Bearer ${ADMIN_TOKEN}`;
    const app = (await requestAt(first.url, 'GET', `${admin}/applications/${DEMO_APP_ID}`, { auth: bearer })).body as {
      name: string;
    };
    app.name = 'Renamed Bot';
    const putApp = await requestAt(first.url, 'PUT', `${admin}/applications/${DEMO_APP_ID}`, {
      auth: bearer,
      body: app,
    });
    assert.equal(putApp.status, 200, putApp.text);
    const guild = (
      await requestAt(first.url, 'GET', `${first.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: `Bearer ${ADMIN_TOKEN}` })
    ).body as { installs: { application_id: string; permissions?: string }[] };
    for (const install of guild.installs) if (install.application_id === DEMO_APP_ID) install.permissions = '2048';
    const put = await requestAt(first.url, 'PUT', `${first.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: `Bearer ${ADMIN_TOKEN}`,
      body: guild,
    });
    assert.ok(put.status === 200 || put.status === 204, put.text);
    const changed = await state(first.url);
    assert.deepEqual(changed, { name: 'Renamed Bot', permissions: '2048' });
    await first.server.stop();

    const second = await start();
    assert.deepEqual(await state(second.url), changed, 'a restart changes nothing back');
    await second.server.stop();

    const reset = await start('--reset-demo');
    assert.deepEqual(await state(reset.url), demo, '--reset-demo brings the demo back');
    await reset.server.stop();
  });
});
