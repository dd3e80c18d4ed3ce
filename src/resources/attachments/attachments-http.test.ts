/**
 * Files over HTTP: a bot sends a message with files (multipart, `payload_json` + `files[n]`), a user
 * reads it and downloads the same bytes from its `url` and `proxy_url`, with the image's
 * dimensions; a user replies with a file (the reply's id an exact JSON integer); an edit keeps and
 * drops files by listing them; a deleted message's files are gone; and the refusals: 40005 past
 * the size bounds (before and while reading), 50035 naming the path, ATTACH_FILES, and a user who
 * may not view the channel cannot download.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ATTACHMENT_FILE_BYTES_MAX } from './rules/limits.js';
import { attachmentWorld, download, messageForm, unsigned } from '../../../test/helpers/attachments.js';
import { pngImage } from '../../../test/helpers/images.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, BOT, CAROL_TOKEN, GENERAL, NSFW_LOUNGE } from '../../../test/helpers/world.js';

type Json = any;
const ERIN_TOKEN = 'erin-user-token';

describe('message files over HTTP', () => {
  let server: TestServer;
  const png = pngImage(12, 7);
  const text = Buffer.from('some notes\n'.repeat(1000));

  async function send(
    channelId: string,
    form: FormData,
    method = 'POST',
    messageId = '',
  ): Promise<{ status: number; body: Json; connection: string | null }> {
    const path = `/channels/${channelId}/messages${messageId ? `/${messageId}` : ''}`;
    const response = await fetch(`${server.api}${path}`, { method, headers: { authorization: BOT }, body: form });
    return { status: response.status, body: await response.json(), connection: response.headers.get('connection') };
  }

  before(async () => {
    server = await startServer({ world: attachmentWorld() });
  });
  after(() => server?.close());

  test('a user replies with a file; payload_json names the message as a JSON integer, read exactly', async () => {
    const sent = await send(GENERAL, messageForm({ content: 'to reply to' }, []));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const form = new FormData();
    // discord.py writes snowflakes as JSON integers: past 2^53, JSON.parse would change the id.
    form.append('payload_json', `{"content":"my answer","message_reference":{"message_id":${sent.body.id}}}`);
    form.append('files[0]', new Blob([text]), 'answer.txt');
    const response = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: ALICE_TOKEN },
      body: form,
    });
    const reply = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(reply));
    assert.equal(reply.message_reference.message_id, sent.body.id);
    assert.equal(reply.attachments[0].filename, 'answer.txt');
    const file = await download(reply.attachments[0].url, ALICE_TOKEN);
    assert.deepEqual([file.status, file.bytes], [200, text]);
  });

  test('a bot sends files; a user reads the message and downloads the same bytes', async () => {
    const sent = await send(
      GENERAL,
      messageForm(
        {
          content: 'two files',
          attachments: [
            { id: 0, description: 'a small chart' },
            { id: 1, filename: 'notes.txt' },
          ],
          embeds: [{ image: { url: 'attachment://chart.png' } }],
        },
        [
          { name: 'chart.png', bytes: png, type: 'image/png' },
          { name: 'whatever.bin', bytes: text },
        ],
      ),
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [image, notes] = sent.body.attachments as Json[];
    assert.equal(image.filename, 'chart.png');
    assert.equal(image.size, png.length);
    assert.equal(image.content_type, 'image/png');
    assert.deepEqual([image.width, image.height], [12, 7]);
    assert.equal(image.description, 'a small chart');
    assert.equal(notes.filename, 'notes.txt');
    assert.equal(notes.content_type, 'text/plain; charset=utf-8');
    assert.equal(notes.width, undefined);
    assert.equal(sent.body.embeds[0].image.url, image.url, 'attachment:// names the file');
    assert.ok(image.url.startsWith(`${server.url}/attachments/${GENERAL}/${image.id}/`));

    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: ALICE_TOKEN });
    assert.deepEqual(read.body.attachments, sent.body.attachments);
    const got = await download(image.url, ALICE_TOKEN);
    assert.equal(got.status, 200);
    assert.equal(got.type, 'image/png');
    assert.deepEqual(got.bytes, png);
    assert.deepEqual((await download(notes.proxy_url, ALICE_TOKEN)).bytes, text);
    assert.deepEqual((await download(notes.url, BOT)).bytes, text, 'the bot downloads too');

    assert.equal((await download(unsigned(image.url), CAROL_TOKEN)).status, 403, 'carol may not view #general');
    assert.equal((await download(unsigned(image.url), ERIN_TOKEN)).status, 403, 'erin is not in the guild');
    assert.equal((await download(unsigned(image.url))).status, 401, 'no token and no signature');
    assert.equal((await download(image.url.replace('chart.png', 'other.png'), ALICE_TOKEN)).status, 404);
  });

  test('an edit keeps the files it lists and drops the rest; a deleted message takes its files', async () => {
    const sent = await send(
      GENERAL,
      messageForm({ content: 'v1' }, [
        { name: 'a.txt', bytes: Buffer.from('A') },
        { name: 'b.txt', bytes: Buffer.from('B') },
      ]),
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [a, b] = sent.body.attachments as Json[];
    const edited = await send(
      GENERAL,
      messageForm({ content: 'v2', attachments: [{ id: b.id }, { id: 0 }] }, [
        { name: 'c.txt', bytes: Buffer.from('C') },
      ]),
      'PATCH',
      sent.body.id,
    );
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual(
      edited.body.attachments.map((x: Json) => x.filename),
      ['b.txt', 'c.txt'],
    );
    assert.equal((await download(a.url, ALICE_TOKEN)).status, 404, 'the dropped file is gone');
    assert.deepEqual((await download(b.url, ALICE_TOKEN)).bytes, Buffer.from('B'));

    const cleared = await server.request('PATCH', `/channels/${GENERAL}/messages/${sent.body.id}`, {
      auth: BOT,
      body: { attachments: [] },
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body.attachments, []);
    assert.equal((await download(b.url, ALICE_TOKEN)).status, 404);

    const again = await send(
      GENERAL,
      messageForm({ content: 'to delete' }, [{ name: 'd.txt', bytes: Buffer.from('D') }]),
    );
    const deleted = await server.request('DELETE', `/channels/${GENERAL}/messages/${again.body.id}`, { auth: BOT });
    assert.equal(deleted.status, 204);
    assert.equal((await download(again.body.attachments[0].url, ALICE_TOKEN)).status, 404);
  });

  test('refusals: 40005 past the bounds, 50035 at the path, ATTACH_FILES, and a JSON-only route', async () => {
    const big = Buffer.alloc(ATTACHMENT_FILE_BYTES_MAX + 1, 1);
    const oversize = await send(GENERAL, messageForm({ content: 'too big' }, [{ name: 'big.bin', bytes: big }]));
    assert.equal(oversize.status, 413);
    assert.deepEqual(oversize.body, { code: 40005, message: 'Request entity too large' });

    const unknown = await send(
      GENERAL,
      messageForm({ content: 'x', attachments: [{ id: 5 }] }, [{ name: 'a.txt', bytes: Buffer.from('a') }]),
    );
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 50035);
    assert.equal(unknown.body.errors.attachments['0'].id._errors[0].code, 'ATTACHMENT_NOT_FOUND');

    const eleven = await send(
      GENERAL,
      messageForm(
        { content: 'x' },
        Array.from({ length: 11 }, (_, i) => ({ name: `${i}.txt`, bytes: Buffer.from('x') })),
      ),
    );
    assert.equal(eleven.status, 400);
    assert.equal(eleven.body.errors.attachments._errors[0].code, 'BASE_TYPE_MAX_LENGTH');

    const denied = await send(NSFW_LOUNGE, messageForm({ content: 'x' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]));
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 50013);

    const badJson = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: (() => {
        const form = new FormData();
        form.append('payload_json', '{"content": ');
        return form;
      })(),
    });
    assert.equal(badJson.status, 400);
    assert.equal(((await badJson.json()) as Json).code, 50109);

    const commands = await fetch(`${server.api}/applications/1324165260902400001/commands`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: messageForm({ name: 'x', description: 'x' }, []),
    });
    assert.equal(commands.status, 400);
    assert.equal(((await commands.json()) as Json).errors._errors[0].code, 'CONTENT_TYPE_INVALID');
  });
});
