/** Only the OAuth2 token endpoint reads form-encoded bodies; every other route refuses them and writes nothing. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { injectServer, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID } from './helpers/world.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form-encoded bodies', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer();
  });
  after(() => server.close());

  test('a form-encoded command create is the v10 content-type error, and no command is created', async () => {
    const before = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
    });
    const response = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      headers: FORM,
      rawBody: 'name=formmade&description=made+from+a+form',
    });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.body.code, 50035);
    assert.equal(response.body.errors._errors[0].code, 'CONTENT_TYPE_INVALID');
    const afterList = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
    });
    assert.deepEqual(afterList.body, before.body);
    assert.ok(!afterList.text.includes('formmade'));
  });

  test('the token endpoint still reads its form', async () => {
    const response = await server.request('POST', '/oauth2/token', {
      headers: FORM,
      rawBody: 'grant_type=client_credentials&scope=identify',
    });
    // No client authentication was given: an OAuth2 error, read from the form, not a content-type error.
    assert.equal(response.status, 401);
    assert.equal(typeof response.body.error, 'string');
  });
});
