/**
 * `slashd invoke` against a real slashd and a real app (discord-interactions' verifyKey): the
 * answer printed as the user sees it (inline, and deferred then edited), exit 0; a refusal with
 * the v10 message, code and field path, exit 1; a failed delivery with its reason, exit 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runInvoke } from '../src/cli/invoke/run.js';
import { startRegisteredApp, type AppServer, type Json } from './helpers/app-server.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  MODERATOR_ROLE,
  TEST_GUILD_ID,
} from './helpers/world.js';

const COMMANDS: Json[] = [
  {
    name: 'weather',
    description: 'The weather',
    options: [
      { type: 3, name: 'city', description: 'Where', required: true },
      { type: 4, name: 'days', description: 'How many days', min_value: 1, max_value: 7 },
    ],
  },
  { name: 'later', description: 'Answers later' },
  { name: 'broken', description: 'Fails' },
  {
    name: 'inspect',
    description: 'Reads a file',
    options: [{ type: 11, name: 'file', description: 'The file', required: true }],
  },
];

describe('slashd invoke', () => {
  let server: TestServer;
  let app: AppServer;

  before(async () => {
    server = await startServer();
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN, (interaction) => {
      const options = Object.fromEntries(((interaction.data.options ?? []) as Json[]).map((o) => [o.name, o.value]));
      if (interaction.data.name === 'weather') {
        return {
          inline: {
            type: 4,
            data: {
              content: `Weather in ${options.city}`,
              embeds: [{ title: `${options.days} days`, fields: [{ name: 'day 1', value: 'sunny' }] }],
            },
          },
        };
      }
      if (interaction.data.name === 'inspect') {
        const file = (interaction.data.resolved.attachments as Record<string, Json>)[options.file as string]!;
        return { inline: { type: 4, data: { content: `${file.filename}: ${file.size} bytes` } } };
      }
      if (interaction.data.name === 'later') {
        return {
          accepted: true,
          after: async (received, self) => {
            await self.callback(received, { type: 5 });
            await self.call('PATCH', `/webhooks/${DEMO_APP_ID}/${received.token}/messages/@original`, {
              content: 'done, later',
            });
          },
        };
      }
      return { status: 500, body: 'broken' };
    });
    const put = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: COMMANDS,
    });
    assert.equal(put.status, 200, put.text);
  });

  after(async () => {
    await app.close();
    await server.close();
  });

  async function invokeAs(user: string, url: string, ...argv: string[]) {
    const log: string[] = [];
    const error: string[] = [];
    const status = await runInvoke(
      ['--as', user, '--channel', 'general', ...argv],
      { log: (line) => log.push(line), error: (line) => error.push(line) },
      { SLASHD_URL: url, SLASHD_ADMIN_TOKEN: ADMIN_TOKEN },
    );
    return { status, log, error };
  }

  const invoke = (...argv: string[]) => invokeAs('alice', server.url, ...argv);

  test('options are typed by the command and the inline answer is printed; exit 0', async () => {
    const result = await invoke('/weather city:Paris days:3');
    assert.equal(result.status, 0, result.error.join('\n'));
    assert.deepEqual(result.log, [
      'alice in #general: /weather city:Paris days:3',
      'Demo Bot answered:',
      '  Weather in Paris',
      '  [embed] 3 days',
      '    day 1: sunny',
    ]);
    const received = app.interactions().at(-1)!;
    assert.deepEqual(received.data.options, [
      { type: 3, name: 'city', value: 'Paris' },
      { type: 4, name: 'days', value: 3 },
    ]);
  });

  test('a deferred answer is printed once the app has edited @original; exit 0', async () => {
    const result = await invoke('/later');
    await app.idle();
    assert.equal(result.status, 0, result.error.join('\n'));
    assert.deepEqual(result.log.slice(1), ['Demo Bot answered:', '  done, later']);
  });

  test('a value the command refuses: the v10 message, code and field path; exit 1', async () => {
    const result = await invoke('/weather city:Paris days:9');
    assert.equal(result.status, 1);
    assert.equal(result.error[0], 'refused (400): Invalid Form Body (code 50035)');
    assert.match(result.error[1] ?? '', /^ {2}data\.options\.1\.value: /);
  });

  test('an app that answers 500: the failure reason; exit 1', async () => {
    const result = await invoke('/broken');
    assert.equal(result.status, 1);
    assert.match(result.error[0] ?? '', /^failed: delivery_failure/);
  });

  test("a command hidden from the user: not found, and the permission engine's verdict; exit 1", async () => {
    const later = (
      await server.request('GET', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
        auth: BOT,
      })
    ).body.find((c: Json) => c.name === 'later');
    const permissions = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${later.id}/permissions`;
    const deny = await server.request('PUT', permissions, {
      auth: ALICE_TOKEN,
      body: { permissions: [{ id: MODERATOR_ROLE, type: 1, permission: false }] },
    });
    assert.equal(deny.status, 200, deny.text);
    try {
      const result = await invokeAs('bob', server.url, '/later');
      assert.equal(result.status, 1, result.error.join('\n'));
      assert.match(result.error[0] ?? '', /no slash command 'later' that this user may use in this channel/);
      assert.equal(result.error[1], 'hidden: /later of Demo Bot: Hidden: role Moderator denied at command level.');
      // A command the user does not have at all is only not found.
      const unknown = await invokeAs('bob', server.url, '/nothing-like-it');
      assert.equal(unknown.status, 2);
      assert.equal(unknown.error.filter((line) => line.startsWith('hidden:')).length, 0);
    } finally {
      await server.request('PUT', permissions, { auth: ALICE_TOKEN, body: { permissions: [] } });
    }
  });

  test('a 429 on POST /interactions is waited out for its retry_after and sent again; exit 0', async () => {
    // A proxy in front of slashd answers the first POST /interactions as v10's rate limit does.
    let posts = 0;
    const proxy = createServer((request, response) => {
      if (request.method === 'POST' && request.url === '/api/v10/interactions' && ++posts === 1) {
        request.resume();
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end(
          JSON.stringify({ message: 'You are being rate limited.', code: 0, retry_after: 0.05, global: false }),
        );
        return;
      }
      const forwarded = httpRequest(
        `${server.url}${request.url ?? '/'}`,
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(forwarded);
    });
    await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
    try {
      const { port } = proxy.address() as AddressInfo;
      const result = await invokeAs('alice', `http://127.0.0.1:${port}`, '/weather city:Oslo');
      assert.equal(result.status, 0, result.error.join('\n'));
      assert.equal(posts, 2, 'sent again after the 429');
      assert.deepEqual(result.error, [
        'rate limited (429) on POST /api/v10/interactions: waiting 0.05 s (retry_after), then again',
      ]);
      assert.equal(result.log[2], '  Weather in Oslo');
    } finally {
      proxy.closeAllConnections();
      await new Promise((closed) => proxy.close(closed));
    }
  });

  test('--attach uploads a file as an ATTACHMENT option: the app reads it resolved, the user downloads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slashd-attach-'));
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'hello file\n');
    try {
      const result = await invoke('/inspect', '--attach', `file=${path}`);
      assert.equal(result.status, 0, result.error.join('\n'));
      assert.deepEqual(result.log.slice(1), ['Demo Bot answered:', '  notes.txt: 11 bytes']);
      const received = app.interactions().at(-1)!;
      const option = (received.data.options as Json[])[0]!;
      const file = received.data.resolved.attachments[option.value];
      assert.equal(file.id, option.value, 'the option names the stored file by its id');
      const response = await fetch(file.url, { headers: { authorization: ALICE_TOKEN } });
      assert.equal(await response.text(), 'hello file\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an ATTACHMENT option without --attach is a usage error naming the flag', async () => {
    const result = await invoke('/inspect file:x');
    assert.equal(result.status, 2);
    assert.match(result.error.join('\n'), /--attach file=FILE/);
  });
});
