/**
 * Attachment URLs are signed as v10's CDN signs them (`?ex&is&hm`): an unmodified discord.js bot
 * re-uploads a user's file with `new AttachmentBuilder(attachment.url)` from its MESSAGE_CREATE,
 * which downloads it with no token; a tampered URL, one past its expiry (the server's clock moved
 * on) and one of a deleted message are refused with v10's 404; `POST /attachments/refresh-urls`
 * renews a URL the caller holds or may read and leaves out the rest; without a signature the
 * reader check of a token stays.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AttachmentBuilder, Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { ATTACHMENT_URL_TTL_MS } from './rules/signed-urls.js';
import { attachmentWorld, download, messageForm, unsigned } from '../../../test/helpers/attachments.js';
import { pngImage } from '../../../test/helpers/images.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_ID, ALICE_TOKEN, BOT, CAROL_TOKEN, DEMO_BOT_TOKEN, GENERAL } from '../../../test/helpers/world.js';

type Json = any;

const PNG = pngImage(16, 9);
const GONE = { code: 0, message: 'This content is no longer available.' };

describe('signed attachment URLs', () => {
  let server: TestServer;
  let client: Client | null = null;
  /** How far the server's clock is ahead of the wall clock. */
  let aheadMs = 0;
  const reposts = new Inbox<{ source: string; sent: Message | null; error: unknown }>((r) => `repost of ${r.source}`);

  before(async () => {
    server = await startServer({ world: attachmentWorld(), now: () => Date.now() + aheadMs });
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: `${server.url}/api` },
    });
    client.on(Events.MessageCreate, (message) => {
      const attachment = message.attachments.first();
      if (message.author.id !== ALICE_ID || !attachment || !message.channel.isSendable()) return;
      message.channel.send({ content: 'again', files: [new AttachmentBuilder(attachment.url)] }).then(
        (sent) => reposts.push({ source: message.id, sent, error: null }),
        (error: unknown) => reposts.push({ source: message.id, sent: null, error }),
      );
    });
    const ready = new Inbox<boolean>(() => 'ready');
    client.once(Events.ClientReady, () => ready.push(true));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  /** Alice sends a message with one file to #general, as a client uploads it. */
  async function aliceSends(name: string, bytes: Uint8Array): Promise<Json> {
    const response = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: ALICE_TOKEN },
      body: messageForm({ content: `a file: ${name}` }, [{ name, bytes, type: 'image/png' }]),
    });
    const body = (await response.json()) as Json;
    assert.equal(response.status, 200, JSON.stringify(body));
    return body;
  }

  async function refresh(auth: string | undefined, body: unknown): Promise<{ status: number; body: Json }> {
    const response = await server.request('POST', '/attachments/refresh-urls', { ...(auth ? { auth } : {}), body });
    return { status: response.status, body: response.body };
  }

  async function refused(url: string, auth?: string): Promise<void> {
    const response = await fetch(url, auth ? { headers: { authorization: auth } } : {});
    assert.equal(response.status, 404, url);
    assert.deepEqual(await response.json(), GONE);
  }

  test('discord.js re-uploads a user file with new AttachmentBuilder(attachment.url): no token needed', async () => {
    const sent = await aliceSends('photo.png', PNG);
    const [file] = sent.attachments as Json[];
    const url = new URL(file.url);
    assert.equal(url.origin, server.url, 'absolute, on the server');
    const [ex, is, hm] = ['ex', 'is', 'hm'].map((name) => url.searchParams.get(name) ?? '') as [string, string, string];
    assert.match(hm, /^[0-9a-f]{64}$/);
    assert.equal(parseInt(ex, 16) - parseInt(is, 16), ATTACHMENT_URL_TTL_MS / 1000, 'expires a day after its issue');
    assert.equal(new URL(file.proxy_url).search, url.search, 'proxy_url carries the same signature');

    const { sent: repost, error } = await reposts.find((r) => r.source === sent.id, 'the bot reposting the file');
    assert.equal(error, null, String(error));
    const copy = repost!.attachments.first()!;
    assert.equal(copy.name, 'photo.png');
    assert.deepEqual((await download(copy.url)).bytes, PNG, 'the same bytes, downloaded with no token');
    assert.deepEqual((await download(file.proxy_url)).bytes, PNG);
    assert.deepEqual((await download(file.url, CAROL_TOKEN)).bytes, PNG, 'whoever holds the URL reads the file');
  });

  test('a tampered URL is refused, token or not; an unsigned one keeps the reader check', async () => {
    const sent = await aliceSends('tamper.png', PNG);
    const other = await aliceSends('other.png', PNG);
    const url = new URL(sent.attachments[0].url);
    const flip = (value: string) => value.slice(0, -1) + (value.endsWith('0') ? '1' : '0');
    const withParam = (name: string, value: string) => {
      const changed = new URL(url);
      changed.searchParams.set(name, value);
      return changed.toString();
    };
    await refused(withParam('hm', flip(url.searchParams.get('hm')!)));
    await refused(withParam('hm', flip(url.searchParams.get('hm')!)), ALICE_TOKEN);
    await refused(withParam('ex', (parseInt(url.searchParams.get('ex')!, 16) + 3600).toString(16)));
    await refused(withParam('hm', 'not hex'));
    await refused(`${unsigned(url.toString())}?ex=${url.searchParams.get('ex')}`);
    // The signature of one file does not open another.
    await refused(`${unsigned(other.attachments[0].url)}${url.search}`);
    await refused(url.toString().replace('tamper.png', 'other.png'));

    assert.equal((await download(unsigned(url.toString()))).status, 401, 'no token and no signature');
    assert.equal((await download(unsigned(url.toString()), CAROL_TOKEN)).status, 403, 'carol may not view #general');
    assert.deepEqual((await download(unsigned(url.toString()), BOT)).bytes, PNG, 'a reader with a token');
  });

  test("a deleted message's files are gone at once, signed URL or token", async () => {
    const sent = await aliceSends('gone.png', PNG);
    const file = sent.attachments[0];
    assert.equal((await download(file.url)).status, 200);
    const deleted = await server.request('DELETE', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
    assert.equal(deleted.status, 204, deleted.text);
    await refused(file.url);
    await refused(file.proxy_url, ALICE_TOKEN);
    assert.equal((await download(unsigned(file.url), ALICE_TOKEN)).status, 404);
    const renewed = await refresh(ALICE_TOKEN, { attachment_urls: [file.url] });
    assert.deepEqual(renewed.body, { refreshed_urls: [] }, 'nothing to renew');
  });

  test('refresh-urls: a held or readable URL is renewed, anything else left out; bad bodies are 50035', async () => {
    const sent = await aliceSends('renew.png', PNG);
    const file = sent.attachments[0];
    const bare = unsigned(file.url);
    const asCarol = await refresh(CAROL_TOKEN, { attachment_urls: [file.url, bare, 'https://example.com/x.png', 'x'] });
    assert.equal(asCarol.status, 200, JSON.stringify(asCarol.body));
    assert.deepEqual(
      asCarol.body.refreshed_urls.map((r: Json) => r.original),
      [file.url],
      'carol holds the signed URL, but may not read the bare one',
    );
    const asBot = await refresh(BOT, { attachment_urls: [bare, unsigned(file.proxy_url)] });
    const [plain, proxy] = asBot.body.refreshed_urls as Json[];
    assert.deepEqual([plain.original, proxy.original], [bare, unsigned(file.proxy_url)]);
    assert.deepEqual((await download(plain.refreshed)).bytes, PNG);
    assert.ok(new URL(proxy.refreshed).pathname.startsWith('/media/attachments/'), proxy.refreshed);
    assert.deepEqual((await download(proxy.refreshed)).bytes, PNG);

    assert.equal((await refresh(undefined, { attachment_urls: [file.url] })).status, 401);
    const notList = await refresh(BOT, { attachment_urls: 'x' });
    assert.equal(notList.status, 400);
    assert.equal(notList.body.errors.attachment_urls._errors[0].code, 'LIST_TYPE_CONVERT');
    const missing = await refresh(BOT, {});
    assert.equal(missing.body.errors.attachment_urls._errors[0].code, 'BASE_TYPE_REQUIRED');
    const notString = await refresh(BOT, { attachment_urls: [file.url, 5] });
    assert.equal(notString.body.errors.attachment_urls['1']._errors[0].code, 'STRING_TYPE_CONVERT');
    const tooMany = await refresh(BOT, { attachment_urls: Array.from({ length: 51 }, () => file.url) });
    assert.equal(tooMany.body.errors.attachment_urls._errors[0].code, 'BASE_TYPE_MAX_LENGTH');
  });

  test('past its expiry a URL is refused; refresh-urls gives one that reads again', async () => {
    const sent = await aliceSends('old.png', PNG);
    const file = sent.attachments[0];
    // The gateway's session keeps to the wall clock; it has nothing more to show here.
    await client?.destroy();
    client = null;
    aheadMs += ATTACHMENT_URL_TTL_MS + 60_000;
    await refused(file.url);
    await refused(file.url, ALICE_TOKEN);
    const renewed = await refresh(BOT, { attachment_urls: [file.url] });
    const [{ original, refreshed }] = renewed.body.refreshed_urls as Json[];
    assert.equal(original, file.url);
    assert.notEqual(refreshed, file.url);
    assert.deepEqual((await download(refreshed)).bytes, PNG, 'the renewed URL reads the file');
    const read = await server.request('GET', `/channels/${GENERAL}/messages/${sent.id}`, { auth: ALICE_TOKEN });
    assert.deepEqual((await download(read.body.attachments[0].url)).bytes, PNG, 'a new read gives a fresh URL');
  });
});
