/**
 * The console's own back end over real HTTP (docs/console.md): the page at /console with its CSP
 * and cache headers, the sandbox sign-in list only in a sandbox, a guild's channels and members
 * for its members only, and the live stream: bounded per user, refused for a channel the user
 * cannot view, never carrying another channel's events nor an ephemeral answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { World } from '../../core/world/types.js';
import { CONSOLE_STREAMS_PER_USER } from './service.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  HIDDEN,
  TEST_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';
import { invocationBody } from '../../../test/helpers/invocation.js';

/** VIEW_CHANNEL | SEND_MESSAGES */
const VIEW_AND_SEND = '3072';

/** The example world with #hidden: nobody views it but its owner (alice) and the demo bot. */
function consoleWorld(): World {
  const world = exampleWorld();
  world.guilds[0]!.channels.push({
    id: HIDDEN,
    type: 0,
    name: 'hidden',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [
      { id: TEST_GUILD_ID, type: 0, allow: '0', deny: '1024' },
      { id: DEMO_APP_ID, type: 1, allow: VIEW_AND_SEND, deny: '0' },
    ],
  });
  return world;
}

interface StreamEvent {
  t: string;
  message_id: string;
}

/** A live stream read as the console reads it: fetch with the Authorization header, SSE blocks parsed. */
async function openStream(server: TestServer, token: string, channelId: string) {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/console/api/channels/${channelId}/events`, {
    headers: { authorization: token },
    signal: abort.signal,
  });
  const events = new Inbox<StreamEvent>((e) => `${e.t} ${e.message_id}`);
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const data = buffer
              .slice(0, end)
              .split('\n')
              .find((line) => line.startsWith('data: '));
            buffer = buffer.slice(end + 2);
            if (data) events.push(JSON.parse(data.slice(6)) as StreamEvent);
          }
        }
      } catch {
        // aborted by the test
      }
    })();
  }
  return { response, events, close: () => abort.abort() };
}

describe('the console back end', () => {
  let server: TestServer;
  let sandbox: TestServer;
  before(async () => {
    server = await startServer({ world: consoleWorld() });
    sandbox = await startServer({ world: consoleWorld(), config: { sandboxSignIn: true } });
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  test('serves the page with a CSP that allows no inline script, and hashed assets as immutable', async () => {
    const page = await fetch(`${server.url}/console`);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const html = await page.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script in the page');
    const script = /<script[^>]*src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const asset = await fetch(`${server.url}${script}`);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
    const again = await fetch(`${server.url}${script}`, { headers: { 'if-none-match': asset.headers.get('etag')! } });
    assert.equal(again.status, 304);
    assert.equal((await fetch(`${server.url}/console/assets/nothing.js`)).status, 404);
    // A screen's address is the page too.
    assert.equal((await fetch(`${server.url}/console/chat`)).status, 200);
  });

  test('lists the sandbox users only when the server runs as a sandbox', async () => {
    const off = await server.request('GET', '/console/api/sandbox-users', { auth: null });
    assert.equal(off.status, 404);
    const on = await fetch(`${sandbox.url}/console/api/sandbox-users`);
    assert.equal(on.status, 200);
    const users = (await on.json()) as { username: string; token: string }[];
    assert.ok(users.some((u) => u.username === 'alice' && u.token === ALICE_TOKEN));
  });

  test("lists a guild's viewable channels and members to its members only", async () => {
    const mine = await fetch(`${server.url}/console/api/guilds/${TEST_GUILD_ID}/channels`, {
      headers: { authorization: BOB_TOKEN },
    });
    assert.equal(mine.status, 200);
    const ids = ((await mine.json()) as { id: string }[]).map((c) => c.id);
    assert.ok(ids.includes(GENERAL));
    assert.ok(!ids.includes(HIDDEN), 'bob does not view #hidden');
    const owners = await fetch(`${server.url}/console/api/guilds/${TEST_GUILD_ID}/channels`, {
      headers: { authorization: ALICE_TOKEN },
    });
    assert.ok(
      ((await owners.json()) as { id: string }[]).some((c) => c.id === HIDDEN),
      'the owner views #hidden',
    );
    const members = await fetch(`${server.url}/console/api/guilds/${TEST_GUILD_ID}/members`, {
      headers: { authorization: ALICE_TOKEN },
    });
    assert.equal(members.status, 200);
    assert.ok(((await members.json()) as { user: { username: string } }[]).some((m) => m.user.username === 'bob'));
    const anonymous = await fetch(`${server.url}/console/api/guilds/${TEST_GUILD_ID}/members`);
    assert.equal(anonymous.status, 401);
    const bot = await fetch(`${server.url}/console/api/guilds/${TEST_GUILD_ID}/members`, {
      headers: { authorization: BOT },
    });
    assert.equal(bot.status, 401, 'the console API is for users');
  });

  test('refuses a stream of a channel the user cannot view, and one more than the bound per user', async () => {
    const hidden = await openStream(server, BOB_TOKEN, HIDDEN);
    assert.equal(hidden.response.status, 403);
    assert.equal(((await hidden.response.json()) as { code: number }).code, 50001);
    const open = [];
    for (let i = 0; i < CONSOLE_STREAMS_PER_USER; i++) {
      const stream = await openStream(server, BOB_TOKEN, GENERAL);
      assert.equal(stream.response.status, 200);
      assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
      open.push(stream);
    }
    const extra = await openStream(server, BOB_TOKEN, GENERAL);
    assert.equal(extra.response.status, 429);
    // Another user's bound is their own.
    const alice = await openStream(server, ALICE_TOKEN, GENERAL);
    assert.equal(alice.response.status, 200);
    alice.close();
    for (const stream of open) stream.close();
    // Closed streams are given back: bob may open one again (the server sees the close first).
    const deadline = Date.now() + 10_000;
    let again = await openStream(server, BOB_TOKEN, GENERAL);
    while (again.response.status === 429 && Date.now() < deadline) {
      await new Promise((done) => setImmediate(done));
      again = await openStream(server, BOB_TOKEN, GENERAL);
    }
    assert.equal(again.response.status, 200);
    again.close();
  });

  test("carries the channel's message events only: no other channel's, no ephemeral answer", async () => {
    const bob = await openStream(server, BOB_TOKEN, GENERAL);
    assert.equal(bob.response.status, 200);
    try {
      // A message in #hidden (which bob cannot view), then an ephemeral answer to alice in
      // #general, then a public message in #general: the first event bob gets is the last one.
      const secret = await server.request('POST', `/channels/${HIDDEN}/messages`, {
        auth: BOT,
        body: { content: 'secret' },
      });
      assert.equal(secret.status, 200, secret.text);
      const tokens = new Inbox<{ id: string; token: string }>((i) => i.id);
      const unsubscribe = server.slashd.bus.subscribe('INTERACTION_CREATE', (event) =>
        tokens.push({ id: event.data.id as string, token: event.data.token as string }),
      );
      const command = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
        auth: BOT,
        body: { name: 'whisper', description: 'Answers only you' },
      });
      assert.ok(command.status === 201 || command.status === 200, command.text);
      const invoked = await server.request('POST', '/interactions', {
        auth: ALICE_TOKEN,
        body: invocationBody(command.body),
      });
      assert.equal(invoked.status, 200, invoked.text);
      const interaction = await tokens.find((i) => i.id === invoked.body.id, 'the interaction on the bus');
      unsubscribe();
      const answered = await server.request('POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
        body: { type: 4, data: { content: 'only alice', flags: 64 } },
      });
      assert.equal(answered.status, 204, answered.text);
      const visible = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { content: 'hello all' },
      });
      assert.equal(visible.status, 200, visible.text);

      const first = await bob.events.find(() => true, 'the first event of the stream');
      assert.deepEqual(first, { t: 'MESSAGE_CREATE', message_id: visible.body.id });
      // And what alice reads through v10 includes her ephemeral answer, bob's does not.
      const alices = await server.request('GET', `/channels/${GENERAL}/messages?limit=5`, { auth: ALICE_TOKEN });
      const bobs = await server.request('GET', `/channels/${GENERAL}/messages?limit=5`, { auth: BOB_TOKEN });
      assert.ok((alices.body as { content: string }[]).some((m) => m.content === 'only alice'));
      assert.ok(!(bobs.body as { content: string }[]).some((m) => m.content === 'only alice'));
    } finally {
      bob.close();
    }
  });
});
