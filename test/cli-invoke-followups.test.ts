/**
 * `slashd invoke` (the real CLI, a child process) against an unmodified discord.js bot that defers,
 * edits its reply and follows up: the answer printed is the edited `@original`, every time, never
 * the ephemeral follow-up sent after it (the newest message); a follow-up that is there when the
 * answer is read is printed after it, as a follow-up, with "only you can see this".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { interactionMessages } from '../src/cli/invoke/outcome.js';
import { CLI, killAll, runToEnd } from './helpers/cli-process.js';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

/** How many times the racy order is invoked: the follow-up lands right after the edit. */
const RUNS = 3;

/** What the bot does, by command; discord.js's own interaction methods only. */
async function answer(interaction: Interaction): Promise<void> {
  if (!interaction.isChatInputCommand()) return;
  await interaction.deferReply();
  if (interaction.commandName === 'later') {
    await interaction.editReply('the real answer');
    await interaction.followUp({ content: 'a note for you', ephemeral: true });
  } else {
    // The follow-up is in the channel before the loading message is replaced.
    await interaction.followUp({ content: 'first a note', ephemeral: true });
    await interaction.editReply('then the answer');
  }
}

describe('slashd invoke after deferReply, editReply and followUp', () => {
  let server: TestServer;
  let client: Client;
  const handled = new Inbox<{ id: string; error: unknown }>((h) => `handled ${h.id}`);

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [
        { name: 'later', description: 'Defers, edits, then follows up' },
        { name: 'noted', description: 'Defers, follows up, then edits' },
      ],
    });
    assert.equal(deployed.status, 200, deployed.text);
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.url}/api` } });
    client.on(Events.InteractionCreate, (interaction) => {
      answer(interaction).then(
        () => handled.push({ id: interaction.id, error: null }),
        (error: unknown) => handled.push({ id: interaction.id, error }),
      );
    });
    const ready = new Inbox<true>(() => 'ready');
    client.once(Events.ClientReady, () => ready.push(true));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
  });

  after(async () => {
    killAll();
    await client?.destroy();
    await server?.close();
  });

  const invoke = (command: string) =>
    runToEnd(process.execPath, [
      CLI,
      'invoke',
      '--as',
      'alice',
      '--channel',
      'general',
      '--url',
      server.url,
      '--admin-token',
      ADMIN_TOKEN,
      command,
    ]);

  test(`the edited @original is the answer, ${RUNS} times of ${RUNS}`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const result = await invoke('/later');
      assert.equal(result.code, 0, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
      const lines = result.stdout.trimEnd().split('\n');
      assert.deepEqual(lines.slice(0, 3), ['alice in #general: /later', 'Demo Bot answered:', '  the real answer']);
      // The follow-up may come after the answer was read; when it is printed, it is one.
      assert.ok(
        lines.slice(3).join('\n') === '' ||
          lines.slice(3).join('\n') === 'Demo Bot followed up (only you can see this):\n  a note for you',
        result.stdout,
      );
    }
    // Each run's bot handled its interaction without an error.
    assert.equal(handled.all().length, RUNS);
    assert.ok(
      handled.all().every((h) => h.error === null),
      String(handled.all().find((h) => h.error)?.error),
    );
  });

  test('a follow-up sent before the edit is printed after the answer, as a follow-up', async () => {
    const result = await invoke('/noted');
    assert.equal(result.code, 0, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
    assert.deepEqual(result.stdout.trimEnd().split('\n'), [
      'alice in #general: /noted',
      'Demo Bot answered:',
      '  then the answer',
      'Demo Bot followed up (only you can see this):',
      '  first a note',
    ]);
  });

  test('among the channel read newest first, @original is the message that follows no other', () => {
    const meta = (extra: object = {}) => ({ interaction_metadata: { id: '7', ...extra } });
    const listed = [
      { id: '13', content: 'second follow-up', ...meta({ original_response_message_id: '10' }) },
      { id: '12', content: 'another interaction', interaction_metadata: { id: '8' } },
      { id: '11', content: 'first follow-up', ...meta({ original_response_message_id: '10' }) },
      { id: '10', content: 'the answer', ...meta() },
    ];
    const { original, followUps } = interactionMessages(listed, '7');
    assert.equal(original?.id, '10');
    assert.deepEqual(
      followUps.map((m) => m.id),
      ['11', '13'],
    );
    assert.equal(interactionMessages(listed.slice(0, 1), '7').original, null, 'no answer yet: only a follow-up');
  });
});
