/** The authorization pages' own rules: what is shown, headers, the form token, the sandbox's user list. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consentSession, signInForm } from '../../../test/helpers/oauth2.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ALICE_TOKEN, DEMO_APP_ID } from '../../../test/helpers/world.js';

const AUTHORIZE = `/oauth2/authorize?${new URLSearchParams({
  client_id: DEMO_APP_ID,
  response_type: 'code',
  redirect_uri: 'http://127.0.0.1/callback',
  scope: 'identify',
  state: 'xyz',
}).toString()}`;

describe('the authorization pages', () => {
  let server: TestServer;
  let sandbox: TestServer;
  before(async () => {
    server = await startServer();
    sandbox = await startServer({ config: { sandboxSignIn: true } });
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  it('an unknown client is shown, never redirected to; pages cannot be framed or run scripts', async () => {
    const response = await fetch(`${server.url}/oauth2/authorize?client_id=999&redirect_uri=https://evil.example/`, {
      redirect: 'manual',
    });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.doesNotMatch(await response.text(), /evil\.example/);
  });

  it('asks for a sign-in; the sandbox alone lists the users', async () => {
    const plain = await (await fetch(`${server.url}${AUTHORIZE}`)).text();
    assert.match(plain, /User token/);
    assert.doesNotMatch(plain, /Continue as alice/);
    const listed = await (await fetch(`${sandbox.url}${AUTHORIZE}`)).text();
    assert.match(listed, /Continue as alice/);
  });

  it('refuses a wrong token at sign-in, and an Authorize without the form token of the session', async () => {
    const query = AUTHORIZE.split('?')[1]!;
    const form = await signInForm(server.url, query);
    const wrong = await fetch(`${server.url}/oauth2/authorize/sign-in`, {
      method: 'POST',
      headers: { cookie: form.cookie },
      body: new URLSearchParams({ token: 'not-a-token', query, sign_in_token: form.signInToken }),
      redirect: 'manual',
    });
    assert.equal(wrong.status, 401);
    assert.doesNotMatch(wrong.headers.get('set-cookie') ?? '', /slashd_consent/);
    const cookie = await consentSession(server.url, ALICE_TOKEN, query);
    assert.match(cookie, /^slashd_consent=/);
    const forged = await fetch(`${server.url}/oauth2/authorize`, {
      method: 'POST',
      headers: { cookie },
      body: new URLSearchParams({ query, decision: 'authorize', form_token: 'guess' }),
      redirect: 'manual',
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.headers.get('location'), null, 'no code was issued');
    const tampered = await fetch(`${server.url}${AUTHORIZE}`, { headers: { cookie: `${cookie}x` } });
    assert.match(await tampered.text(), /User token/, 'a tampered session is no session');
  });

  it('prompt=none without a session answers login_required at once', async () => {
    const response = await fetch(`${server.url}${AUTHORIZE}&prompt=none`, { redirect: 'manual' });
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'login_required');
    assert.equal(location.searchParams.get('state'), 'xyz');
  });

  it('serves discovery naming this server as issuer', async () => {
    const discovery = await server.request('GET', `${server.url}/.well-known/openid-configuration`);
    assert.equal(discovery.body.issuer, server.url);
    assert.equal(discovery.body.token_endpoint, `${server.url}/api/v10/oauth2/token`);
    assert.deepEqual(discovery.body.code_challenge_methods_supported, ['S256', 'plain']);
  });
});
