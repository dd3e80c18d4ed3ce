/**
 * Answers made before or outside routing: an oversized header, a malformed percent-escape, an
 * escaped `@me`. Each is a v10 body with exactly `application/json`, and none echoes the URL.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID } from './helpers/world.js';

function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], text }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the HTTP edge', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('a header over the size limit is a v10 431 body', async () => {
    const response = await rawGet(`${server.api}/users/@me`, { 'x-filler': 'a'.repeat(100_000) });
    assert.equal(response.status, 431);
    assert.equal(response.type, 'application/json');
    assert.deepEqual(JSON.parse(response.text), { message: '431: Request Header Fields Too Large', code: 0 });
  });

  test('a malformed percent-escape is a v10 400 that does not echo the path or its token', async () => {
    const response = await server.request('GET', '/webhooks/1/secret-token-value%zz/messages/@original');
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.body.code, 0);
    assert.ok(!response.text.includes('secret-token-value'), response.text);
  });

  test('/users/%40me and /applications/%40me answer as their unescaped paths do', async () => {
    for (const path of ['/users/@me', '/applications/@me']) {
      const plain = await server.request('GET', path, { auth: BOT });
      const escaped = await server.request('GET', path.replace('@', '%40'), { auth: BOT });
      assert.equal(plain.status, 200);
      assert.equal(escaped.status, 200);
      assert.equal(escaped.headers.get('content-type'), 'application/json');
      assert.deepEqual(escaped.body, plain.body);
    }
    const app = await server.request('GET', '/applications/%40me', { auth: BOT });
    assert.equal(app.body.id, DEMO_APP_ID);
  });

  test('an escaped slash stays part of its segment', async () => {
    const response = await server.request('GET', '/users%2F@me', { auth: BOT });
    assert.equal(response.status, 404);
  });
});
