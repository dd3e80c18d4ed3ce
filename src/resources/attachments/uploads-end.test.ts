/**
 * However an upload ends, it leaves nothing behind, over raw sockets: a stalled body (all but its
 * last bytes sent) is cut off and a body cut by the client is dropped, and after either no
 * temporary file (`slashd-upload-*`) remains and no descriptor of this process (the server runs in
 * it) points into the temporary folder; a caller who may not see the channel, or who holds an
 * unknown interaction token, is refused while still sending, no temporary file ever made; a file
 * part from a caller without ATTACH_FILES is refused before it is written (POST and PATCH); a
 * request cut off by its deadline wrote nothing (no message in the history, no MESSAGE_CREATE); a
 * steady slow upload taking longer than the handler's deadline succeeds; the node's temporary disk
 * is bounded (503 with Retry-After past it). On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { attachmentWorld } from '../../../test/helpers/attachments.js';
import { GatewayClient } from '../../../test/helpers/gateway-client.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, CAROL_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, NSFW_LOUNGE } from '../../../test/helpers/world.js';
import { UPLOAD_FILES_BYTES_MAX, UPLOAD_TEMP_BYTES_MAX } from './rules/limits.js';

type Json = any;

// Every temporary folder of this process (the servers' uploads among them) goes to a folder of
// this file's own, so no other test process's uploads are counted.
const TEMP = mkdtempSync(join(tmpdir(), 'slashd-uploads-end-'));
process.env.TMPDIR = TEMP;
after(() => rmSync(TEMP, { recursive: true, force: true }));

/** The `handlerTimeoutMs` of the test server: the old total deadline a slow upload passes. */
const HANDLER_MS = 1_000;
/** The test server's progress window: a body that does not grow for it is cut off. */
const WINDOW_MS = 1_000;
/** A bound for waits on the server's cleanup (a safety net: each wait ends on its condition). */
const WAIT_LIMIT_MS = 10_000;
const BOUNDARY = 'slashd-test-boundary';

/** Entries of the temporary folder that are uploads' (folders `slashd-upload-*`). */
function uploadFolders(): string[] {
  return readdirSync(TEMP).filter((name) => name.startsWith('slashd-upload-'));
}

/** Files inside the uploads' folders. */
function uploadFiles(): string[] {
  return uploadFolders().flatMap((folder) => readdirSync(join(TEMP, folder)).map((file) => join(folder, file)));
}

/** This process's open descriptors that point into an upload's folder. */
function uploadDescriptors(): string[] {
  const targets: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(join(TEMP, 'slashd-upload-'))) targets.push(target);
    } catch {
      // The descriptor closed between the listing and the read (the listing's own, say).
    }
  }
  return targets;
}

/** Polls `check` until it holds, failing past WAIT_LIMIT_MS with `what`. */
async function until(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > WAIT_LIMIT_MS) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A multipart message body with one file of `size` bytes, as a client library writes it. */
function multipart(content: string, size: number): Buffer {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="payload_json"\r\n` +
      `Content-Type: application/json\r\n\r\n${JSON.stringify({ content })}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[0]"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  return Buffer.concat([head, Buffer.alloc(size, 0x61), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

/** The request's head for `body` (its full length declared) on `path`. */
function requestHead(server: TestServer, path: string, auth: string | null, length: number): string {
  const { host } = new URL(server.url);
  return (
    `POST /api/v10${path} HTTP/1.1\r\nHost: ${host}\r\n${auth ? `Authorization: ${auth}\r\n` : ''}` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`
  );
}

/** A raw connection: what it received, and whether the server closed it. */
interface Raw {
  socket: Socket;
  received: () => string;
  closed: () => boolean;
}

function open(server: TestServer): Promise<Raw> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let text = '';
    let closed = false;
    const socket = connect({ host: hostname, port: Number(port) }, () =>
      resolve({ socket, received: () => text, closed: () => closed }),
    );
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** The status and JSON body of the first answer on `raw`, once it has come whole. */
async function answerOf(raw: Raw): Promise<{ status: number; head: string; body: Json }> {
  await until(() => {
    const text = raw.received();
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return raw.closed();
    const length = /content-length: (\d+)/i.exec(text.slice(0, end));
    return raw.closed() || (length !== null && text.length >= end + 4 + Number(length[1]));
  }, 'an answer');
  const text = raw.received();
  const end = text.indexOf('\r\n\r\n');
  assert.ok(end > 0, `an answer came: ${JSON.stringify(text.slice(0, 200))}`);
  const head = text.slice(0, end);
  return { status: Number(head.split(' ')[1]), head, body: JSON.parse(text.slice(end + 4) || 'null') };
}

/** Writes `bytes` and waits until the socket has handed them over. */
function write(raw: Raw, bytes: Buffer | string): Promise<void> {
  return new Promise((resolve) => raw.socket.write(bytes, () => resolve()));
}

/** Records every upload folder made in the temporary folder while it watches. */
function watchUploads(): { made: string[]; watcher: FSWatcher } {
  const made: string[] = [];
  const watcher = watch(TEMP, (_event, name) => {
    if (name?.startsWith('slashd-upload-')) made.push(name);
  });
  return { made, watcher };
}

async function history(server: TestServer): Promise<Json[]> {
  const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=100`, { auth: BOT });
  assert.equal(response.status, 200, response.text);
  return response.body as Json[];
}

for (const store of ['SQLite', 'PostgreSQL'] as const) {
  describe(`${store}: uploads leave nothing behind, however they end`, () => {
    let server: TestServer;
    const schema = freshSchemaName('slashd_uploads_end');

    before(async () => {
      server = await startServer({
        world: attachmentWorld(),
        timeouts: { handlerTimeoutMs: HANDLER_MS, uploadProgressWindowMs: WINDOW_MS },
        ...(store === 'PostgreSQL' ? { db: postgresConnectionString, config: { dbSchema: schema } } : {}),
      });
    });
    after(async () => {
      await server?.close();
      if (store === 'PostgreSQL') await dropSchema(schema);
    });

    test('a stalled upload is cut off (408, closed), its temporary file gone and its descriptor closed', async () => {
      const body = multipart('stalled', 2 * 1024 * 1024);
      const raw = await open(server);
      await write(raw, requestHead(server, `/channels/${GENERAL}/messages`, BOT, body.length));
      await write(raw, body.subarray(0, body.length - 100));
      await until(() => uploadFiles().length > 0, 'the upload to be written to a temporary file');
      const answer = await answerOf(raw);
      assert.equal(answer.status, 408, answer.head);
      assert.match(answer.head, /connection: close/i);
      await until(() => raw.closed(), 'the server to close the connection');
      await until(() => uploadFolders().length === 0, 'no upload folder left');
      await until(() => uploadDescriptors().length === 0, 'no descriptor left');
      // The rest, sent late, writes nothing.
      assert.ok(!(await history(server)).some((m: Json) => m.content === 'stalled'));
    });

    test('an upload whose client goes mid-body leaves no temporary file nor descriptor', async () => {
      const body = multipart('dropped', 4 * 1024 * 1024);
      const raw = await open(server);
      await write(raw, requestHead(server, `/channels/${GENERAL}/messages`, BOT, body.length));
      await write(raw, body.subarray(0, body.length / 2));
      await until(() => uploadDescriptors().length > 0, 'the upload to hold a temporary file open');
      raw.socket.destroy();
      await until(() => uploadFolders().length === 0, 'no upload folder left');
      await until(() => uploadDescriptors().length === 0, 'no descriptor left');
      assert.ok(!(await history(server)).some((m: Json) => m.content === 'dropped'));
    });

    test('a user who cannot see the channel is refused while still sending; no temporary file is made', async () => {
      const seen = watchUploads();
      try {
        const body = multipart('unseen', 8 * 1024 * 1024);
        const raw = await open(server);
        await write(raw, requestHead(server, `/channels/${GENERAL}/messages`, CAROL_TOKEN, body.length));
        await write(raw, body.subarray(0, 64 * 1024));
        // Most of the body is still to come: the answer cannot have waited for it.
        const answer = await answerOf(raw);
        assert.ok([403, 404].includes(answer.status), answer.head);
        assert.ok([50001, 10003].includes(answer.body.code), JSON.stringify(answer.body));
        assert.match(answer.head, /connection: close/i);
        raw.socket.destroy();
        assert.deepEqual(seen.made, [], 'no upload folder was made');
        assert.deepEqual(uploadFolders(), []);
      } finally {
        seen.watcher.close();
      }
    });

    test('an unknown interaction token is refused before its upload is read', async () => {
      const seen = watchUploads();
      try {
        const body = multipart('follow-up', 8 * 1024 * 1024);
        const raw = await open(server);
        await write(raw, requestHead(server, `/webhooks/${DEMO_APP_ID}/not-a-token`, null, body.length));
        await write(raw, body.subarray(0, 64 * 1024));
        const answer = await answerOf(raw);
        assert.ok(answer.status >= 400 && answer.status < 500, answer.head);
        raw.socket.destroy();
        assert.deepEqual(seen.made, [], 'no upload folder was made');
      } finally {
        seen.watcher.close();
      }
    });

    test('a file part from a caller without ATTACH_FILES is refused before it is written, on PATCH too', async () => {
      const sent = await server.request('POST', `/channels/${NSFW_LOUNGE}/messages`, {
        auth: BOT,
        body: { content: 'no files here' },
      });
      assert.equal(sent.status, 200, sent.text);
      for (const [method, path] of [
        ['POST', `/channels/${NSFW_LOUNGE}/messages`],
        ['PATCH', `/channels/${NSFW_LOUNGE}/messages/${sent.body.id}`],
      ] as const) {
        const form = new FormData();
        form.append('payload_json', JSON.stringify({ content: 'with a file' }));
        form.append('files[0]', new Blob([Buffer.alloc(4096)]), 'a.bin');
        const response = await fetch(`${server.api}${path}`, { method, headers: { authorization: BOT }, body: form });
        const body = (await response.json()) as Json;
        assert.deepEqual([response.status, body.code], [403, 50013], `${method}: ${JSON.stringify(body)}`);
      }
      const kept = await server.request('GET', `/channels/${NSFW_LOUNGE}/messages/${sent.body.id}`, { auth: BOT });
      assert.equal(kept.body.content, 'no files here');
      assert.deepEqual(kept.body.attachments, []);
      await until(() => uploadFolders().length === 0, 'no upload folder left');
    });

    test('a request cut off by its deadline wrote nothing: no message in the history, no MESSAGE_CREATE', async () => {
      const gateway = await GatewayClient.connect(server.url);
      try {
        await gateway.login(DEMO_BOT_TOKEN, 1 | 512);
        const body = multipart('too late', 1024 * 1024);
        const raw = await open(server);
        await write(raw, requestHead(server, `/channels/${GENERAL}/messages`, BOT, body.length));
        await write(raw, body.subarray(0, body.length - 100));
        const answer = await answerOf(raw);
        assert.ok(answer.status >= 400, answer.head);
        // The rest arrives after the answer, as a client that retries 5xx would not know.
        raw.socket.write(body.subarray(body.length - 100));
        await until(() => raw.closed(), 'the server to close the connection');
        await until(() => uploadFolders().length === 0, 'no upload folder left');
        const marker = await server.request('POST', `/channels/${GENERAL}/messages`, {
          auth: BOT,
          body: { content: 'after the cut' },
        });
        assert.equal(marker.status, 200, marker.text);
        // Dispatches come in order: every MESSAGE_CREATE before the marker's was sent before it.
        const created: string[] = [];
        for (;;) {
          const dispatch = await gateway.nextDispatch('MESSAGE_CREATE');
          created.push(dispatch.d.content as string);
          if (dispatch.d.id === marker.body.id) break;
        }
        assert.ok(!created.includes('too late'), JSON.stringify(created));
        assert.ok(!(await history(server)).some((m: Json) => m.content === 'too late'));
      } finally {
        gateway.drop();
      }
    });

    test('a steady slow upload taking longer than the handler deadline succeeds', async () => {
      const piece = 8 * 1024;
      const pieces = 20;
      const body = multipart('slow but steady', piece * pieces);
      const raw = await open(server);
      const started = Date.now();
      await write(raw, requestHead(server, `/channels/${GENERAL}/messages`, BOT, body.length));
      for (let at = 0; at < body.length; at += piece) {
        await write(raw, body.subarray(at, Math.min(body.length, at + piece)));
        // Pauses well inside the progress window, adding up past the handler's deadline.
        await new Promise((resolve) => setTimeout(resolve, (2 * HANDLER_MS) / pieces));
      }
      assert.ok(Date.now() - started > HANDLER_MS, 'the body took longer than the handler deadline');
      const answer = await answerOf(raw);
      raw.socket.destroy();
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.attachments[0].size, piece * pieces);
      assert.ok((await history(server)).some((m: Json) => m.id === answer.body.id));
      await until(() => uploadFolders().length === 0, 'no upload folder left');
    });
  });
}

describe('the temporary disk of a node is bounded', () => {
  let server: TestServer;

  before(async () => {
    // A long window: the held uploads stay while the test looks.
    server = await startServer({ world: attachmentWorld(), timeouts: { uploadProgressWindowMs: 60_000 } });
  });
  after(() => server?.close());

  test('past UPLOAD_TEMP_BYTES_MAX held in uploads, a new one gets 503 with Retry-After, nothing read', async () => {
    const held = UPLOAD_TEMP_BYTES_MAX / UPLOAD_FILES_BYTES_MAX;
    const length = UPLOAD_FILES_BYTES_MAX + 1024;
    const head = requestHead(server, `/channels/${GENERAL}/messages`, BOT, length);
    const first = multipart('held', 16).subarray(0, 200);
    const holders: Raw[] = [];
    try {
      for (let i = 0; i < held; i += 1) {
        const raw = await open(server);
        await write(raw, head);
        await write(raw, first);
        holders.push(raw);
      }
      await until(() => uploadFolders().length === held, `${held} uploads in progress`);
      const refused = await open(server);
      await write(refused, head);
      await write(refused, first);
      const answer = await answerOf(refused);
      refused.socket.destroy();
      assert.equal(answer.status, 503, answer.head);
      assert.match(answer.head, /retry-after: \d+/i);
      assert.equal(uploadFolders().length, held, 'the refused upload made no folder');
    } finally {
      for (const raw of holders) raw.socket.destroy();
    }
    await until(() => uploadFolders().length === 0, 'the held uploads gone with their clients');
    await until(() => uploadDescriptors().length === 0, 'no descriptor left');
    // The space is given back: a new upload goes through.
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content: 'after the holders' }));
    form.append('files[0]', new Blob([Buffer.alloc(1024)]), 'a.bin');
    const response = await fetch(`${server.api}/channels/${GENERAL}/messages`, {
      method: 'POST',
      headers: { authorization: BOT },
      body: form,
    });
    assert.equal(response.status, 200, await response.text());
  });
});
