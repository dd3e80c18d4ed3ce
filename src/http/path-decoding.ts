/**
 * Client libraries percent-encode path segments (discord-api-types' `Routes.user('@me')` is
 * `/users/%40me`), and v10 routes them as if decoded. Only escapes of characters that may stand
 * unescaped in a path segment are decoded, so `%2F` never becomes a separator and a malformed
 * escape is left for the router to refuse.
 */
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
/** RFC 3986 `pchar` less `%` and `/`: unreserved, sub-delims, `:` and `@`. */
const SAFE_IN_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;

export function decodeSafePathEscapes(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.includes('%')) return url;
  const decoded = path.replace(ESCAPE, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return SAFE_IN_SEGMENT.test(character) ? character : escape;
  });
  return queryAt === -1 ? decoded : decoded + url.slice(queryAt);
}
