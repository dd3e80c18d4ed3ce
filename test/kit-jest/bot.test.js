// slashd/testing under Jest (ESM: node --experimental-vm-modules): the example discord.js bot answers /ping and handles a button, and
// a snapshot restored before each test keeps the tests apart. Run by test/testing-kit-runners.test.ts.
import { afterAll, beforeAll, beforeEach, expect, test } from '@jest/globals';
import { createSandbox } from 'slashd/testing';
import { startBot } from '../../examples/testing/ping-bot.js';

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

test('a test leaves a message behind', async () => {
  await sandbox.invoke('alice', 'general', '/ping');
  expect((await sandbox.messages('general')).some((m) => m.content === 'pong')).toBe(true);
});

test('the next test does not see it', async () => {
  expect((await sandbox.messages('general')).some((m) => m.content === 'pong')).toBe(false);
});
