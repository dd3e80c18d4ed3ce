/**
 * A request answered before its body was read (a refused multipart upload) leaves its connection
 * fit for the next request: the body is read to its end first (up to the route's body limit), or
 * the answer says `Connection: close` and the connection ends. Shown with aiohttp's own client and
 * discord.py (which stop writing a body once answered, then reuse the connection), and with raw
 * sockets and a 256 KiB body.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL } from './helpers/world.js';
import { runDiscordPy } from './helpers/discordpy.js';

/** Safety net for an answer that never comes (the bug): the test fails instead of hanging. */
const ANSWER_LIMIT_MS = 15_000;

const BOUNDARY = 'slashd-test-boundary';
const COMMANDS = `/api/v10/applications/${DEMO_APP_ID}/commands`;
const CALLBACK = '/api/v10/interactions/1/not-a-token/callback';

function multipartBody(fileBytes: number): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n` +
        `{"name":"upload","description":"x"}\r\n--${BOUNDARY}\r\n` +
        'Content-Disposition: form-data; name="files[0]"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.alloc(fileBytes, 'x'),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

function multipartHead(path: string, length: number): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bot ${DEMO_BOT_TOKEN}\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`
  );
}

function jsonRequest(name: string): string {
  const body = JSON.stringify({ name, description: 'after a refused upload' });
  return (
    `POST ${COMMANDS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bot ${DEMO_BOT_TOKEN}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: any;
}

/** Reads HTTP responses (with Content-Length) off a raw socket, in order; `ended` once the server closes it. */
class RawConnection {
  readonly socket: Socket;
  readonly ended: Promise<void>;
  private buffered = Buffer.alloc(0);
  private readonly responses: RawResponse[] = [];
  private wake: () => void = () => {};

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    this.socket.on('error', () => undefined);
    this.ended = new Promise((resolve) => this.socket.once('close', () => resolve()));
    void this.ended.then(() => this.wake());
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffered.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const [statusLine = '', ...lines] = this.buffered.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers.get('content-length') ?? 0);
      if (this.buffered.length < headEnd + 4 + length) return;
      const body = this.buffered.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
      this.buffered = this.buffered.subarray(headEnd + 4 + length);
      this.responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body || 'null') });
      this.wake();
    }
  }

  /** The `index`th response (0-based), once it has arrived; rejects if the connection ends first. */
  async response(index: number): Promise<RawResponse> {
    const started = Date.now();
    while (this.responses.length <= index) {
      if (this.socket.destroyed) throw new Error(`the connection ended after ${this.responses.length} responses`);
      if (Date.now() - started > ANSWER_LIMIT_MS) throw new Error(`no response ${index} on the connection`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ANSWER_LIMIT_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.responses[index]!;
  }

  /** How many responses arrived in all (read once the connection has ended). */
  get count(): number {
    return this.responses.length;
  }
}

describe('a refused upload leaves its keep-alive connection fit for the next request', () => {
  let server: TestServer;
  let port: number;

  before(async () => {
    server = await startServer();
    port = Number(new URL(server.url).port);
  });
  after(() => server?.close());

  test('aiohttp and discord.py: a refused multipart upload, then JSON on the same client, is answered', async () => {
    const result = await runDiscordPy('refused_multipart.py', [server.api, DEMO_BOT_TOKEN, DEMO_APP_ID, GENERAL]);
    // Within the route's body limit, the body is read to its end: the connection is reused.
    assert.deepEqual(result.commands_256k, {
      first: [400, 50035],
      first_connection: 'keep-alive',
      second: [201, 'after-commands'],
      connections: ['new', 'reused'],
    });
    // The callback takes files: an unknown interaction token is refused before the upload is read.
    assert.deepEqual(result.callback_small, {
      first: [404, 10062],
      first_connection: 'keep-alive',
      second: [201, 'after-small'],
      connections: ['new', 'reused'],
    });
    // Past it, the answer closes the connection, and aiohttp opens another for the next request.
    // aiohttp, still writing the body when the socket closes, may report that instead of the 404.
    const { first, ...rest } = result.callback_256k;
    assert.ok(
      JSON.stringify(first) === JSON.stringify([404, 10062]) || first === 'closed while sending',
      JSON.stringify(first),
    );
    assert.deepEqual(rest, { first_connection: 'close', second: [201, 'after-callback'], connections: ['new', 'new'] });
    // The example world's bot lacks ATTACH_FILES: its upload is read, refused, and the connection serves on.
    assert.deepEqual(result.discord_py, { file: [403, 50013], text: 'plain text after the file' });
  });

  test('raw socket, 256 KiB within the limit: the body is read, and the request after it is answered', async () => {
    const body = multipartBody(256 * 1024);
    const connection = new RawConnection(port);
    connection.socket.write(multipartHead(COMMANDS, body.length));
    connection.socket.write(body.subarray(0, 64 * 1024));
    connection.socket.write(Buffer.concat([body.subarray(64 * 1024), Buffer.from(jsonRequest('after-raw'))]));
    const refused = await connection.response(0);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50035);
    assert.equal(refused.headers.get('connection'), 'keep-alive');
    const next = await connection.response(1);
    assert.equal(next.status, 201);
    assert.equal(next.body.name, 'after-raw');
    connection.socket.destroy();
  });

  test('raw socket, 256 KiB past the limit, the client waiting for the answer: Connection: close, and it ends', async () => {
    const body = multipartBody(256 * 1024);
    const connection = new RawConnection(port);
    // As aiohttp does: part of the body, then the answer is read before the rest is sent.
    connection.socket.write(multipartHead(CALLBACK, body.length));
    connection.socket.write(body.subarray(0, 64 * 1024));
    const refused = await connection.response(0);
    // The callback takes files: the unknown interaction token is refused before the body is read.
    assert.equal(refused.status, 404, `status ${refused.status}`);
    assert.equal(refused.body.code, 10062);
    assert.equal(refused.headers.get('connection'), 'close');
    // Whatever the client sends next is never read as a request on that connection.
    connection.socket.write(jsonRequest('never-read'));
    await connection.ended;
    assert.equal(connection.count, 1);
    const listed = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
    });
    assert.ok(!listed.body.some((command: { name: string }) => command.name === 'never-read'));
  });
});
