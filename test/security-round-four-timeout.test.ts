/**
 * Issue 35, item 7: a timeout holds a member wherever their permissions in a channel are read for
 * an action, through real HTTP. While it is in force the member still reads, but cannot react (to
 * a new emoji or one already there), create or join a thread, post or type, and their command
 * picker lists nothing ("Why not?" says why); the owner, an administrator, is never held, a member
 * without a timeout is not touched, and once the timeout ends everything comes back (the clock is
 * the server's, moved by the test: nothing waits on wall-clock time).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { World } from '../src/core/world/types.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  GENERAL,
  GUILD_BASE,
  TEST_GUILD_ID,
  THREAD,
  exampleWorld,
  ALICE_ID,
} from './helpers/world.js';

const HOUR_MS = 60 * 60 * 1000;
const EVERYONE_EXTRA =
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.SendMessagesInThreads;

describe('a timed-out member only reads', () => {
  let server: TestServer;
  let clock = Date.now();
  const until = new Date(clock + HOUR_MS).toISOString();
  let messageId = '';

  function world(): World {
    const w = exampleWorld();
    const guild = w.guilds.find((g) => g.id === TEST_GUILD_ID)!;
    // Everyone may react and start threads: what carol is refused, the timeout refuses.
    const everyone = guild.roles.find((role) => role.id === TEST_GUILD_ID)!;
    everyone.permissions = String(BigInt(everyone.permissions) | EVERYONE_EXTRA);
    for (const member of guild.members) {
      // Carol (no role) is held; Alice, the owner and an administrator, never is.
      if (member.user_id === CAROL_ID || member.user_id === ALICE_ID) member.communication_disabled_until = until;
    }
    return w;
  }

  before(async () => {
    server = await startServer({ world: world(), now: () => clock });
    const command = await server.request('POST', GUILD_BASE, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping', type: 1 },
    });
    assert.equal(command.status, 201, command.text);
    const posted = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'react to me' },
    });
    assert.equal(posted.status, 200, posted.text);
    messageId = posted.body.id;
    // Bob (no timeout) reacts first, so 👍 is already on the message.
    assert.equal((await react(BOB_TOKEN, '👍')).status, 204);
  });
  after(() => server.close());

  const react = (auth: string, emoji: string) =>
    server.request('PUT', `/channels/${GENERAL}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}/@me`, {
      auth,
    });
  const startThread = (auth: string, name: string) =>
    server.request('POST', `/channels/${GENERAL}/threads`, { auth, body: { name, type: 11 } });
  const joinThread = (auth: string) => server.request('PUT', `/channels/${THREAD}/thread-members/@me`, { auth });
  const post = (auth: string) =>
    server.request('POST', `/channels/${GENERAL}/messages`, { auth, body: { content: 'hi' } });
  const picker = async (auth: string) => {
    const index = await server.request('GET', `/channels/${GENERAL}/application-command-index`, { auth });
    assert.equal(index.status, 200, index.text);
    return (index.body.application_commands as { name: string }[]).map((c) => c.name);
  };
  const refused = (response: { status: number; text: string; body: { code?: number } }, what: string) => {
    assert.equal(response.status, 403, `${what}: ${response.text}`);
    assert.equal(response.body.code, 50013, what);
  };

  test('while held: no reaction, thread, message or command; reading still works', async () => {
    refused(await react(CAROL_TOKEN, '👍'), 'a reaction already on the message');
    refused(await react(CAROL_TOKEN, '🎉'), 'a new reaction');
    refused(await startThread(CAROL_TOKEN, 'held'), 'thread create');
    refused(await joinThread(CAROL_TOKEN), 'thread join');
    refused(await post(CAROL_TOKEN), 'message');
    refused(await server.request('POST', `/channels/${GENERAL}/typing`, { auth: CAROL_TOKEN }), 'typing');
    assert.deepEqual(await picker(CAROL_TOKEN), []);
    const why = await server.request('GET', `/channels/${GENERAL}/application-command-index/explain`, {
      auth: CAROL_TOKEN,
    });
    assert.equal(why.status, 200, why.text);
    const explained = why.body.applications.flatMap((app: { commands: unknown[] }) => app.commands);
    assert.ok(explained.length > 0);
    for (const command of explained) {
      assert.equal(command.verdict, 'hidden');
      assert.equal(command.reason.kind, 'timed_out');
    }
    const read = await server.request('GET', `/channels/${GENERAL}/messages`, { auth: CAROL_TOKEN });
    assert.equal(read.status, 200, read.text);
    assert.ok(read.body.some((m: { id: string }) => m.id === messageId));
    const reactions = await server.request('GET', `/channels/${GENERAL}/messages/${messageId}`, { auth: CAROL_TOKEN });
    assert.deepEqual(
      reactions.body.reactions.map((r: { emoji: { name: string }; count: number }) => [r.emoji.name, r.count]),
      [['👍', 1]],
      'nothing the refusals touched was written',
    );
  });

  test('members without a timeout, and administrators with one, are not held', async () => {
    for (const auth of [BOB_TOKEN, ALICE_TOKEN]) {
      assert.equal((await react(auth, '🎉')).status, 204);
      assert.equal((await startThread(auth, `free-${auth.slice(0, 3)}`)).status, 201);
      assert.equal((await joinThread(auth)).status, 204);
      assert.equal((await post(auth)).status, 200);
      assert.ok((await picker(auth)).includes('ping'));
    }
  });

  test('once the timeout ends the member acts again, and the picker lists again', async () => {
    clock += HOUR_MS + 1000;
    assert.ok((await picker(CAROL_TOKEN)).includes('ping'));
    assert.equal((await react(CAROL_TOKEN, '👍')).status, 204);
    assert.equal((await joinThread(CAROL_TOKEN)).status, 204);
    assert.equal((await startThread(CAROL_TOKEN, 'free-carol')).status, 201);
    assert.equal((await post(CAROL_TOKEN)).status, 200);
  });
});
