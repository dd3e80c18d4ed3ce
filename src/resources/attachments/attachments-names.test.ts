/**
 * Filenames and content types that cannot be encoded never break a channel (issue 35, items 2 and
 * 9), over real HTTP: a lone surrogate named in `payload_json` (through POST, PATCH, the
 * interaction callback and the follow-up webhook) is cleaned, and the history and the file still
 * read; a part's Content-Type with a control character is stored as no type and served as
 * application/octet-stream; a 600-emoji name is cut to a URL that downloads; a row stored before
 * these cleanings still renders and downloads. And what a request may not store, it does not: a
 * member denied ATTACH_FILES cannot PATCH a file onto their message, and uploads no ATTACHMENT
 * option of a command names are not kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ATTACHMENT_FILENAME_URL_LENGTH_MAX } from './rules/limits.js';
import { attachmentWorld, download, messageForm } from '../../../test/helpers/attachments.js';
import { startRegisteredApp, type AppServer, type Json } from '../../../test/helpers/app-server.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import { sendRaw } from '../../../test/helpers/raw-multipart.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  GUILD_BASE,
  NSFW_LOUNGE,
} from '../../../test/helpers/world.js';

const LONE = '\ud800';

describe('attachment names and types that cannot be encoded', () => {
  let server: TestServer;
  let app: AppServer;
  let command: Json;

  async function post(channelId: string, form: FormData, auth = BOT, method = 'POST', messageId = '') {
    const path = `/channels/${channelId}/messages${messageId ? `/${messageId}` : ''}`;
    const response = await fetch(`${server.api}${path}`, { method, headers: { authorization: auth }, body: form });
    return { status: response.status, body: (await response.json()) as Json };
  }

  /** The channel's history reads, and every file of its newest messages downloads. */
  async function assertChannelReads(channelId: string, auth = ALICE_TOKEN): Promise<Json[]> {
    const list = await server.request('GET', `/channels/${channelId}/messages?limit=10`, { auth });
    assert.equal(list.status, 200, list.text);
    for (const message of list.body as Json[]) {
      for (const file of message.attachments as Json[]) {
        for (const url of [file.url, file.proxy_url] as string[]) {
          const got = await download(url, auth);
          assert.equal(got.status, 200, `${url}: ${got.bytes.toString()}`);
          assert.equal(got.bytes.length, file.size);
        }
      }
    }
    return list.body as Json[];
  }

  before(async () => {
    server = await startServer({ world: attachmentWorld() });
    app = await startRegisteredApp(server.api, DEMO_BOT_TOKEN);
    const put = await server.request('PUT', GUILD_BASE, {
      auth: BOT,
      body: [
        {
          name: 'upload',
          description: 'Takes a file',
          options: [{ type: 11, name: 'file', description: 'The file', required: false }],
        },
      ],
    });
    assert.equal(put.status, 200, put.text);
    command = put.body[0];
  });
  after(async () => {
    await app?.close();
    await server?.close();
  });

  test('a lone surrogate as a filename through POST is cleaned; the history and the file read', async () => {
    const sent = await post(
      GENERAL,
      messageForm(
        {
          content: 'lone',
          attachments: [
            { id: 0, filename: LONE },
            { id: 1, filename: `a${LONE}b.txt` },
          ],
        },
        [
          { name: 'x.bin', bytes: Buffer.from('one') },
          { name: 'y.bin', bytes: Buffer.from('two') },
        ],
      ),
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(
      sent.body.attachments.map((a: Json) => a.filename),
      ['unknown', 'ab.txt'],
    );
    const read = await assertChannelReads(GENERAL);
    assert.ok(read.some((m) => m.id === sent.body.id));
  });

  test('the same through PATCH', async () => {
    const sent = await post(GENERAL, messageForm({ content: 'to edit' }, []));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const edited = await post(
      GENERAL,
      messageForm({ attachments: [{ id: 0, filename: `${LONE}${LONE}.png` }] }, [
        { name: 'x.png', bytes: Buffer.from('three') },
      ]),
      BOT,
      'PATCH',
      sent.body.id,
    );
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.attachments[0].filename, 'png', 'no leading dot is left once the surrogates go');
    await assertChannelReads(GENERAL);
  });

  test('the same through the interaction callback and the follow-up webhook', async () => {
    const answers: { status: number; text: string }[] = [];
    app.handle(() => ({
      accepted: true,
      after: async (interaction) => {
        const callback = await fetch(`${server.api}/interactions/${interaction.id}/${interaction.token}/callback`, {
          method: 'POST',
          body: messageForm({ type: 4, data: { content: 'answer', attachments: [{ id: 0, filename: LONE }] } }, [
            { name: 'x.txt', bytes: Buffer.from('four') },
          ]),
        });
        answers.push({ status: callback.status, text: await callback.text() });
        const followUp = await fetch(`${server.api}/webhooks/${DEMO_APP_ID}/${interaction.token}`, {
          method: 'POST',
          body: messageForm({ content: 'follow-up', attachments: [{ id: 0, filename: `${LONE}.txt` }] }, [
            { name: 'y.txt', bytes: Buffer.from('five') },
          ]),
        });
        answers.push({ status: followUp.status, text: await followUp.text() });
      },
    }));
    const invoked = await server.request('POST', '/interactions', { auth: ALICE_TOKEN, body: invocationBody(command) });
    assert.ok(invoked.status < 300, invoked.text);
    await app.idle();
    assert.deepEqual(
      answers.map((a) => a.status),
      [204, 200],
      JSON.stringify(answers),
    );
    const read = await assertChannelReads(GENERAL);
    const names = read.flatMap((m) => (m.attachments as Json[]).map((a) => a.filename));
    assert.ok(names.includes('unknown') && names.includes('txt'), JSON.stringify(names));
  });

  test('a Content-Type with a control character is no type: stored as none, served as octet-stream', async () => {
    const sent = await sendRaw(`${server.api}/channels/${GENERAL}/messages`, 'POST', BOT, [
      { name: 'payload_json', body: JSON.stringify({ content: 'typed' }) },
      { name: 'files[0]', filename: 'page', contentType: 'text/html\x01', body: '<b>hi</b>' },
      { name: 'files[1]', filename: 'notes', contentType: 'Text/Plain; Charset=UTF-8; bad', body: 'notes' },
      { name: 'files[2]', filename: 'page.html', contentType: 'text/html\x01', body: '<b>hi</b>' },
    ]);
    assert.equal(sent.status, 200, sent.text);
    const [html, notes, named] = sent.body.attachments as [Json, Json, Json];
    assert.equal(html.content_type, undefined);
    assert.equal(notes.content_type, 'text/plain', 'a valid type is kept, in lower case');
    assert.equal(named.content_type, 'text/html; charset=utf-8', 'without a valid part type, the extension decides');
    const got = await download(html.url, ALICE_TOKEN);
    assert.deepEqual([got.status, got.type, got.bytes.toString()], [200, 'application/octet-stream', '<b>hi</b>']);
    await assertChannelReads(GENERAL);
  });

  test('a 600-emoji filename is cut, its extension kept, to a URL that downloads', async () => {
    const name = `${'😀'.repeat(600)}.txt`;
    const sent = await post(GENERAL, messageForm({ content: 'emoji' }, [{ name, bytes: Buffer.from('six') }]));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const file = sent.body.attachments[0];
    assert.ok(file.filename.endsWith('😀.txt'), file.filename);
    assert.ok(file.filename.length < name.length);
    const segment = new URL(file.url).pathname.split('/').pop()!;
    assert.ok(segment.length <= ATTACHMENT_FILENAME_URL_LENGTH_MAX, String(segment.length));
    const got = await download(file.url, ALICE_TOKEN);
    assert.deepEqual([got.status, got.bytes.toString()], [200, 'six']);
    assert.match(String(got.type), /^text\/plain/);
  });

  test('a row stored before the cleanings still renders, and its file downloads', async () => {
    const { store, ids } = server.slashd;
    const id = ids.next();
    const attachment = { id: ids.next(), filename: `old${LONE}.txt`, size: 5, content_type: 'text/html\x01' };
    await store.attachments.putFiles({ ownerId: DEMO_APP_ID, channelId: GENERAL, messageId: id }, [
      { id: attachment.id, size: 5, attachment, chunks: () => [Buffer.from('bytes')] },
    ]);
    await store.interactions.putMessage({
      id,
      channel_id: GENERAL,
      guild_id: '1345183757107200001',
      author: { kind: 'app', id: DEMO_APP_ID },
      content: `legacy ${LONE}`,
      embeds: [],
      components: [],
      flags: 0,
      tts: false,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      ephemeral_for_user_id: null,
      attachments: [attachment],
    });
    const read = await assertChannelReads(GENERAL);
    const legacy = read.find((m) => m.id === id);
    assert.ok(legacy, 'the legacy message is listed');
    assert.ok(new URL(legacy.attachments[0].url).pathname.endsWith('/old.txt'), legacy.attachments[0].url);
    assert.equal(legacy.attachments[0].content_type, undefined);
  });

  test('a member denied ATTACH_FILES cannot PATCH a file onto their own message: 50013, nothing stored', async () => {
    const sent = await server.request('POST', `/channels/${NSFW_LOUNGE}/messages`, {
      auth: CAROL_TOKEN,
      body: { content: 'mine' },
    });
    assert.equal(sent.status, 200, sent.text);
    const bytesBefore = await server.slashd.store.attachments.storedBytes(CAROL_ID);
    const edited = await post(
      NSFW_LOUNGE,
      messageForm({ content: 'with a file', attachments: [{ id: 0, filename: LONE }] }, [
        { name: 'x.txt', bytes: Buffer.from('seven') },
      ]),
      CAROL_TOKEN,
      'PATCH',
      sent.body.id,
    );
    assert.equal(edited.status, 403, JSON.stringify(edited.body));
    assert.equal(edited.body.code, 50013);
    assert.equal(await server.slashd.store.attachments.storedBytes(CAROL_ID), bytesBefore);
    const read = await server.request('GET', `/channels/${NSFW_LOUNGE}/messages/${sent.body.id}`, {
      auth: CAROL_TOKEN,
    });
    assert.deepEqual([read.body.content, read.body.attachments], ['mine', []]);
    const plain = await server.request('PATCH', `/channels/${NSFW_LOUNGE}/messages/${sent.body.id}`, {
      auth: CAROL_TOKEN,
      body: { content: 'text only' },
    });
    assert.equal(plain.status, 200, 'an edit without files needs no ATTACH_FILES');
  });

  test('uploads no ATTACHMENT option names are not stored; the named one is', async () => {
    const seen: Json[] = [];
    app.handle((interaction) => {
      seen.push(interaction);
      return { inline: { type: 4, data: { content: 'ok' } } };
    });
    const invoke = async (options: Json[], files: number) => {
      const form = messageForm(
        invocationBody(command, { data: { options } }),
        Array.from({ length: files }, (_, i) => ({ name: `f${i}.txt`, bytes: Buffer.from(`file ${i}`) })),
      );
      const response = await fetch(`${server.api}/interactions`, {
        method: 'POST',
        headers: { authorization: ALICE_TOKEN },
        body: form,
      });
      assert.ok(response.status < 300, await response.text());
    };
    const stored = () => server.slashd.store.attachments.storedBytes(ALICE_ID);
    const before = await stored();
    await invoke([], 2);
    assert.equal(await stored(), before, 'no option names a file: none is kept');
    await invoke([{ type: 11, name: 'file', value: 1 }], 3);
    assert.equal(await stored(), before + 'file 1'.length, 'only files[1] is kept');
    const resolved = seen.at(-1)?.data.resolved.attachments as Record<string, Json>;
    assert.deepEqual(
      Object.values(resolved).map((a) => a.filename),
      ['f1.txt'],
    );
  });
});
