/**
 * Component and embed refusals over real HTTP, everywhere a message body is taken: interaction
 * callbacks (4, 7 and the modal 9) sent by a discord-interactions app, follow-ups and webhook
 * edits, and `POST`/`PATCH /channels/{id}/messages`. Each refusal is 400 with a 50035 tree naming
 * the field, and nothing of the refused body is stored: the same interaction or message then takes
 * a valid body. `javascript:` and `data:` URLs never reach the channel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as codes from '../../core/io/codes.js';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN as ALICE,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Path = (string | number)[];
interface Answer {
  status: number;
  body: Json | undefined;
  text: string;
}

/** The error at `path` of a 50035 answer: its first code. */
function codeAt(answer: Answer, path: Path): string | undefined {
  assert.equal(answer.status, 400, answer.text);
  assert.equal(answer.body?.code, 50035, answer.text);
  let node: Json | undefined = answer.body?.errors;
  for (const key of path) node = node?.[String(key)];
  return node?._errors?.[0]?.code;
}

function assertRefusedAt(answer: Answer, path: Path, code: string): void {
  assert.equal(codeAt(answer, path), code, `${path.join('.')}: ${answer.text}`);
}

const row = (...components: Json[]) => ({ type: 1, components });
const NO_CUSTOM_ID = row({ type: 2, style: 1, label: 'Go' });
const GOOD_ROW = row({ type: 2, style: 1, label: 'Go', custom_id: 'go' });

describe('message bodies are validated as v10 does, over real HTTP', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;

  before(async () => {
    server = await startServer();
    const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: [{ name: 'panel', description: 'A panel' }],
    });
    assert.equal(deployed.status, 200, deployed.text);
    command = (deployed.body as Json[])[0]!;
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
  });

  after(async () => {
    await app?.close();
    await server?.close();
  });

  async function interact(body: Json): Promise<Json> {
    const response = await server.request('POST', '/interactions', {
      auth: ALICE,
      body: { application_id: DEMO_APP_ID, guild_id: TEST_GUILD_ID, channel_id: GENERAL, ...body },
    });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  /** Alice's /panel; the app answers 202 and then runs `answer` with the interaction. */
  async function invoke(answer: (interaction: Json, self: AppServer) => Promise<void>): Promise<Json> {
    app.handle(() => ({ accepted: true, after: answer }));
    const accepted = await interact({
      type: 2,
      data: { id: command.id, name: command.name, type: 1, version: command.version },
    });
    await app.idle();
    return accepted;
  }

  async function channelMessages(): Promise<Json[]> {
    const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: ALICE });
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  test('callback 4: a button without custom_id is 50035 at data.components.0.components.0.custom_id', async () => {
    const answers: Answer[] = [];
    const accepted = await invoke(async (interaction, self) => {
      answers.push(await self.callback(interaction, { type: 4, data: { content: 'x', components: [NO_CUSTOM_ID] } }));
      answers.push(
        await self.callback(interaction, {
          type: 4,
          data: {
            embeds: [{ title: 'x', url: 'javascript:alert(1)', image: { url: 'data:image/png;base64,AAAA' } }],
            components: [row({ type: 2, style: 5, label: 'Open', url: 'javascript:alert(document.cookie)' })],
          },
        }),
      );
      answers.push(await self.callback(interaction, { type: 4, data: { content: 'fixed', components: [GOOD_ROW] } }));
    });
    const [missing, schemes, fixed] = answers;
    assertRefusedAt(
      missing!,
      ['data', 'components', 0, 'components', 0, 'custom_id'],
      codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED,
    );
    assert.equal(
      missing!.body?.errors.data.components['0'].components['0'].custom_id._errors[0].message,
      'A custom id is required',
    );
    assertRefusedAt(schemes!, ['data', 'embeds', 0, 'url'], codes.URL_TYPE_INVALID_SCHEME);
    assertRefusedAt(schemes!, ['data', 'embeds', 0, 'image', 'url'], codes.URL_TYPE_INVALID_SCHEME);
    assertRefusedAt(schemes!, ['data', 'components', 0, 'components', 0, 'url'], codes.URL_TYPE_INVALID_SCHEME);
    // The refusals wrote nothing: the interaction was still open for the valid answer.
    assert.equal(fixed!.status, 204, fixed!.text);
    const answer = (await channelMessages()).filter((m) => m.interaction_metadata?.id === accepted.id);
    assert.deepEqual(
      answer.map((m) => m.content),
      ['fixed'],
    );
    assert.equal(answer[0]!.components[0].components[0].custom_id, 'go');
  });

  test('follow-ups and webhook edits: duplicated custom ids, a select beside a button, a bad emoji', async () => {
    const answers: Answer[] = [];
    let token = '';
    await invoke(async (interaction, self) => {
      token = interaction.token;
      const webhook = `/webhooks/${DEMO_APP_ID}/${interaction.token}`;
      const deferred = await self.callback(interaction, { type: 5 });
      assert.equal(deferred.status, 204, deferred.text);
      answers.push(
        await self.call('PATCH', `${webhook}/messages/@original`, {
          components: [
            row(
              { type: 2, style: 1, label: 'A', custom_id: 'a' },
              { type: 3, custom_id: 's', options: [{ label: 'x', value: 'x' }] },
            ),
          ],
        }),
      );
      answers.push(await self.call('PATCH', `${webhook}/messages/@original`, { content: 'original' }));
      answers.push(
        await self.call('POST', webhook, {
          components: [GOOD_ROW, row({ type: 2, style: 2, label: 'Again', custom_id: 'go' })],
        }),
      );
      const followUp = await self.call('POST', webhook, { content: 'follow-up' });
      assert.equal(followUp.status, 200, followUp.text);
      answers.push(
        await self.call('PATCH', `${webhook}/messages/${followUp.body?.id}`, {
          components: [row({ type: 2, style: 1, label: 'Smile', custom_id: 'smile', emoji: { name: 'smile' } })],
        }),
      );
      answers.push(
        await self.call('POST', webhook, {
          embeds: [
            { description: 'd'.repeat(4096) },
            { description: 'd'.repeat(1905), author: { name: 'a'.repeat(100) } },
          ],
        }),
      );
    });
    const [width, original, duplicated, emoji, tooLarge] = answers;
    assertRefusedAt(width!, ['components', 0, 'components', 1], codes.COMPONENT_LAYOUT_WIDTH_EXCEEDED);
    assert.equal(original!.status, 200, original!.text);
    assertRefusedAt(duplicated!, ['components', 1, 'components', 0, 'custom_id'], codes.COMPONENT_CUSTOM_ID_DUPLICATED);
    assertRefusedAt(emoji!, ['components', 0, 'components', 0, 'emoji', 'name'], codes.COMPONENT_INVALID_EMOJI);
    assertRefusedAt(tooLarge!, ['embeds'], codes.MAX_EMBED_SIZE_EXCEEDED);
    const mine = await app.call('GET', `/webhooks/${DEMO_APP_ID}/${token}/messages/@original`);
    assert.equal(mine.body?.content, 'original');
    assert.deepEqual(mine.body?.components, [], 'the refused edit left no component behind');
  });

  test('callback 9: a modal with a button, and a text input without style', async () => {
    const answers: Answer[] = [];
    await invoke(async (interaction, self) => {
      answers.push(
        await self.callback(interaction, {
          type: 9,
          data: {
            custom_id: 'form',
            title: 'Form',
            components: [
              row({ type: 2, style: 1, label: 'No', custom_id: 'no' }),
              row({ type: 4, custom_id: 'topic', label: 'Topic' }),
            ],
          },
        }),
      );
      answers.push(
        await self.callback(interaction, {
          type: 9,
          data: {
            custom_id: 'form',
            title: 'Form',
            components: [{ type: 18, label: 'Topic', component: { type: 4, custom_id: 'topic', style: 1 } }],
          },
        }),
      );
    });
    const [refused, accepted] = answers;
    assertRefusedAt(refused!, ['data', 'components', 0, 'components', 0], codes.UNION_TYPE_CHOICES);
    assertRefusedAt(refused!, ['data', 'components', 1, 'components', 0, 'style'], codes.BASE_TYPE_REQUIRED);
    assert.equal(accepted!.status, 204, accepted!.text);
  });

  test('callback 7 on a click: components v2 without the flag, a select with max_values above its options', async () => {
    const answers: Answer[] = [];
    await invoke(async (interaction, self) => {
      const posted = await self.callback(interaction, { type: 4, data: { content: 'Panel', components: [GOOD_ROW] } });
      assert.equal(posted.status, 204, posted.text);
    });
    const panelId: string = (await channelMessages()).find((m) => m.content === 'Panel')!.id;
    app.handle(() => ({
      accepted: true,
      after: async (interaction, self) => {
        answers.push(
          await self.callback(interaction, { type: 7, data: { components: [{ type: 10, content: 'v2' }] } }),
        );
        answers.push(
          await self.callback(interaction, {
            type: 7,
            data: {
              components: [row({ type: 3, custom_id: 'pick', max_values: 2, options: [{ label: 'a', value: 'a' }] })],
            },
          }),
        );
        answers.push(await self.callback(interaction, { type: 7, data: { content: 'Clicked' } }));
      },
    }));
    await interact({ type: 3, message_id: panelId, data: { custom_id: 'go', component_type: 2 } });
    await app.idle();
    const [v2, select, fine] = answers;
    assertRefusedAt(v2!, ['data', 'components', 0], codes.UNION_TYPE_CHOICES);
    assert.match(v2!.text, /must be one of \(1,\)/);
    assertRefusedAt(select!, ['data', 'components', 0, 'components', 0, 'options'], codes.BASE_TYPE_MIN_LENGTH);
    assert.equal(fine!.status, 204, fine!.text);
    const panel = (await channelMessages()).find((m) => m.id === panelId)!;
    assert.equal(panel.content, 'Clicked');
    assert.equal(panel.components[0].components[0].custom_id, 'go', 'the refused updates changed nothing');
  });

  test('POST and PATCH /channels/{id}/messages', async () => {
    const send = (body: Json) => server.request('POST', `/channels/${GENERAL}/messages`, { auth: BOT, body });
    assertRefusedAt(
      await send({ components: [NO_CUSTOM_ID] }),
      ['components', 0, 'components', 0, 'custom_id'],
      codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED,
    );
    assertRefusedAt(
      await send({
        embeds: [
          { author: { name: 'a', icon_url: 'javascript:alert(1)' }, footer: { text: 'f', icon_url: 'data:,x' } },
        ],
      }),
      ['embeds', 0, 'author', 'icon_url'],
      codes.URL_TYPE_INVALID_SCHEME,
    );
    assertRefusedAt(
      await send({ components: [row({ type: 2, style: 5, label: 'L', url: 'https://example.com', custom_id: 'l' })] }),
      ['components', 0, 'components', 0, 'custom_id'],
      codes.BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE,
    );
    assertRefusedAt(
      await send({ components: [row({ type: 2, style: 6, sku_id: '1345183757107209999', label: 'Buy' })] }),
      ['components', 0, 'components', 0, 'label'],
      codes.COMPONENT_FIELD_NOT_ALLOWED,
    );

    const rich = {
      content: 'rich',
      embeds: [
        {
          title: 'Report',
          url: 'https://example.com/report',
          color: 0x5865f2,
          timestamp: new Date(0).toISOString(),
          image: { url: 'attachment://chart.png' },
          author: { name: 'slashd', url: 'https://example.com', icon_url: 'https://example.com/a.png' },
        },
      ],
      components: [
        row(
          { type: 2, style: 1, label: 'Go', custom_id: 'go', emoji: { name: '👍' } },
          { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
        ),
        row({ type: 8, custom_id: 'where', channel_types: [0] }),
      ],
    };
    const created = await send(rich);
    assert.equal(created.status, 200, created.text);
    const edit = (body: Json) =>
      server.request('PATCH', `/channels/${GENERAL}/messages/${created.body.id}`, { auth: BOT, body });
    assertRefusedAt(
      await edit({ embeds: [{ title: 'x', url: 'data:text/html,hi' }] }),
      ['embeds', 0, 'url'],
      codes.URL_TYPE_INVALID_SCHEME,
    );
    assertRefusedAt(
      await edit({ components: [row({ type: 3, custom_id: 'pick', options: [] })] }),
      ['components', 0, 'components', 0, 'options'],
      codes.BASE_TYPE_BAD_LENGTH,
    );
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${created.body.id}`, { auth: ALICE });
    assert.equal(read.body.embeds[0].url, 'https://example.com/report', 'the refused edits changed nothing');
    assert.equal(read.body.components[1].components[0].custom_id, 'where');
    const stored = JSON.stringify(await channelMessages());
    assert.ok(!/javascript:|data:/i.test(stored), 'no refused URL is in the channel');
  });
});
