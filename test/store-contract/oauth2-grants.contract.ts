/**
 * The OAuth2 grant rows (`Store.oauth2Grants`): codes (single use, atomically), refresh tokens (rotation,
 * a spent one told apart until it expires),
 * grants revoked as a whole, user authorizations, the deployment's signing key; all keyed by
 * application id, and codes and tokens kept as digests only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  AuthorizationGrant,
  OAuth2GrantStore,
  RefreshGrant,
  SigningKeyRecord,
  WorldStore,
} from '../../src/store/store.js';
import { freshDatabasePerTest, START_MS, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B, BOB, smallWorld } from './fixtures.js';

function grant(extra: Partial<AuthorizationGrant> = {}): AuthorizationGrant {
  return {
    grant_id: 'grant-1',
    application_id: APP_A,
    user_id: ALICE,
    scopes: ['identify', 'openid'],
    redirect_uri: 'https://app.example/cb',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    nonce: 'n-1',
    expires_at: START_MS + 600_000,
    ...extra,
  };
}

function refresh(extra: Partial<RefreshGrant> = {}): RefreshGrant {
  return {
    grant_id: 'grant-1',
    application_id: APP_A,
    user_id: ALICE,
    scopes: ['identify'],
    expires_at: START_MS + 1e9,
    ...extra,
  };
}

function signingKey(kid: string): SigningKeyRecord {
  return { kid, private_jwk: `{"kid":"${kid}","d":"secret"}`, public_jwk: `{"kid":"${kid}"}`, created_at: START_MS };
}

export function describeOAuth2GrantsContract(name: string, make: MakeStores): void {
  describe(`${name}: OAuth2 grants`, () => {
    const t = freshDatabasePerTest(make);
    const world = (): WorldStore => t.stores.world;
    const grantStore = (): OAuth2GrantStore => t.stores.oauth2Grants;

    it('a code redeems once; the second use is told apart, and another app never redeems it', async () => {
      await world().replaceWorld(smallWorld());
      await grantStore().putAuthorizationCode('code-1', grant());
      assert.equal(await grantStore().redeemAuthorizationCode(APP_B, 'code-1'), null);
      assert.deepEqual(await grantStore().redeemAuthorizationCode(APP_A, 'code-1'), { grant: grant(), firstUse: true });
      assert.deepEqual(await grantStore().redeemAuthorizationCode(APP_A, 'code-1'), {
        grant: grant(),
        firstUse: false,
      });
      assert.equal(await grantStore().redeemAuthorizationCode(APP_A, 'code-2'), null);
    });

    it('two stores redeeming one code at once: exactly one first use', async () => {
      await world().replaceWorld(smallWorld());
      await grantStore().putAuthorizationCode('code-1', grant());
      const other = await t.db.connect();
      const results = await Promise.all([
        grantStore().redeemAuthorizationCode(APP_A, 'code-1'),
        other.oauth2Grants.redeemAuthorizationCode(APP_A, 'code-1'),
      ]);
      assert.deepEqual(results.map((r) => r?.firstUse).sort(), [false, true]);
      await other.close();
    });

    it('a refresh token redeems once; a replay is told apart; revoking its grant drops its access and refresh tokens only', async () => {
      await world().replaceWorld(smallWorld());
      await grantStore().putRefreshToken('refresh-1', refresh());
      assert.equal(await grantStore().redeemRefreshToken(APP_B, 'refresh-1'), null, 'another app');
      assert.deepEqual(await grantStore().redeemRefreshToken(APP_A, 'refresh-1'), { grant: refresh(), firstUse: true });
      assert.deepEqual(
        await grantStore().redeemRefreshToken(APP_A, 'refresh-1'),
        { grant: refresh(), firstUse: false },
        'rotation: it works once, and a replay is recognised',
      );
      assert.equal(await grantStore().redeemRefreshToken(APP_A, 'refresh-unknown'), null);

      await grantStore().putRefreshToken('refresh-2', refresh());
      await grantStore().putRefreshToken('refresh-other', refresh({ grant_id: 'grant-2' }));
      const issued = { user_id: ALICE, application_id: APP_A, scopes: ['identify'], expires_at: START_MS + 1e9 };
      await world().putOAuth2Token({ ...issued, access_token: 'access-1', grant_id: 'grant-1' });
      await world().putOAuth2Token({ ...issued, access_token: 'access-2', grant_id: 'grant-2' });
      await grantStore().revokeGrant(APP_B, 'grant-1');
      assert.ok(await world().findOAuth2Token('access-1'), 'another app cannot revoke the grant');
      await grantStore().revokeGrant(APP_A, 'grant-1');
      assert.equal(await world().findOAuth2Token('access-1'), null);
      assert.equal(await grantStore().redeemRefreshToken(APP_A, 'refresh-2'), null);
      assert.equal(
        await grantStore().redeemRefreshToken(APP_A, 'refresh-1'),
        null,
        'the spent token goes with its grant',
      );
      assert.ok(await world().findOAuth2Token('access-2'));
      assert.equal((await grantStore().redeemRefreshToken(APP_A, 'refresh-other'))?.firstUse, true);
    });

    it('two stores redeeming one refresh token at once: exactly one first use', async () => {
      await world().replaceWorld(smallWorld());
      await grantStore().putRefreshToken('refresh-1', refresh());
      const other = await t.db.connect();
      const results = await Promise.all([
        grantStore().redeemRefreshToken(APP_A, 'refresh-1'),
        other.oauth2Grants.redeemRefreshToken(APP_A, 'refresh-1'),
      ]);
      assert.deepEqual(results.map((r) => r?.firstUse).sort(), [false, true]);
      await other.close();
    });

    it('expired refresh tokens, spent or not, are swept when the app gets a new one; other apps keep theirs', async () => {
      await world().replaceWorld(smallWorld());
      await grantStore().putRefreshToken('expired-spent', refresh({ expires_at: START_MS + 10 }));
      await grantStore().putRefreshToken('expired-live', refresh({ expires_at: START_MS + 10 }));
      await grantStore().putRefreshToken('other-app', refresh({ application_id: APP_B, expires_at: START_MS + 10 }));
      await grantStore().redeemRefreshToken(APP_A, 'expired-spent');
      t.now += 20;
      await grantStore().putRefreshToken('fresh', refresh());
      assert.equal(await grantStore().redeemRefreshToken(APP_A, 'expired-spent'), null);
      assert.equal(await grantStore().redeemRefreshToken(APP_A, 'expired-live'), null);
      assert.equal((await grantStore().redeemRefreshToken(APP_B, 'other-app'))?.firstUse, true);
      assert.equal((await grantStore().redeemRefreshToken(APP_A, 'fresh'))?.firstUse, true);
    });

    it('an issued token is stored as its digest: found by the token, never listed with it', async () => {
      await world().replaceWorld(smallWorld());
      await world().putOAuth2Token({
        access_token: 'secret-access',
        user_id: ALICE,
        application_id: APP_A,
        scopes: ['identify'],
        expires_at: START_MS + 1000,
        grant_id: 'g',
      });
      const found = await world().findOAuth2Token('secret-access');
      assert.equal(found?.access_token, 'secret-access');
      assert.equal(found?.grant_id, 'g');
      const listed = JSON.stringify(await world().listOAuth2Tokens());
      assert.ok(!listed.includes('secret-access'), 'the token text is not stored');
      assert.equal(await world().findOAuth2Token('secret-accesz'), null);
    });

    it('user authorizations are kept per app and user, and go with the app', async () => {
      await world().replaceWorld(smallWorld());
      const authorization = {
        application_id: APP_A,
        user_id: ALICE,
        scopes: ['applications.commands'],
        user_install: true,
      };
      await grantStore().putUserAuthorization(authorization);
      assert.deepEqual(await grantStore().getUserAuthorization(APP_A, ALICE), authorization);
      assert.equal(await grantStore().getUserAuthorization(APP_B, ALICE), null);
      assert.equal(await grantStore().getUserAuthorization(APP_A, BOB), null);
      await grantStore().putUserAuthorization({ ...authorization, scopes: ['identify'] });
      assert.deepEqual((await grantStore().getUserAuthorization(APP_A, ALICE))?.scopes, ['identify']);
      await grantStore().putUserAuthorization({ ...authorization, application_id: APP_B });
      await world().deleteApplication(APP_A);
      assert.equal(await grantStore().getUserAuthorization(APP_A, ALICE), null);
      assert.equal(await grantStore().deleteUserAuthorization(APP_B, ALICE), true);
      assert.equal(await grantStore().deleteUserAuthorization(APP_B, ALICE), false);
    });

    it("a user's installs are the apps authorized with user_install, the user's own only", async () => {
      await world().replaceWorld(smallWorld());
      assert.deepEqual(await grantStore().listUserInstalls(ALICE), []);
      const base = { user_id: ALICE, scopes: ['applications.commands'] };
      await grantStore().putUserAuthorization({ ...base, application_id: APP_B, user_install: true });
      await grantStore().putUserAuthorization({ ...base, application_id: APP_A, user_install: true });
      await grantStore().putUserAuthorization({ ...base, user_id: BOB, application_id: APP_A, user_install: false });
      assert.deepEqual(await grantStore().listUserInstalls(ALICE), [APP_A, APP_B].sort());
      assert.deepEqual(await grantStore().listUserInstalls(BOB), [], 'an authorization without the install is none');
      await grantStore().deleteUserAuthorization(APP_B, ALICE);
      assert.deepEqual(await grantStore().listUserInstalls(ALICE), [APP_A]);
    });

    it('one signing key per deployment: the first stored wins, every store and a reopen read it', async () => {
      const first = await grantStore().signingKey(signingKey('kid-1'));
      assert.equal(first.kid, 'kid-1');
      const other = await t.db.connect();
      assert.deepEqual(await other.oauth2Grants.signingKey(signingKey('kid-2')), first);
      await other.close();
      assert.deepEqual(await grantStore().signingKey(signingKey('kid-3')), first);
    });
  });
}
