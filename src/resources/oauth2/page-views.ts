/**
 * The HTML of the authorization pages (sign-in, consent, outcome, error): plain server-rendered
 * pages with one stylesheet and no script, every value escaped.
 */
import type { ConsentGuild, ConsentView } from './service.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · slashd</title><link rel="stylesheet" href="/oauth2/consent.css"></head>
<body><main class="card">
<p class="brand">slashd</p>
${body}
</main></body></html>
`;
}

export function errorPage(message: string): string {
  return page('Authorization failed', `<h1>Authorization failed</h1><p role="alert">${escapeHtml(message)}</p>`);
}

export function donePage(message: string): string {
  return page('Done', `<h1>Done</h1><p role="status">${escapeHtml(message)}</p><p>You may close this window.</p>`);
}

export function signInPage(
  query: string,
  signInToken: string,
  problem: string | null,
  sandboxUsers: readonly { username: string; token: string }[] = [],
): string {
  const bound = `<input type="hidden" name="query" value="${escapeHtml(query)}">
<input type="hidden" name="sign_in_token" value="${escapeHtml(signInToken)}">`;
  const picker = sandboxUsers.map(
    (u) => `<form method="post" action="/oauth2/authorize/sign-in" class="pick">
${bound}<input type="hidden" name="token" value="${escapeHtml(u.token)}">
<button type="submit">Continue as ${escapeHtml(u.username)}</button></form>`,
  );
  return page(
    'Sign in',
    `<h1>Sign in to continue</h1>
<p>An application asks for access to your account. Sign in with your user token first.</p>
${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/oauth2/authorize/sign-in">
${bound}
<label for="token">User token</label>
<input id="token" name="token" type="password" autocomplete="off" required>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
${picker.length > 0 ? `<h2>Sandbox: pick a user</h2>${picker.join('\n')}` : ''}`,
  );
}

/** The requested bot permissions the user cannot grant, per guild of the picker: the bot will not get them. */
function withheldNote(guilds: readonly ConsentGuild[]): string {
  const lines = guilds
    .filter((g) => g.withheld.length > 0)
    .map((g) => {
      const where = guilds.length > 1 ? `In <strong>${escapeHtml(g.name)}</strong>: ` : '';
      return `<li>${where}${g.withheld.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}</li>`;
    });
  if (lines.length === 0) return '';
  return `<div class="withheld" role="note"><p>You do not hold these permissions, so the bot will not get them:</p>
<ul>${lines.join('')}</ul></div>`;
}

export function consentPage(view: ConsentView, userName: string, query: string, formToken: string): string {
  const scopes = view.scopes.map(
    (s) => `<li><span>${escapeHtml(s.words)}</span> <code>${escapeHtml(s.scope)}</code></li>`,
  );
  const guildPicker =
    view.guilds === null
      ? ''
      : view.guilds.length === 0
        ? '<p class="problem" role="alert">You manage no server this application can be added to.</p>'
        : `<label for="guild_id">Add to server</label>
<select id="guild_id" name="guild_id">${view.guilds
            .map((g) => `<option value="${escapeHtml(g.id)}">${escapeHtml(g.name)}</option>`)
            .join('')}</select>`;
  const withheld = withheldNote(view.guilds ?? []);
  const where = view.userInstall
    ? '<p>The application will be added to your account: its commands follow you into DMs.</p>'
    : '';
  return page(
    `Authorize ${view.appName}`,
    `<h1><strong>${escapeHtml(view.appName)}</strong> wants to access your account</h1>
<p class="who">Signed in as <strong>${escapeHtml(userName)}</strong></p>
<p>This will allow the application to:</p>
<ul class="scopes">${scopes.join('')}</ul>
${where}
${withheld}
<form method="post" action="/oauth2/authorize">
<input type="hidden" name="query" value="${escapeHtml(query)}">
<input type="hidden" name="form_token" value="${escapeHtml(formToken)}">
${guildPicker}
<div class="actions">
<button type="submit" name="decision" value="cancel">Cancel</button>
<button type="submit" name="decision" value="authorize" class="primary"${view.guilds?.length === 0 ? ' disabled' : ''}>Authorize</button>
</div>
</form>`,
  );
}

/** The pages' stylesheet (the console's colours: dark surface, blurple accent). */
export const CONSENT_CSS = `:root{color-scheme:dark;--bg:#1e1f22;--card:#2b2d31;--text:#f2f3f5;--muted:#b5bac1;--accent:#5865f2;--accent-hover:#4752c4;--danger:#f23f43}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.card{background:var(--card);border-radius:8px;padding:2rem;width:min(28rem,94vw);box-shadow:0 8px 24px rgba(0,0,0,.4)}
.brand{margin:0 0 1rem;color:var(--muted);font-weight:600;letter-spacing:.04em;text-transform:uppercase;font-size:.8rem}
h1{font-size:1.25rem;margin:0 0 1rem}h2{font-size:1rem;margin:1.5rem 0 .5rem;color:var(--muted)}.pick button{width:100%;text-align:left;background:#1e1f22;margin:.2rem 0}.who{color:var(--muted)}code{color:var(--muted);font-size:.8rem}
.scopes{padding-left:1.2rem}.scopes li{margin:.3rem 0}.problem{color:var(--danger)}
label{display:block;margin:1rem 0 .3rem;color:var(--muted);font-size:.9rem}
input,select{width:100%;padding:.55rem;border-radius:4px;border:1px solid #1e1f22;background:#1e1f22;color:var(--text);font:inherit}
.actions{display:flex;justify-content:flex-end;gap:.75rem;margin-top:1.5rem}
button{padding:.55rem 1.2rem;border:0;border-radius:4px;background:transparent;color:var(--text);font:inherit;cursor:pointer}
button:hover{text-decoration:underline}button.primary{background:var(--accent);color:#fff}button.primary:hover{background:var(--accent-hover);text-decoration:none}
button:disabled{opacity:.5;cursor:not-allowed}button:focus-visible,input:focus-visible,select:focus-visible{outline:2px solid #00a8fc;outline-offset:2px}
`;
