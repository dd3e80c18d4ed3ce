/**
 * What the console may turn into a link: an absolute http or https URL, nothing else. An app's
 * message is untrusted; a `javascript:` or `data:` URL in an embed or a link button is shown as
 * text, whatever the server let through (it refuses them too) and whatever the CSP would stop.
 */
const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/** The URL to put in `href`, or undefined when `value` is not an http(s) URL. */
export function webHref(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return WEB_PROTOCOLS.has(new URL(value).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}
