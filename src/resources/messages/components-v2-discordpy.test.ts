/**
 * Components V2 from discord.py (Debian's python3-discord 2.2.2, older than LayoutView, which came
 * with 2.6: docs/decisions.md#components-v2): the bot sends the raw payload through discord.py's
 * own HTTP client, a file named by the gallery as discord.py's multipart body. A user reads the
 * message (the flag, the container, the gallery showing the file she downloads); the edit keeps the
 * flag; dropping it, or content with it, is refused with the v10 50035 error.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { attachmentWorld, download } from '../../../test/helpers/attachments.js';
import { ROOT } from '../../../test/helpers/cli-process.js';
import { pngImage } from '../../../test/helpers/images.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, DEMO_BOT_TOKEN, GENERAL } from '../../../test/helpers/world.js';

type Json = any;

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(ROOT, 'test', 'python', 'discord_components_v2.py');
const IS_COMPONENTS_V2 = 32768;
const PNG = pngImage(24, 16);
const run = promisify(execFile);

describe('Components V2 from discord.py through its own HTTP client', () => {
  let server: TestServer;
  let dir: string;
  let result: Json;

  before(async () => {
    const probe = spawnSync(PYTHON, ['-c', 'import discord'], { encoding: 'utf8' });
    assert.equal(probe.status, 0, `discord.py is missing (Debian package python3-discord): ${probe.stderr ?? ''}`);
    server = await startServer({ world: attachmentWorld() });
    dir = mkdtempSync(join(tmpdir(), 'slashd-dpy-v2-'));
    const image = join(dir, 'snake.png');
    writeFileSync(image, PNG);
    const { stdout } = await run(PYTHON, [SCRIPT, server.api, DEMO_BOT_TOKEN, GENERAL, image], { timeout: 120_000 });
    result = JSON.parse(stdout.trim().split('\n').pop()!);
  });

  after(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a user reads the message: the flag, the container, the gallery showing the uploaded file', async () => {
    const response = await server.request('GET', `/channels/${GENERAL}/messages/${result.sent.id}`, {
      auth: ALICE_TOKEN,
    });
    assert.equal(response.status, 200, response.text);
    const message = response.body;
    assert.equal(message.flags & IS_COMPONENTS_V2, IS_COMPONENTS_V2);
    // The edit replaced the components; the file stays with the message.
    assert.deepEqual(
      message.components.map((c: Json) => [c.type, c.content]),
      [[10, 'edited by discord.py']],
    );
    const [container] = result.sent.components;
    assert.deepEqual(
      container.components.map((c: Json) => c.type),
      [10, 9, 12, 14],
    );
    assert.equal(container.components[1].accessory.custom_id, 'py-press');
    const media = container.components[2].items[0].media;
    assert.equal(media.url, result.sent.attachments[0].url);
    assert.deepEqual([media.width, media.height], [24, 16]);
    assert.deepEqual((await download(media.url, ALICE_TOKEN)).bytes, PNG, 'the user downloads the same bytes');
  });

  test('the edit keeps the flag; dropping it, or content with it, is refused with 50035', () => {
    assert.deepEqual(result.edited, [IS_COMPONENTS_V2, 'edited by discord.py']);
    // discord.py flattens the 50035 tree into "In <path>: <message>" lines.
    const [status, code, text] = result.dropped;
    assert.deepEqual([status, code], [400, 50035]);
    assert.deepEqual(String(text).split('\n').sort(), [
      "In content: The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
      'In flags: The IS_COMPONENTS_V2 flag cannot be removed once set.',
      'Invalid Form Body',
    ]);
    assert.deepEqual(result.legacy, [
      400,
      50035,
      "Invalid Form Body\nIn content: The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
    ]);
  });
});
