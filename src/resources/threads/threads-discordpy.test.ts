/**
 * discord.py (Debian's python3-discord 2.2.2) starts threads and sends DMs through its own API
 * against slashd: `channel.create_thread()` public and private (v10's default type without one),
 * `message.create_thread()` (the thread's id is the message's; a second is refused with 160004),
 * and `user.send()` twice through the one DM channel, which the user then reads with their token.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Guild as WorldGuild } from '../../core/world/types.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

// The repository, from dist/src/resources/threads (where this file runs).
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'python', 'discord_threads.py');
const run = promisify(execFile);
/** CREATE_PUBLIC_THREADS and CREATE_PRIVATE_THREADS. */
const THREAD_BITS = (1n << 35n) | (1n << 36n);

describe('discord.py starts threads and sends DMs', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    const stored = await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: ADMIN_AUTH });
    const world = stored.body as unknown as WorldGuild;
    const installs = world.installs.map((install) =>
      install.application_id === DEMO_APP_ID
        ? { ...install, permissions: String(BigInt(install.permissions ?? '0') | THREAD_BITS) }
        : install,
    );
    const put = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: ADMIN_AUTH,
      body: { ...world, installs },
    });
    assert.equal(put.status, 200, put.text);
  });
  after(async () => {
    await server?.close();
  });

  test('channel.create_thread(), message.create_thread(), user.send()', async () => {
    const probe = spawnSync(PYTHON, ['-c', 'import discord'], { encoding: 'utf8' });
    assert.equal(probe.status, 0, `discord.py is missing (Debian package python3-discord): ${probe.stderr ?? ''}`);
    const { stdout } = await run(PYTHON, [SCRIPT, server.api, DEMO_BOT_TOKEN, GENERAL, CAROL_ID], { timeout: 120_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    assert.deepEqual(result.public.slice(1), [11, 'py-public', GENERAL]);
    assert.deepEqual(result.private.slice(1), [12, 60]);
    const [threadId, messageId, type] = result.from_message;
    assert.equal(threadId, messageId, 'the thread takes the message’s id');
    assert.equal(type, 11);
    assert.deepEqual(result.again, [400, 160004]);
    const [firstDm, secondDm, content] = result.dm;
    assert.equal(firstDm, secondDm, 'one DM channel');
    assert.equal(content, 'a reminder from discord.py');

    const read = await server.request('GET', `/channels/${firstDm}/messages`, { auth: CAROL_TOKEN });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      (read.body as unknown as { content: string }[]).map((m) => m.content),
      ['and another one', 'a reminder from discord.py'],
    );
    const carolSees = await server.request('GET', `/channels/${result.private[0]}`, { auth: CAROL_TOKEN });
    assert.equal(carolSees.status, 403, 'a private thread is hidden from a non-member');
  });
});
