/**
 * A message reads the same alone and listed (issue 36 item 6): the message a thread was started
 * from carries `thread` and HAS_THREAD (32) in `GET /channels/{c}/messages/{m}` as in the channel's
 * list; an `.html` file uploaded without a part type gets v10's `text/html; charset=utf-8`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { attachmentWorld, messageForm } from '../../../test/helpers/attachments.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, BOT, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

type Json = any;
const CREATE_PUBLIC_THREADS = 1n << 35n;
const HAS_THREAD = 32;

describe('a message read alone and in the list', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ world: attachmentWorld() });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, CREATE_PUBLIC_THREADS);
  });
  after(() => server?.close());

  test("a thread's starter message: the single read carries thread and HAS_THREAD, as the list does", async () => {
    const sent = await server.request('POST', `/channels/${GENERAL}/messages`, {
      auth: BOT,
      body: { content: 'start' },
    });
    assert.equal(sent.status, 200, sent.text);
    const thread = await server.request('POST', `/channels/${GENERAL}/messages/${sent.body.id}/threads`, {
      auth: BOT,
      body: { name: 'from a message' },
    });
    assert.equal(thread.status, 201, thread.text);
    const single = await server.request('GET', `/channels/${GENERAL}/messages/${sent.body.id}`, { auth: ALICE_TOKEN });
    assert.equal(single.status, 200, single.text);
    assert.equal(single.body.flags & HAS_THREAD, HAS_THREAD);
    assert.equal(single.body.thread?.id, sent.body.id);
    assert.equal(single.body.thread?.name, 'from a message');
    const list = await server.request('GET', `/channels/${GENERAL}/messages?limit=10`, { auth: ALICE_TOKEN });
    const listed = (list.body as Json[]).find((m) => m.id === sent.body.id);
    assert.deepEqual(single.body, listed, 'one builder for both reads');
  });

  test('an .html upload without a part type: text/html; charset=utf-8, kept on reading', async () => {
    const form = messageForm({ content: 'a transcript' }, [
      { name: 'transcript.html', bytes: Buffer.from('<!doctype html><p>hi</p>') },
    ]);
    const response = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: form,
    });
    const sent = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(sent));
    assert.equal(sent.attachments[0].content_type, 'text/html; charset=utf-8');
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
    assert.equal(read.body.attachments[0].content_type, 'text/html; charset=utf-8');
  });
});
