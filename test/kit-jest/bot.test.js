// slashd/testing under Jest (ESM: node --experimental-vm-modules): the example discord.js bot answers /ping, handles a button, survives an injected
// 429 burst and a gateway RECONNECT, and
// a snapshot restored before each test keeps the tests apart. Run by test/testing-kit-runners.test.ts.
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { createSandbox, runScenario } from 'slashd/testing';
import { deployCommands, startBot } from '../../examples/testing/ping-bot.js';

let sandbox;
let client;
let base;

beforeAll(async () => {
  sandbox = await createSandbox();
  client = await startBot({ token: sandbox.bot().token, restUrl: sandbox.restUrl });
  base = await sandbox.snapshot();
});
beforeEach(() => sandbox.restore(base));
afterAll(async () => {
  await client?.destroy();
  await sandbox?.close();
});

test('the bot answers /ping', async () => {
  const outcome = await sandbox.invoke('alice', 'general', '/ping');
  expect(outcome.message?.content).toBe('pong');
});

test('the bot handles a button', async () => {
  const shown = await sandbox.invoke('alice', 'general', '/button');
  const clicked = await sandbox.click('bob', shown.message, 'press');
  expect(clicked.message?.content).toBe('pressed by bob');
});

test('the bot survives an injected burst of 429s on its REST calls', async () => {
  const statuses = [];
  const seen = (_request, response) => statuses.push(response.status);
  client.rest.on('response', seen);
  await sandbox.faults.add({
    kind: 'rate_limit',
    route: 'PUT /applications/:applicationId/commands',
    retry_after: 0.05,
    count: 3,
  });
  try {
    await deployCommands(client);
  } finally {
    client.rest.off('response', seen);
    await sandbox.faults.clear();
  }
  expect(statuses).toEqual([429, 429, 429, 200]);
  expect((await sandbox.invoke('alice', 'general', '/ping')).message?.content).toBe('pong');
});

test('the bot survives a gateway RECONNECT', async () => {
  const resumed = new Promise((resolve) => client.once('shardResume', resolve));
  await sandbox.faults.add({ kind: 'reconnect', count: 1 });
  await resumed;
  await sandbox.faults.clear();
  expect((await sandbox.invoke('alice', 'general', '/ping')).message?.content).toBe('pong');
});

test('a test leaves a message behind', async () => {
  await sandbox.invoke('alice', 'general', '/ping');
  expect((await sandbox.messages('general')).some((m) => m.content === 'pong')).toBe(true);
});

test('the next test does not see it', async () => {
  expect((await sandbox.messages('general')).some((m) => m.content === 'pong')).toBe(false);
});

test('the example scenario file replays against the bot', async () => {
  const file = fileURLToPath(new URL('../../examples/testing/ping-bot.scenario.yaml', import.meta.url));
  const run = await runScenario(file, { sandbox });
  expect(run.report).toMatch(/1 passed, 0 failed, 1 scenarios/);
  expect(run.passed).toBe(true);
});
