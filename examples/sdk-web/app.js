// The sample web app: sign in with the client library (code + PKCE in a popup), exchange the code
// for a token, and read /users/@me with it. serve.js hands it its settings in /config.json.
import { AuthorizationArgs, browserPopup, Client } from 'slashd/sdk';

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

function signIn() {
  show('status', 'Signing in…');
  const args = new AuthorizationArgs();
  args.setScopes(config.scopes ?? 'identify openid');
  args.setCodeChallenge(verifier.challenge());
  const used = verifier;
  client.authorize(args, (result, code, redirectUri) => {
    void client.createAuthorizationCodeVerifier().then((fresh) => (verifier = fresh));
    show('state', result.state() ?? '–');
    if (!result.successful()) {
      show('error', result.error());
      show('status', `Not signed in: ${result.errorDescription()}`);
      return;
    }
    client.getToken(
      config.applicationId,
      code,
      used.verifier(),
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
  });
}

const button = document.getElementById('sign-in');
button.addEventListener('click', signIn);
button.disabled = false;
show('status', 'Ready');
