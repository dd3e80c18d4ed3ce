/**
 * A node's drain (`close()`, what SIGTERM runs) always completes: an open console event stream
 * ends when it starts, a request under way finishes and is told `Connection: close`, a request
 * that arrives meanwhile gets v10's 503 body (not Fastify's), and past the drain timeout whatever
 * still holds a connection is cut.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { BOB_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL } from './helpers/world.js';

/** Safety net of each test: a drain that never completes fails it instead of hanging the suite. */
const TEST_LIMIT = { timeout: 20_000 };
/** A drain timeout no test reaches unless it means to: what ends the drain must be the thing tested. */
const NEVER_MS = 10 * 60_000;

const servers: TestServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function serverWith(drainTimeoutMs: number): Promise<TestServer> {
  const server = await startServer({ config: { drainTimeoutMs } });
  servers.push(server);
  return server;
}

/** Resolves once `check` holds, looking again at every turn of the event loop (no fixed wait). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A raw connection to the server, and the server's end of it: `sent(n)` resolves once the server
 * has read `n` bytes of it, so the test knows a partial request has reached node's parser.
 */
async function rawConnection(server: TestServer) {
  const accepted = new Promise<Socket>((resolve) => server.slashd.server.server.once('connection', resolve));
  const client = connect(Number(new URL(server.url).port), '127.0.0.1');
  client.on('error', () => undefined);
  const serverSide = await accepted;
  let received = '';
  client.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => client.once('close', () => resolve()));
  let written = 0;
  return {
    client,
    ended,
    received: () => received,
    async send(text: string) {
      client.write(text);
      written += Buffer.byteLength(text);
      await until(() => serverSide.bytesRead >= written);
    },
  };
}

function headerOf(response: string, name: string): string | undefined {
  const head = response.slice(0, response.indexOf('\r\n\r\n'));
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1).trim();
}

describe('draining a node', () => {
  test('an open console event stream ends and close() completes', TEST_LIMIT, async () => {
    const server = await serverWith(NEVER_MS);
    const response = await fetch(`${server.url}/console/api/channels/${GENERAL}/events`, {
      headers: { authorization: BOB_TOKEN },
    });
    assert.equal(response.status, 200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await reader.read()).value, ': open\n\n');
    await server.slashd.close();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  });

  test('a request under way finishes with Connection: close; one arriving gets a v10 503', TEST_LIMIT, async () => {
    const server = await serverWith(NEVER_MS);
    const body = JSON.stringify({ name: 'during-drain', description: 'sent while the node drains' });
    const underWay = await rawConnection(server);
    await underWay.send(
      `POST /api/v10/applications/${DEMO_APP_ID}/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: Bot ${DEMO_BOT_TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    const arriving = await rawConnection(server);
    await arriving.send('GET /api/v10/gateway HTTP/1.1\r\nHost: 127.0.0.1\r\n');

    const closed = server.slashd.close();
    await until(() => !server.slashd.server.server.listening);
    await arriving.send('\r\n');
    await underWay.send(body.slice(10));

    await arriving.ended;
    assert.match(arriving.received(), /^HTTP\/1.1 503 /);
    assert.equal(headerOf(arriving.received(), 'connection'), 'close');
    const refusal = JSON.parse(arriving.received().slice(arriving.received().indexOf('\r\n\r\n') + 4));
    assert.deepEqual(refusal, { message: 'The server is shutting down; send the request again', code: 0 });

    await underWay.ended;
    assert.match(underWay.received(), /^HTTP\/1.1 201 /);
    assert.equal(headerOf(underWay.received(), 'connection'), 'close');
    await closed;
  });

  test('past the drain timeout, a client that holds on is cut and close() completes', TEST_LIMIT, async () => {
    const server = await serverWith(50);
    const holding = await rawConnection(server);
    // Headers begun and never finished: the request is under way for as long as the client likes.
    await holding.send('GET /api/v10/gateway HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await server.slashd.close();
    await holding.ended;
    assert.equal(holding.received(), '');
  });
});
