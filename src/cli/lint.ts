/**
 * `slashd lint FILE [--guild] [--world FILE --app ID]`: checks a bulk overwrite body offline with
 * the same validation the server runs. Exit status: 0 valid, 1 invalid, 2 usage or read error.
 */
import { readFile } from 'node:fs/promises';
import type { Issue, IssuePath } from '../core/io/issue.js';
import { apiError } from '../core/io/errors.js';
import { readJsonText } from '../core/io/json-text.js';
import { isRecord } from '../core/io/read.js';
import { findTypeCountOverflow, validateBulkOverwrite, type AppTraits } from '../core/validation/index.js';
import { commandTypeName, isCommandType } from '../core/validation/values.js';
import {
  EXIT_FAILED as EXIT_INVALID,
  EXIT_OK,
  EXIT_USAGE,
  parseCommandLine,
  plural,
  UsageError,
  type Output,
} from './usage.js';

export type LintOutput = Output;

export const LINT_USAGE = 'usage: slashd lint FILE [--guild] [--world FILE --app ID]';

/** Traits of an app that is guild- and user-installable, not embedded, not discoverable. */
export const DEFAULT_LINT_TRAITS: AppTraits = { flags: 0, integration_types: [0, 1], discoverable: false };

interface LintArgs {
  file: string;
  guild: boolean;
  world: string | undefined;
  app: string | undefined;
}

function parseLintArgs(args: string[]): LintArgs {
  const { positionals, values } = parseCommandLine(args, {
    guild: { type: 'boolean' },
    world: { type: 'string' },
    app: { type: 'string' },
  });
  const world = values.world as string | undefined;
  const app = values.app as string | undefined;
  if (positionals.length !== 1 || positionals[0] === undefined) throw new UsageError('expected exactly one FILE');
  if ((world === undefined) !== (app === undefined)) throw new UsageError('--world and --app go together');
  return { file: positionals[0], guild: values.guild === true, world, app };
}

/** A JSON file, or a usage error saying why it cannot be read. */
export async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${what} ${path}: ${error instanceof Error ? error.message : String(error)}`,
      false,
    );
  }
  let read;
  try {
    read = readJsonText(text);
  } catch (error) {
    throw new UsageError(`${what} ${path} is not JSON: ${(error as Error).message}`, false);
  }
  if (read.ok) return read.value;
  const keys = read.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  throw new UsageError(`${what} ${path} holds reserved keys: ${keys}`, false);
}

/** Only the three traits are read from the world file (docs/world.md, applications[]). */
function traitsFromWorld(world: unknown, appId: string, worldPath: string): AppTraits {
  const applications = isRecord(world) && Array.isArray(world.applications) ? world.applications : [];
  const app = applications.find(
    (candidate): candidate is Record<string, unknown> => isRecord(candidate) && candidate.id === appId,
  );
  if (!app) throw new UsageError(`no application with id ${appId} in ${worldPath}`, false);
  // Defaults as the world loader applies them: GUILD_INSTALL only, no flags, not discoverable.
  const integrationTypes = Array.isArray(app.integration_types)
    ? app.integration_types.filter((type): type is number => typeof type === 'number')
    : [0];
  return {
    flags: typeof app.flags === 'number' ? app.flags : 0,
    integration_types: integrationTypes,
    discoverable: app.discoverable === true,
  };
}

export function formatIssuePath(path: IssuePath): string {
  return path.length === 0 ? '(root)' : path.join('.');
}

/** Longest shown offending value, in characters; longer ones are cut with an ellipsis. */
export const SHOWN_VALUE_MAX = 60;

/** Paths in document order: list indexes as numbers, keys as text. */
export function compareIssuePaths(a: IssuePath, b: IssuePath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** The value at `path` in `body`, or undefined when the path leads nowhere. */
function valueAt(body: unknown, path: IssuePath): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_VALUE_MAX ? `${text.slice(0, SHOWN_VALUE_MAX - 1)}…` : text;
}

/** The command an issue sits in: its index in the list and, when it has one, its name. */
function commandOf(body: unknown, path: IssuePath): { index: number; label: string } | null {
  const index = path[0];
  if (typeof index !== 'number' || !Array.isArray(body)) return null;
  const name = valueAt(body, [index, 'name']);
  return { index, label: typeof name === 'string' ? `command "${name}"` : `command ${index}` };
}

/** One line per issue: `path = value (command "name"): CODE message`. */
export function formatIssue(body: unknown, issue: Issue): string {
  const value = issue.path.length === 0 ? undefined : valueAt(body, issue.path);
  const command = commandOf(body, issue.path);
  const where = [
    formatIssuePath(issue.path),
    value === undefined ? '' : ` = ${shownValue(value)}`,
    command ? ` (${command.label})` : '',
  ].join('');
  return `${where}: ${issue.code} ${issue.message}`;
}

/** The closing line: "3 errors in 2 commands" (issues at the root belong to no command). */
export function issueCount(body: unknown, issues: readonly Issue[]): string {
  const commands = new Set(
    issues.map((issue) => commandOf(body, issue.path)?.index).filter((index) => index !== undefined),
  );
  const errors = plural(issues.length, 'error');
  return commands.size === 0 ? errors : `${errors} in ${plural(commands.size, 'command')}`;
}

async function lint(args: LintArgs, out: LintOutput): Promise<number> {
  const body = await readJson(args.file, 'file');
  const app =
    args.world === undefined || args.app === undefined
      ? DEFAULT_LINT_TRAITS
      : traitsFromWorld(await readJson(args.world, 'world file'), args.app, args.world);
  const scope = args.guild ? 'guild' : 'global';
  const result = validateBulkOverwrite(body, { scope, app });
  if (!result.ok) {
    const sorted = [...result.issues].sort((a, b) => compareIssuePaths(a.path, b.path));
    for (const issue of sorted) out.error(formatIssue(body, issue));
    out.error(issueCount(body, sorted));
    return EXIT_INVALID;
  }
  const overflow = findTypeCountOverflow(
    result.value.map((item) => item.definition),
    scope,
  );
  if (overflow) {
    const typeName = isCommandType(overflow.type) ? commandTypeName(overflow.type) : String(overflow.type);
    // The server's 30032, with the type named: a body can overflow one type while the rest fit.
    const error = apiError('MaxApplicationCommands', { params: { limit: `${overflow.limit} ${typeName} commands` } });
    out.error(`(root): ${error.code} ${error.message}`);
    out.error('1 error');
    return EXIT_INVALID;
  }
  out.log(`ok: ${plural(result.value.length, 'command')}`);
  return EXIT_OK;
}

export async function runLint(args: string[], out: LintOutput): Promise<number> {
  try {
    return await lint(parseLintArgs(args), out);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    out.error(`lint: ${error.message}`);
    if (error.showUsage) out.error(LINT_USAGE);
    return EXIT_USAGE;
  }
}
