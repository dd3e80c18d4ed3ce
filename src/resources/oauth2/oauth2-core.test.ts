/** The pure OAuth2 rules: scopes and their expansion, redirect matching, PKCE, the authorize query. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAuthorizeQuery } from './rules/authorize-request.js';
import { grantedBotPermissions, mayManageGuild, withheldPermissions, withInstall } from './rules/install.js';
import { ADMINISTRATOR, ALL, MANAGE_GUILD, VIEW_CHANNEL } from '../../core/permissions/bits.js';
import { isWellFormedChallenge, readChallengeMethod, s256Challenge, verifierMatches } from './rules/pkce.js';
import { matchRedirectUri, withQuery } from './rules/redirect.js';
import {
  grantsToken,
  installsApp,
  parseScopes,
  refusedClientCredentialsScope,
  SDK_SCOPE_EXPANSION,
} from './rules/scopes.js';
import type { Application } from '../../core/world/types.js';
import { ALICE_ID, BOB_ID, CAROL_ID, DEMO_APP_ID, TEST_GUILD_ID, exampleWorld } from '../../../test/helpers/world.js';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'; // RFC 7636 appendix B

const APP: Application = {
  id: DEMO_APP_ID,
  name: 'Demo',
  owner_id: ALICE_ID,
  bot_token: 'b',
  client_secret: 's',
  public_client: false,
  redirect_uris: ['https://app.example/cb', 'http://127.0.0.1/callback'],
  flags: 0,
  integration_types: [0, 1],
  discoverable: false,
  interactions_endpoint_url: null,
};

describe('scopes', () => {
  it('reads a space-separated list, each once, and refuses the first unknown scope', () => {
    assert.deepEqual(parseScopes('identify guilds identify'), { scopes: ['identify', 'guilds'] });
    assert.deepEqual(parseScopes('identify nope guilds'), { unknown: 'nope' });
    assert.deepEqual(parseScopes(undefined), { scopes: [] });
    assert.ok('unknown' in parseScopes('identify '.repeat(200)), 'an over-long parameter is refused');
  });

  it('expands the SDK scopes to the set the integration needs', () => {
    const social = parseScopes('sdk.social_layer');
    assert.ok('scopes' in social);
    assert.deepEqual(
      new Set(social.scopes),
      new Set(['sdk.social_layer', ...SDK_SCOPE_EXPANSION['sdk.social_layer']!]),
    );
    assert.ok(social.scopes.includes('sdk.social_layer_presence') && social.scopes.includes('openid'));
    const presence = parseScopes('sdk.social_layer_presence');
    assert.deepEqual(presence, { scopes: ['sdk.social_layer_presence', 'identify', 'openid'] });
  });

  it('client credentials grant only scopes that need no user', () => {
    assert.equal(refusedClientCredentialsScope(['applications.commands.update', 'identify']), undefined);
    assert.equal(
      refusedClientCredentialsScope(['identify', 'applications.commands.permissions.update']),
      'applications.commands.permissions.update',
    );
    assert.equal(refusedClientCredentialsScope(['openid']), 'openid');
  });

  it('tells installs from token grants', () => {
    assert.equal(installsApp(['bot']), true);
    assert.equal(installsApp(['identify']), false);
    assert.equal(grantsToken(['bot', 'applications.commands']), false);
    assert.equal(grantsToken(['bot', 'identify']), true);
  });
});

describe('redirect URIs', () => {
  it('match exactly, never by prefix or normalisation', () => {
    assert.equal(matchRedirectUri(APP.redirect_uris, 'https://app.example/cb'), 'https://app.example/cb');
    assert.equal(matchRedirectUri(APP.redirect_uris, 'https://app.example/cb/evil'), null);
    assert.equal(matchRedirectUri(APP.redirect_uris, 'https://app.example/cb?x=1'), null);
    assert.equal(matchRedirectUri(APP.redirect_uris, 'https://APP.example/cb'), null);
    assert.equal(matchRedirectUri(APP.redirect_uris, undefined), null, 'two registered: one must be named');
    assert.equal(matchRedirectUri(['https://only/cb'], undefined), 'https://only/cb');
  });

  it('adds parameters to the query the URI already has', () => {
    assert.equal(withQuery('https://a/cb?x=1', { code: 'c', state: undefined }), 'https://a/cb?x=1&code=c');
  });
});

describe('PKCE', () => {
  it('checks S256 against the RFC 7636 example and plain as is', () => {
    assert.equal(s256Challenge(VERIFIER), CHALLENGE);
    assert.equal(verifierMatches(CHALLENGE, 'S256', VERIFIER), true);
    assert.equal(verifierMatches(CHALLENGE, 'S256', VERIFIER.replace('d', 'e')), false);
    assert.equal(verifierMatches(CHALLENGE, 'S256', undefined), false);
    assert.equal(verifierMatches(VERIFIER, 'plain', VERIFIER), true);
    assert.equal(verifierMatches(VERIFIER, 'plain', 'short'), false, 'a verifier under 43 characters is refused');
  });

  it('reads the method and the shape of a challenge', () => {
    assert.equal(readChallengeMethod(undefined), 'S256');
    assert.equal(readChallengeMethod('plain'), 'plain');
    assert.equal(readChallengeMethod('S512'), null);
    assert.equal(isWellFormedChallenge(CHALLENGE, 'S256'), true);
    assert.equal(isWellFormedChallenge('abc', 'S256'), false);
  });
});

describe('the authorize query', () => {
  const base = {
    client_id: APP.id,
    response_type: 'code',
    redirect_uri: 'https://app.example/cb',
    scope: 'identify',
    state: 's1',
  };

  it('shows a bad client or redirect URI instead of redirecting to it', () => {
    assert.equal(checkAuthorizeQuery(null, base).kind, 'show');
    assert.equal(checkAuthorizeQuery(APP, { ...base, redirect_uri: 'https://evil.example/cb' }).kind, 'show');
  });

  it('sends every other problem back to the redirect URI with the state', () => {
    const unknown = checkAuthorizeQuery(APP, { ...base, scope: 'identify telepathy' });
    assert.deepEqual(unknown.kind === 'redirect' && [unknown.error, unknown.state], ['invalid_scope', 's1']);
    const type = checkAuthorizeQuery(APP, { ...base, response_type: 'token' });
    assert.equal(type.kind === 'redirect' && type.error, 'unsupported_response_type');
    const method = checkAuthorizeQuery(APP, { ...base, code_challenge: CHALLENGE, code_challenge_method: 'S1' });
    assert.equal(method.kind === 'redirect' && method.error, 'invalid_request');
  });

  it('asks a public client for PKCE', () => {
    const reading = checkAuthorizeQuery({ ...APP, public_client: true }, base);
    assert.equal(reading.kind === 'redirect' && reading.error, 'invalid_request');
    assert.equal(
      checkAuthorizeQuery({ ...APP, public_client: true }, { ...base, code_challenge: CHALLENGE }).kind,
      'ok',
    );
  });

  it('lets an install-only request omit the redirect, but not install a bot to a user', () => {
    const install = checkAuthorizeQuery(APP, {
      client_id: APP.id,
      scope: 'bot applications.commands',
      permissions: '2048',
    });
    assert.equal(install.kind === 'ok' && install.request.redirectUri, null);
    assert.equal(install.kind === 'ok' && install.request.permissions, '2048');
    assert.equal(checkAuthorizeQuery(APP, { ...base, scope: 'bot', integration_type: '1' }).kind, 'redirect');
    assert.equal(
      checkAuthorizeQuery(
        { ...APP, integration_types: [0] },
        { ...base, scope: 'applications.commands', integration_type: '1' },
      ).kind,
      'redirect',
    );
  });
});

describe('guild installs', () => {
  const guild = exampleWorld().guilds.find((g) => g.id === TEST_GUILD_ID)!;

  it('only owners and members with MANAGE_GUILD may choose the guild', () => {
    assert.equal(mayManageGuild(guild, ALICE_ID), true, 'the owner');
    assert.equal(mayManageGuild(guild, BOB_ID), true, 'a moderator with MANAGE_GUILD');
    assert.equal(mayManageGuild(guild, CAROL_ID), false);
  });

  it('adds the install with the bot role from permissions, keeping earlier install scopes', () => {
    const once = withInstall(guild, '9', ['applications.commands'], null, ALICE_ID);
    assert.deepEqual(once.installs.at(-1), {
      application_id: '9',
      scopes: ['applications.commands'],
      permissions: null,
    });
    const twice = withInstall(once, '9', ['bot', 'identify'], '2048', ALICE_ID);
    assert.deepEqual(twice.installs.at(-1), {
      application_id: '9',
      scopes: ['applications.commands', 'bot'],
      permissions: '2048',
    });
    assert.equal(twice.installs.length, guild.installs.length + 1);
  });

  it('a user grants only the bits they hold; the owner and administrators hold all', () => {
    // bob: MANAGE_GUILD, MANAGE_ROLES, KICK_MEMBERS and @everyone's bits, no ADMINISTRATOR.
    const asked = (ADMINISTRATOR | MANAGE_GUILD | VIEW_CHANNEL).toString();
    const byBob = withInstall(guild, '9', ['bot'], asked, BOB_ID);
    assert.equal(byBob.installs.at(-1)?.permissions, (MANAGE_GUILD | VIEW_CHANNEL).toString());
    assert.equal(withheldPermissions(guild, BOB_ID, asked), ADMINISTRATOR);
    assert.equal(withheldPermissions(guild, ALICE_ID, asked), 0n, 'the owner');
    assert.equal(withInstall(guild, '9', ['bot'], asked, ALICE_ID).installs.at(-1)?.permissions, asked);
  });

  it('a re-authorization changes only the bits its user holds: never raises beyond them, never lowers the rest', () => {
    const grantable = MANAGE_GUILD | VIEW_CHANNEL;
    assert.equal(grantedBotPermissions(ADMINISTRATOR, grantable, 0n), 0n, 'no raise past the user');
    assert.equal(
      grantedBotPermissions(0n, grantable, ADMINISTRATOR | VIEW_CHANNEL),
      ADMINISTRATOR,
      'lowers only own bits',
    );
    assert.equal(grantedBotPermissions(MANAGE_GUILD, grantable, VIEW_CHANNEL), MANAGE_GUILD);
    assert.equal(
      grantedBotPermissions(ADMINISTRATOR, ALL, MANAGE_GUILD),
      ADMINISTRATOR,
      'an administrator sets any bit',
    );
  });
});
