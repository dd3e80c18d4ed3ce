/**
 * `slashd/testing` under node:test, with the example discord.js bot (examples/testing/ping-bot.js)
 * as the bot under test: it answers /ping, handles a button and a modal, survives an injected 429
 * burst on its REST calls and a gateway RECONNECT; a snapshot restored before each test keeps the
 * tests apart (what one test changes never reaches the next).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { Events, type Client } from 'discord.js';
import { createSandbox, type Sandbox } from '../src/testing/index.js';
import { Inbox } from './helpers/inbox.js';
import { loadPingBot, type PingBot } from './helpers/ping-bot.js';

describe('slashd/testing with a discord.js bot (node:test)', () => {
  let sandbox: Sandbox;
  let bot: typeof PingBot;
  let client: Client<true>;
  let base: string;

  before(async () => {
    bot = await loadPingBot();
    sandbox = await createSandbox();
    client = await bot.startBot({ token: sandbox.bot().token, restUrl: sandbox.restUrl });
    base = await sandbox.snapshot();
  });
  beforeEach(() => sandbox.restore(base));
  afterEach(() => sandbox.faults.clear());
  after(async () => {
    await client?.destroy();
    await sandbox?.close();
  });

  test('the bot answers /ping', async () => {
    const outcome = await sandbox.invoke('alice', 'general', '/ping');
    assert.equal(outcome.state, 'responded', JSON.stringify(outcome));
    assert.equal(outcome.message?.content, 'pong');
    assert.deepEqual(
      outcome.messages.map((m) => m.content),
      ['pong'],
    );
  });

  test('the bot handles a button: the click updates the message', async () => {
    const shown = await sandbox.invoke('alice', 'general', '/button');
    assert.equal(shown.message?.content, 'press the button');
    const clicked = await sandbox.click('bob', shown.message, 'press');
    assert.equal(clicked.state, 'responded', JSON.stringify(clicked));
    assert.equal(clicked.response?.type, 7, 'UPDATE_MESSAGE');
    assert.equal(clicked.message?.id, shown.message.id);
    assert.equal(clicked.message?.content, 'pressed by bob');
    const channel = await sandbox.messages('general');
    assert.equal(channel.find((m) => m.id === shown.message!.id)?.content, 'pressed by bob');
  });

  test('the bot reads a modal submission', async () => {
    const opened = await sandbox.invoke('carol', 'general', '/feedback');
    assert.equal(opened.modal?.custom_id, 'feedback');
    const submitted = await sandbox.submitModal('carol', opened, { text: 'nice kit' });
    assert.equal(submitted.message?.content, 'thanks for "nice kit"');
  });

  test('the bot survives an injected burst of 429s on its REST calls', async () => {
    const statuses: number[] = [];
    const seen = (_request: unknown, response: { status: number }) => statuses.push(response.status);
    client.rest.on('response', seen);
    await sandbox.faults.add({
      kind: 'rate_limit',
      route: 'PUT /applications/:applicationId/commands',
      retry_after: 0.05,
      count: 3,
    });
    try {
      await bot.deployCommands(client);
    } finally {
      client.rest.off('response', seen);
    }
    assert.deepEqual(statuses, [429, 429, 429, 200], 'three 429s, then discord.js got through');
    assert.equal((await sandbox.invoke('alice', 'general', '/ping')).message?.content, 'pong');
  });

  test('the bot survives a gateway RECONNECT', async () => {
    const resumes = new Inbox<number>((shard) => `resumed shard ${shard}`);
    const debug = new Inbox<string>((line) => line);
    const onResume = (shard: number) => resumes.push(shard);
    const onDebug = (line: string) => debug.push(line);
    client.on(Events.ShardResume, onResume);
    client.on(Events.Debug, onDebug);
    try {
      await sandbox.faults.add({ kind: 'reconnect', count: 1 });
      await debug.find((line) => line.includes('Told to reconnect'), 'discord.js told to reconnect (op 7)');
      await resumes.find(() => true, 'the bot resuming its session');
    } finally {
      client.off(Events.ShardResume, onResume);
      client.off(Events.Debug, onDebug);
    }
    assert.equal((await sandbox.invoke('alice', 'general', '/ping')).message?.content, 'pong');
  });

  describe('per-test isolation', () => {
    test('a test changes the world, the commands and the channel', async () => {
      await sandbox.invoke('alice', 'general', '/ping');
      await client.application.commands.create({ name: 'leftover', description: 'left by a test' });
      await sandbox.mergeWorld({ users: [{ ...(await sandbox.world()).users[0]!, username: 'renamed' }] });
      assert.ok((await sandbox.messages('general')).some((m) => m.content === 'pong'));
    });

    test('the next test sees none of it', async () => {
      const world = await sandbox.world();
      assert.equal(world.users[0]!.username, 'alice');
      assert.ok(!(await sandbox.messages('general')).some((m) => m.content === 'pong'), 'no message of the last test');
      const commands = await client.application.commands.fetch({ force: true } as never);
      assert.deepEqual([...commands.values()].map((c) => c.name).sort(), ['button', 'feedback', 'ping']);
      assert.deepEqual(await sandbox.faults.list(), []);
    });
  });
});

describe('createSandbox', () => {
  test('reset() returns to the start; the sandboxes of one process are apart', async () => {
    const [one, two] = await Promise.all([createSandbox(), createSandbox()]);
    try {
      assert.notEqual(one.url, two.url);
      const alice = one.user('alice');
      await one.mergeWorld({ users: [{ ...alice, username: 'changed', locale: 'en-US', age_verified: true }] });
      assert.equal(one.user('changed').id, alice.id);
      assert.equal((await two.world()).users.find((u) => u.id === alice.id)?.username, 'alice');
      await one.reset();
      assert.equal((await one.world()).users.find((u) => u.id === alice.id)?.username, 'alice');
      assert.equal(one.user('alice').id, alice.id);
      await assert.rejects(one.invoke('alice', 'general', '/nothing'), /no slash command 'nothing'/);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
