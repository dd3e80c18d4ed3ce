// The sample web app: sign in with the client library (code + PKCE in a popup), exchange the code
// for a token, and read /users/@me with it. serve.js hands it its settings in /config.json.
import { AuthorizationArgs, browserPopup, browserRedirect, Client } from 'slashd/sdk';

const show = (id, text) => (document.getElementById(id).textContent = text);

const config = await (await fetch('/config.json')).json();
const client = new Client({
  baseUrl: config.slashdUrl,
  apiBaseUrl: config.apiBaseUrl,
  // The popup comes back to a page of its own, registered as the application's redirect URI.
  transport: browserPopup({ redirectUri: new URL('/callback.html', location.href).href }),
});
client.setApplicationId(config.applicationId);

// Made before the click: a popup must open while the click still counts as the user's gesture.
let verifier = await client.createAuthorizationCodeVerifier();

function readMe(accessToken) {
  return fetch(`${config.apiBaseUrl}/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) =>
    r.json(),
  );
}

/** What both ways of signing in do with the answer: exchange the code, then read who signed in. */
function onAuthorized(result, code, redirectUri, codeVerifier) {
  show('state', result.state() ?? '–');
  if (!result.successful()) {
    show('error', result.error());
    show('status', `Not signed in: ${result.errorDescription()}`);
    return;
  }
  client.getToken(
    config.applicationId,
    code,
    codeVerifier,
    redirectUri,
    (tokenResult, accessToken, _r, _t, _e, scopes) => {
      if (!tokenResult.successful()) {
        show('error', tokenResult.error());
        show('status', `No token: ${tokenResult.errorDescription()}`);
        return;
      }
      show('scopes', scopes);
      readMe(accessToken).then(
        (me) => {
          show('user', `${me.username} (${me.id})`);
          show('error', '–');
          show('status', 'Signed in');
        },
        (error) => show('status', `Could not read the user: ${error}`),
      );
    },
  );
}

function argsFor(codeVerifier) {
  const args = new AuthorizationArgs();
  args.setScopes(config.scopes ?? 'identify openid');
  args.setCodeChallenge(codeVerifier.challenge());
  return args;
}

/** In a popup: this page stays, and the callback of authorize gets the answer. */
function signIn() {
  show('status', 'Signing in…');
  const used = verifier;
  client.authorize(argsFor(used), (result, code, redirectUri) => {
    void client.createAuthorizationCodeVerifier().then((fresh) => (verifier = fresh));
    onAuthorized(result, code, redirectUri, used.verifier());
  });
}

/**
 * In this tab: the page leaves for the authorization page and the answer comes back to this page,
 * read below by handleAuthorizeRedirect. The verifier waits in this tab's sessionStorage meanwhile.
 */
const sameTab = new Client({
  baseUrl: config.slashdUrl,
  apiBaseUrl: config.apiBaseUrl,
  transport: browserRedirect({ redirectUri: new URL('/', location.href).href }),
});
sameTab.setApplicationId(config.applicationId);
const VERIFIER_KEY = 'sdk-sample.verifier';

function signInHere() {
  show('status', 'Signing in…');
  sessionStorage.setItem(VERIFIER_KEY, verifier.verifier());
  sameTab.authorize(argsFor(verifier), (result) => show('status', `Not signed in: ${result.errorDescription()}`));
}

const answered = sameTab.handleAuthorizeRedirect((result, code, redirectUri) => {
  const codeVerifier = sessionStorage.getItem(VERIFIER_KEY) ?? '';
  sessionStorage.removeItem(VERIFIER_KEY);
  onAuthorized(result, code, redirectUri, codeVerifier);
});

for (const [id, action] of [
  ['sign-in', signIn],
  ['sign-in-here', signInHere],
]) {
  const button = document.getElementById(id);
  button.addEventListener('click', action);
  button.disabled = false;
}
show('status', answered ? 'Signing in…' : 'Ready');
