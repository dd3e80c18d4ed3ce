/** AuthorizationArgs of the client library: each property's default and setter, clone(), nullobj (spec table). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AuthenticationCodeChallengeMethod,
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  Client,
  customSchemeRedirectUri,
  IntegrationType,
} from '../src/sdk/index.js';
import { DEMO_APP_ID } from './helpers/world.js';

describe('AuthorizationArgs properties', () => {
  test('ClientId: unset by default; set from a decimal string or a bigint; unset again with undefined', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.clientId(), undefined);
    args.setClientId(DEMO_APP_ID);
    assert.equal(args.clientId(), DEMO_APP_ID);
    args.setClientId(18446744073709551615n);
    assert.equal(args.clientId(), '18446744073709551615');
    args.setClientId(undefined);
    assert.equal(args.clientId(), undefined);
  });

  test('Scopes: empty by default; the default scope sets of Client', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.scopes(), '');
    args.setScopes(Client.getDefaultCommunicationScopes());
    assert.equal(args.scopes(), 'openid sdk.social_layer');
    args.setScopes(Client.getDefaultPresenceScopes());
    assert.equal(args.scopes(), 'openid sdk.social_layer_presence');
  });

  test('State: unset by default (authorize makes one); set and unset', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.state(), undefined);
    args.setState('my-state');
    assert.equal(args.state(), 'my-state');
    args.setState(undefined);
    assert.equal(args.state(), undefined);
  });

  test('Nonce: unset by default; set and unset', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.nonce(), undefined);
    args.setNonce('n-123');
    assert.equal(args.nonce(), 'n-123');
    args.setNonce(undefined);
    assert.equal(args.nonce(), undefined);
  });

  test('CodeChallenge: unset by default; set from a challenge, stored as a copy', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.codeChallenge(), undefined);
    const challenge = new AuthorizationCodeChallenge('abc', AuthenticationCodeChallengeMethod.S256);
    args.setCodeChallenge(challenge);
    challenge.setChallenge('changed later');
    assert.equal(args.codeChallenge()?.challenge(), 'abc');
    assert.equal(args.codeChallenge()?.method(), AuthenticationCodeChallengeMethod.S256);
    args.codeChallenge()?.setChallenge('changed through the getter');
    assert.equal(args.codeChallenge()?.challenge(), 'abc');
    args.setCodeChallenge(undefined);
    assert.equal(args.codeChallenge(), undefined);
  });

  test('IntegrationType: unset by default; GuildInstall 0 and UserInstall 1', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.integrationType(), undefined);
    args.setIntegrationType(IntegrationType.UserInstall);
    assert.equal(args.integrationType(), 1);
    args.setIntegrationType(IntegrationType.GuildInstall);
    assert.equal(args.integrationType(), 0);
    args.setIntegrationType(undefined);
    assert.equal(args.integrationType(), undefined);
  });

  test('CustomSchemeParam: unset gives the scheme derived from the application id; X gives X:/authorize/callback', () => {
    const args = new AuthorizationArgs();
    assert.equal(args.customSchemeParam(), undefined);
    assert.equal(customSchemeRedirectUri(args, DEMO_APP_ID), `discord-${DEMO_APP_ID}:/authorize/callback`);
    args.setCustomSchemeParam('mygame');
    assert.equal(args.customSchemeParam(), 'mygame');
    assert.equal(customSchemeRedirectUri(args, DEMO_APP_ID), 'mygame:/authorize/callback');
    args.setCustomSchemeParam(undefined);
    assert.equal(args.customSchemeParam(), undefined);
  });
});

describe('AuthorizationArgs as an object', () => {
  function fullArgs(): AuthorizationArgs {
    const args = new AuthorizationArgs();
    args.setClientId(DEMO_APP_ID);
    args.setScopes('openid identify');
    args.setState('s');
    args.setNonce('n');
    args.setCodeChallenge(new AuthorizationCodeChallenge('c'));
    args.setIntegrationType(IntegrationType.UserInstall);
    args.setCustomSchemeParam('x');
    return args;
  }

  test('clone() copies every property, and the copies change independently', () => {
    const original = fullArgs();
    const copy = original.clone();
    assert.notEqual(copy, original);
    assert.equal(copy.isValid(), true);
    for (const read of ['clientId', 'scopes', 'state', 'nonce', 'integrationType', 'customSchemeParam'] as const) {
      assert.equal(copy[read](), original[read](), read);
    }
    assert.equal(copy.codeChallenge()?.challenge(), 'c');
    copy.setScopes('identify');
    copy.setState('other');
    copy.setCodeChallenge(new AuthorizationCodeChallenge('d'));
    assert.equal(original.scopes(), 'openid identify');
    assert.equal(original.state(), 's');
    assert.equal(original.codeChallenge()?.challenge(), 'c');
  });

  test('a new object is valid; nullobj is a static uninitialized instance that is not', () => {
    assert.equal(new AuthorizationArgs().isValid(), true);
    assert.ok(AuthorizationArgs.nullobj instanceof AuthorizationArgs);
    assert.equal(AuthorizationArgs.nullobj.isValid(), false);
    assert.equal(AuthorizationArgs.nullobj, AuthorizationArgs.nullobj);
    assert.equal(AuthorizationArgs.nullobj.clone(), AuthorizationArgs.nullobj);
  });

  test('nullobj reads the defaults and refuses every setter', () => {
    const nullobj = AuthorizationArgs.nullobj;
    assert.equal(nullobj.clientId(), undefined);
    assert.equal(nullobj.scopes(), '');
    assert.equal(nullobj.state(), undefined);
    assert.throws(() => nullobj.setScopes('openid'), TypeError);
    assert.throws(() => nullobj.setClientId(DEMO_APP_ID), TypeError);
    assert.throws(() => nullobj.setCustomSchemeParam('x'), TypeError);
    assert.equal(nullobj.scopes(), '');
  });
});
