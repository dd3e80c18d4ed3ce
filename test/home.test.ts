/**
 * The root and the probes: `/` is a short HTML page naming slashd, the API base and the docs;
 * `/healthz` answers while the process does; `/readyz` answers 503 once the store cannot. A stop
 * does not wait for an idle keep-alive client.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { injectServer, startServer, type TestServer } from './helpers/server.js';

/** Safety net for a stop: far below the keep-alive timeout set below, far above any real stop. */
const STOP_BOUND_MS = 30_000;
/** The server's keep-alive timeout in the stop test: a stop that waited for it would fail the bound. */
const HUGE_KEEP_ALIVE_MS = 10 * 60_000;

describe('GET /, /healthz, /readyz', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer();
  });
  after(() => server.close());

  test('/ is an HTML page naming slashd, the API base and the docs', async () => {
    const response = await server.request('GET', `${server.url}/`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(response.text, /<h1>slashd<\/h1>/);
    assert.match(response.text, /\/api\/v10/);
    assert.match(response.text, /README\.md/);
    assert.match(response.text, /docs\/invoking\.md/);
  });

  test('/healthz is 200 {"status":"ok"} as application/json exactly', async () => {
    const response = await server.request('GET', `${server.url}/healthz`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(response.body, { status: 'ok' });
  });

  test('/readyz is 200 while the store answers', async () => {
    const response = await server.request('GET', `${server.url}/readyz`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.body.status, 'ok');
  });

  test('a probe path with another method is a v10 405, not a crash', async () => {
    const response = await server.request('POST', `${server.url}/healthz`);
    assert.equal(response.status, 405);
  });
});

describe('/readyz when the store is closed', () => {
  test('answers 503 as application/json, while /healthz still answers 200', async () => {
    const server = await injectServer();
    try {
      await server.slashd.store.close();
      const ready = await server.request('GET', `${server.url}/readyz`);
      assert.equal(ready.status, 503);
      assert.equal(ready.headers.get('content-type'), 'application/json');
      assert.equal(ready.body.status, 'unavailable');
      assert.equal((await server.request('GET', `${server.url}/healthz`)).status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('stopping', () => {
  test('close() returns with an idle keep-alive client connected, and closes its connection', async () => {
    const server = await startServer();
    server.slashd.server.server.keepAliveTimeout = HUGE_KEEP_ALIVE_MS;
    const agent = new Agent({ keepAlive: true });
    let socketClosed: Promise<void> | undefined;
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(`${server.url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve());
      });
      request.on('socket', (socket) => {
        socketClosed = new Promise<void>((closed) => socket.once('close', () => closed()));
      });
      request.on('error', reject);
      request.end();
    });
    let bound: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      server.close().then(() => 'closed'),
      new Promise<string>((resolve) => {
        bound = setTimeout(() => resolve('still waiting'), STOP_BOUND_MS);
      }),
    ]);
    clearTimeout(bound);
    assert.equal(outcome, 'closed');
    const socketOutcome = await Promise.race([
      socketClosed!.then(() => 'socket closed'),
      new Promise<string>((resolve) => {
        bound = setTimeout(() => resolve('socket still open'), STOP_BOUND_MS);
      }),
    ]);
    clearTimeout(bound);
    assert.equal(socketOutcome, 'socket closed');
    agent.destroy();
  });
});
