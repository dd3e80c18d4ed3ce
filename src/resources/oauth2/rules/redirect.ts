/** Redirect URIs: a request's `redirect_uri` must be one the application registered, exactly. */

/** Longest redirect URI accepted (characters), registered or requested. */
export const MAX_REDIRECT_URI_LENGTH = 2000;

/**
 * The registered URI the request names, compared as exact strings (RFC 6749 §3.1.2.3, OAuth 2.1):
 * no prefix, no wildcard, no normalisation, so no open redirect hides in a path or a query.
 * Omitted, it is the only registered one when there is exactly one; otherwise null.
 */
export function matchRedirectUri(registered: readonly string[], requested: string | undefined): string | null {
  if (requested === undefined || requested === '') return registered.length === 1 ? (registered[0] ?? null) : null;
  if (requested.length > MAX_REDIRECT_URI_LENGTH) return null;
  return registered.includes(requested) ? requested : null;
}

/** `uri` with the query parameters added (kept in their order), as the browser is sent back. */
export function withQuery(uri: string, params: Readonly<Record<string, string | undefined>>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value);
  return url.toString();
}
