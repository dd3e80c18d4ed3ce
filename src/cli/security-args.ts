/** `--allowed-hosts` and `--auth-throttle`: which Host names are answered, and how failed credentials are throttled (docs/security.md). */
import { DEFAULT_FAILED_CREDENTIALS } from '../core/rate-limits/failures.js';
import type { WindowLimit } from '../core/rate-limits/presets.js';
import { isAllowedHostEntry } from '../http/allowed-hosts.js';
import { UsageError } from './usage.js';

/** `--allowed-hosts`: comma-separated host names, `.domain` (it and its subdomains), or `*`. */
export function parseAllowedHosts(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const entries = raw.split(',').map((entry) => entry.trim().toLowerCase());
  const wrong = entries.find((entry) => !isAllowedHostEntry(entry));
  if (wrong !== undefined) {
    throw new UsageError(`--allowed-hosts is a comma-separated list of host names, .domains or *, not '${wrong}'`);
  }
  return entries;
}

/** The largest `--auth-throttle` window (seconds): a day. */
const MAX_AUTH_THROTTLE_WINDOW_S = 86_400;

/** `--auth-throttle FAILURES/SECONDS` (e.g. `20/60`, the default) or `off`. */
export function parseAuthThrottle(raw: string | undefined): WindowLimit | null {
  if (raw === undefined) return DEFAULT_FAILED_CREDENTIALS;
  if (raw === 'off') return null;
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(raw);
  const limit = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || limit < 1 || seconds < 1 || seconds > MAX_AUTH_THROTTLE_WINDOW_S) {
    throw new UsageError(
      `--auth-throttle is FAILURES/SECONDS (1 or more failures, 1 to ${MAX_AUTH_THROTTLE_WINDOW_S} s) or off, not '${raw}'`,
    );
  }
  return { limit, windowMs: seconds * 1000 };
}
