/**
 * Going through slashd's consent page without a browser: load the sign-in form, sign in with a
 * user token, read the consent page's form token, and post the user's decision. Returns where the
 * browser would be sent.
 */
export interface ConsentOptions {
  /** The user's world token. */
  userToken: string;
  decision?: 'authorize' | 'cancel';
  /** The guild chosen in the picker (a guild install). */
  guildId?: string;
}

export interface ConsentResult {
  /** The 303's Location (back to the client), or null when the page answered itself. */
  location: string | null;
  status: number;
  /** The consent page as served. */
  page: string;
}

/** The sign-in form a browser gets for this authorize query: its cookie (`name=value`) and the form's token. */
export async function signInForm(base: string, query: string): Promise<{ cookie: string; signInToken: string }> {
  const page = await fetch(`${base}/oauth2/authorize?${query}`, { redirect: 'manual' });
  const html = await page.text();
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  const signInToken = /name="sign_in_token" value="([^"]+)"/.exec(html)?.[1];
  if (!cookie || !signInToken) throw new Error(`no sign-in form (status ${page.status}): ${html.slice(0, 300)}`);
  return { cookie, signInToken };
}

/** The consent page's session cookie for this user: the sign-in form of `query` loaded, filled in and posted. */
export async function consentSession(base: string, userToken: string, query: string): Promise<string> {
  const form = await signInForm(base, query);
  const signIn = await fetch(`${base}/oauth2/authorize/sign-in`, {
    method: 'POST',
    headers: { cookie: form.cookie },
    body: new URLSearchParams({ token: userToken, query, sign_in_token: form.signInToken }),
    redirect: 'manual',
  });
  const cookie = signIn.headers.get('set-cookie');
  if (signIn.status !== 303 || !cookie) throw new Error(`sign-in failed: ${signIn.status}`);
  return cookie.split(';')[0]!;
}

export async function consent(base: string, authorizeUrl: string, options: ConsentOptions): Promise<ConsentResult> {
  const query = new URL(authorizeUrl).search.slice(1);
  const cookie = await consentSession(base, options.userToken, query);
  const pageResponse = await fetch(authorizeUrl, { headers: { cookie }, redirect: 'manual' });
  const page = await pageResponse.text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1];
  if (!formToken) throw new Error(`no consent form (status ${pageResponse.status}): ${page.slice(0, 300)}`);
  const form = new URLSearchParams({ query, form_token: formToken, decision: options.decision ?? 'authorize' });
  if (options.guildId) form.set('guild_id', options.guildId);
  const answer = await fetch(`${base}/oauth2/authorize`, {
    method: 'POST',
    headers: { cookie },
    body: form,
    redirect: 'manual',
  });
  return { location: answer.headers.get('location'), status: answer.status, page: await answer.text() };
}
