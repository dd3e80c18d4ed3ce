/**
 * Paths under /api without a version are served as v10, as v10 serves its default version
 * (@buape/carbon calls `/api/users/@me`, `/api/applications/...`): the same answers, the same
 * rate-limit buckets and counters, 405 for a wrong method, and the other version rules unchanged.
 * Through the routes (injected): the rewrite is the router's, the socket plays no part.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { servedAsV10 } from '../src/http/api-versions.js';
import { redactUrl } from '../src/http/server.js';
import { injectServer, type TestResponse, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, GLOBAL_BASE } from './helpers/world.js';

const START = 1_750_000_000_000;

describe('unversioned /api paths', () => {
  let server: TestServer;
  let clock = START;
  let api: string;

  before(async () => {
    server = await injectServer({ now: () => clock, config: { rateLimits: { preset: 'v10' } } });
    api = `${server.url}/api`;
  });
  after(() => server.close());

  function get(url: string): Promise<TestResponse> {
    return server.request('GET', url, { auth: BOT });
  }

  test('/api/users/@me and /api/applications/@me answer as v10', async () => {
    for (const path of ['/users/@me', '/applications/@me', '/users/%40me']) {
      const unversioned = await get(`${api}${path}`);
      const v10 = await get(`${api}/v10${path}`);
      assert.equal(unversioned.status, 200, JSON.stringify(unversioned.body));
      assert.deepEqual(unversioned.body, v10.body, `${path} is v10's`);
    }
    assert.equal((await get(`${api}/users/@me`)).body.id, DEMO_APP_ID);
  });

  test('a write through /api/applications/... is v10 state', async () => {
    const created = await server.request('POST', `${api}/applications/${DEMO_APP_ID}/commands?x=1`, {
      auth: BOT,
      body: { name: 'unversioned', description: 'Made without a version' },
    });
    assert.equal(created.status, 201);
    const command = created.body as { id: string; name: string };
    const read = await server.request('GET', `${GLOBAL_BASE}/${command.id}`, { auth: BOT });
    assert.equal(read.status, 200);
    assert.equal(read.body.name, 'unversioned');
  });

  test('the same rate-limit bucket and counter as v10', async () => {
    clock = START + 60_000;
    const first = await get(`${api}${GLOBAL_BASE}`);
    const second = await get(`${api}/v10${GLOBAL_BASE}`);
    const third = await get(`${api}/v9${GLOBAL_BASE}`);
    assert.equal(first.status, 200);
    assert.ok(first.headers.get('x-ratelimit-bucket'), 'the reply names its bucket');
    assert.equal(first.headers.get('x-ratelimit-bucket'), second.headers.get('x-ratelimit-bucket'));
    assert.equal(first.headers.get('x-ratelimit-bucket'), third.headers.get('x-ratelimit-bucket'));
    assert.deepEqual(
      [first, second, third].map((response) => response.headers.get('x-ratelimit-remaining')),
      ['4', '3', '2'],
    );
  });

  test('a wrong method on a known path is 405, an unknown path 404, other versions still 50041', async () => {
    const wrongMethod = await server.request('DELETE', `${api}/users/@me`, { auth: BOT });
    assert.equal(wrongMethod.status, 405);
    assert.deepEqual(wrongMethod.body, { message: '405: Method Not Allowed', code: 0 });
    const unknown = await get(`${api}/no-such-thing`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 0);
    const v8 = await get(`${api}/v8/users/@me`);
    assert.equal(v8.status, 400);
    assert.equal(v8.body.code, 50041);
  });
});

describe('servedAsV10', () => {
  test('only paths under /api without a version are rewritten, query kept', () => {
    assert.equal(servedAsV10('/api/users/@me'), '/api/v10/users/@me');
    assert.equal(
      servedAsV10('/api/applications/1/commands?with_localizations=true'),
      '/api/v10/applications/1/commands?with_localizations=true',
    );
    assert.equal(servedAsV10('/api'), '/api/v10');
    assert.equal(servedAsV10('/api?x=1'), '/api/v10?x=1');
    for (const kept of ['/api/v10/users/@me', '/api/v9', '/api/v8/users', '/apis/x', '/admin/api', '/console/api/x']) {
      assert.equal(servedAsV10(kept), kept);
    }
    // A segment that only starts like a version is a path, not a version.
    assert.equal(servedAsV10('/api/v10x/y'), '/api/v10/v10x/y');
  });

  test('tokens in unversioned interaction and webhook paths are redacted from logs too', () => {
    assert.equal(redactUrl('/api/interactions/123/secret-token/callback'), '/api/interactions/123/:token/callback');
    assert.equal(redactUrl('/api/webhooks/123/secret-token?wait=true'), '/api/webhooks/123/:token?wait=true');
    assert.equal(redactUrl('/api/v10/webhooks/123/secret-token'), '/api/v10/webhooks/123/:token');
  });
});
