/**
 * Issue 35 item 9, through real HTTP: a bot may open a DM with a user it shares no guild with, but
 * sending there is v10's 403 50007 and writes nothing (files neither); the files of a DM are
 * downloaded by its two ends, the user and the bot, and refused to everyone else.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { download, unsigned, messageForm } from '../../../test/helpers/attachments.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOB_TOKEN,
  BOT,
  ERIN_ID,
  ERIN_TOKEN,
  OTHER_BOT_TOKEN,
} from '../../../test/helpers/world.js';

describe('DMs: whom a bot reaches, who downloads their files', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  async function openDm(recipientId: string): Promise<string> {
    const dm = await server.request('POST', '/users/@me/channels', { auth: BOT, body: { recipient_id: recipientId } });
    assert.equal(dm.status, 200, dm.text);
    return dm.body.id as string;
  }

  function sendForm(channelId: string, auth: string, content: string, bytes: Uint8Array) {
    return fetch(`${server.api}/channels/${channelId}/messages`, {
      method: 'POST',
      headers: { authorization: auth },
      body: messageForm({ content }, [{ name: 'note.txt', bytes, type: 'text/plain' }]),
    });
  }

  test('a bot sharing no guild with the user opens the DM, and sending is 50007 with nothing written', async () => {
    const channelId = await openDm(ERIN_ID);
    const plain = await server.request('POST', `/channels/${channelId}/messages`, {
      auth: BOT,
      body: { content: 'hello stranger' },
    });
    assert.equal(plain.status, 403, plain.text);
    assert.deepEqual(plain.body, { message: 'Cannot send messages to this user', code: 50007 });
    const withFile = await sendForm(channelId, BOT, 'a file for a stranger', new TextEncoder().encode('x'));
    assert.equal(withFile.status, 403);
    assert.equal(((await withFile.json()) as { code: number }).code, 50007);
    const seen = await server.request('GET', `/channels/${channelId}/messages`, { auth: ERIN_TOKEN });
    assert.equal(seen.status, 200, seen.text);
    assert.deepEqual(seen.body, []);
  });

  test("a DM's files are downloaded by its user and its bot, and by no one else", async () => {
    const channelId = await openDm(ALICE_ID);
    const fromBot = new TextEncoder().encode('from the bot');
    const sent = await sendForm(channelId, BOT, 'a note', fromBot);
    const message = (await sent.json()) as { attachments: { url: string }[] };
    assert.equal(sent.status, 200, JSON.stringify(message));
    const fromAlice = new TextEncoder().encode('from alice');
    const answered = await sendForm(channelId, ALICE_TOKEN, 'my note', fromAlice);
    const reply = (await answered.json()) as { attachments: { url: string }[] };
    assert.equal(answered.status, 200, JSON.stringify(reply));

    for (const [url, bytes] of [
      [message.attachments[0]!.url, fromBot],
      [reply.attachments[0]!.url, fromAlice],
    ] as const) {
      for (const end of [ALICE_TOKEN, BOT]) {
        const file = await download(url, end);
        assert.equal(file.status, 200, `${end.slice(0, 5)}: ${file.bytes.toString()}`);
        assert.deepEqual(new Uint8Array(file.bytes), bytes);
      }
      // Without the signature (a URL guessed, not shared), only the DM's two ends may download.
      const bare = unsigned(url);
      for (const end of [ALICE_TOKEN, BOT]) assert.equal((await download(bare, end)).status, 200);
      for (const other of [BOB_TOKEN, `Bot ${OTHER_BOT_TOKEN}`]) {
        const refused = await download(bare, other);
        assert.equal(refused.status, 403, `${other.slice(0, 5)}: ${refused.bytes.toString()}`);
        assert.equal(JSON.parse(refused.bytes.toString()).code, 50001);
      }
      assert.equal((await download(bare)).status, 401);
    }
  });
});
