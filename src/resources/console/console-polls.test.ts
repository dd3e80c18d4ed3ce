/**
 * Users vote in polls in the web console (Debian's Chromium): alice votes for an answer of the
 * bot's poll and sees it pressed with its count, bob's vote (made elsewhere) shows up live, she
 * moves her vote and takes it back; with a multiselect poll she picks two answers; once the bot
 * ends the poll its answers take no vote. The console's page stays accessible; a screenshot of a
 * poll alice voted in is taken for the docs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { World } from '../../core/world/types.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  messageWith,
  openConsole,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_ID, BOB_TOKEN, BOT, exampleWorld, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

const SEND_POLLS = 1n << 49n;

/** The example world with SEND_POLLS for everyone. */
function pollsWorld(): World {
  const world = exampleWorld();
  const everyone = world.guilds.find((g) => g.id === TEST_GUILD_ID)!.roles.find((r) => r.id === TEST_GUILD_ID)!;
  everyone.permissions = (BigInt(everyone.permissions) | SEND_POLLS).toString();
  return world;
}

const answers = (...texts: string[]) => texts.map((text) => ({ poll_media: { text } }));

describe('the console: users vote in polls', () => {
  let server: TestServer;
  let browser: Browser;
  let alice: Page;

  async function sendPoll(question: string, multiselect: boolean): Promise<string> {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: {
        poll: {
          question: { text: question },
          answers: answers('Tabs', 'Spaces', 'Both'),
          allow_multiselect: multiselect,
        },
      },
    });
    assert.equal(sent.status, 200, sent.text);
    return sent.body.id as string;
  }

  async function aliceVotes(id: string): Promise<number[]> {
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${id}`, { auth: BOT });
    const voters: number[] = [];
    for (const answer of read.body.poll.answers as { answer_id: number }[]) {
      const listed = await server.request('GET', `/channels/${GENERAL}/polls/${id}/answers/${answer.answer_id}`, {
        auth: BOT,
      });
      if ((listed.body.users as { id: string }[]).some((u) => u.id === ALICE_ID)) voters.push(answer.answer_id);
    }
    return voters;
  }

  before(async () => {
    server = await startServer({ world: pollsWorld(), config: { sandboxSignIn: true } });
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url);
    await signInAs(alice, 'alice');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const answer = (question: string, name: RegExp | string) =>
    // The first: the poll result message, once posted, names the question too.
    messageWith(alice, question).first().getByRole('button', { name });

  test('alice votes, sees bob’s vote live, moves her vote and takes it back', async () => {
    const id = await sendPoll('Tabs or spaces?', false);
    await messageWith(alice, 'Tabs or spaces?').waitFor();
    await answer('Tabs or spaces?', 'Tabs, 0 votes').click();
    const tabs = answer('Tabs or spaces?', 'Tabs, 1 vote');
    await tabs.waitFor();
    assert.equal(await tabs.getAttribute('aria-pressed'), 'true', 'her vote is pressed');
    assert.deepEqual(await aliceVotes(id), [1]);

    const bob = await server.request('PUT', `/channels/${GENERAL}/polls/${id}/answers/@me`, {
      auth: BOB_TOKEN,
      body: { answer_ids: [2] },
    });
    assert.equal(bob.status, 204, bob.text);
    await answer('Tabs or spaces?', 'Spaces, 1 vote').waitFor();

    await answer('Tabs or spaces?', 'Spaces, 1 vote').click();
    await answer('Tabs or spaces?', 'Spaces, 2 votes').waitFor();
    await answer('Tabs or spaces?', 'Tabs, 0 votes').waitFor();
    assert.deepEqual(await aliceVotes(id), [2]);

    await answer('Tabs or spaces?', 'Spaces, 2 votes').click();
    const left = answer('Tabs or spaces?', 'Spaces, 1 vote');
    await left.waitFor();
    assert.equal(await left.getAttribute('aria-pressed'), 'false', 'only bob’s is left');
    assert.deepEqual(await aliceVotes(id), []);
    assert.deepEqual(pageErrors(alice), []);
  });

  test('a multiselect poll takes two answers; an ended poll takes none', async () => {
    const id = await sendPoll('Which editors?', true);
    await messageWith(alice, 'Which editors?').waitFor();
    await answer('Which editors?', 'Tabs, 0 votes').click();
    await answer('Which editors?', 'Tabs, 1 vote').waitFor();
    await answer('Which editors?', 'Both, 0 votes').click();
    await answer('Which editors?', 'Both, 1 vote').waitFor();
    assert.deepEqual(await aliceVotes(id), [1, 3]);
    await assertAccessible(alice, 'a message with a poll');
    await screenshot(alice, 'console-poll');

    const ended = await server.request('POST', `/channels/${GENERAL}/polls/${id}/expire`, { auth: BOT });
    assert.equal(ended.status, 200, ended.text);
    await messageWith(alice, 'Which editors?')
      .first()
      .getByText(/Poll closed/)
      .waitFor();
    assert.equal(await answer('Which editors?', 'Spaces, 0 votes').isDisabled(), true);
    assert.deepEqual(await aliceVotes(id), [1, 3]);
  });
});
