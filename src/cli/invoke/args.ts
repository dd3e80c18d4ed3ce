/** `slashd invoke`'s command line. */
import { ADMIN_TOKEN_OPTIONS, adminToken, serverUrl, type Env } from '../client.js';
import { parseCommandLine, UsageError } from '../usage.js';

/** How long `invoke` waits for the app's answer by default, in seconds (a deferred answer may take long). */
export const DEFAULT_WAIT_SECONDS = 10;

export interface InvokeArgs {
  as: string;
  channel: string;
  guild: string | undefined;
  target: string | undefined;
  /** The command as typed, e.g. `/weather city:Paris days:3`. */
  command: string;
  url: string;
  adminToken: string;
  waitMs: number;
  /** `--attach OPTION=FILE`: files uploaded as the values of ATTACHMENT options, in order. */
  attach: { option: string; path: string }[];
}

function attachments(raw: unknown): { option: string; path: string }[] {
  const list = Array.isArray(raw) ? (raw as string[]) : [];
  return list.map((item) => {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new UsageError(`--attach takes OPTION=FILE, not '${item}'`);
    return { option: item.slice(0, at), path: item.slice(at + 1) };
  });
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function waitMs(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_WAIT_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--wait takes a number of seconds, not '${raw}'`);
  return seconds * 1000;
}

export function parseInvokeArgs(args: string[], env: Env): InvokeArgs {
  const { values, positionals } = parseCommandLine(args, {
    as: { type: 'string' },
    channel: { type: 'string' },
    guild: { type: 'string' },
    target: { type: 'string' },
    url: { type: 'string' },
    ...ADMIN_TOKEN_OPTIONS,
    wait: { type: 'string' },
    attach: { type: 'string', multiple: true },
  });
  // Unquoted, the command arrives as several words: they are one command.
  const command = positionals.join(' ').trim();
  if (command === '') throw new UsageError("no command: expected something like '/hello name:world'");
  const as = required(values, 'as');
  const channel = required(values, 'channel');
  return {
    as,
    channel,
    guild: values.guild as string | undefined,
    target: values.target as string | undefined,
    command,
    url: serverUrl(values.url as string | undefined, env),
    adminToken: adminToken(values, env),
    waitMs: waitMs(values.wait as string | undefined),
    attach: attachments((values as Record<string, unknown>).attach),
  };
}
