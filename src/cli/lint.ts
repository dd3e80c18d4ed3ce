/**
 * `slashd lint FILE [--guild] [--world FILE --app ID]`: checks a bulk overwrite body offline with
 * the same validation the server runs. Exit status: 0 valid, 1 invalid, 2 usage or read error.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { IssuePath } from '../core/errors.js';
import { readJsonText } from '../core/json.js';
import { findTypeCountOverflow, validateBulkOverwrite, type AppTraits } from '../core/validation/index.js';
import { commandTypeName, isCommandType } from '../core/validation/values.js';

export interface LintOutput {
  log(line: string): void;
  error(line: string): void;
}

export const LINT_USAGE = 'usage: slashd lint FILE [--guild] [--world FILE --app ID]';

/** Traits of an app that is guild- and user-installable, not embedded, not discoverable. */
export const DEFAULT_LINT_TRAITS: AppTraits = { flags: 0, integration_types: [0, 1], discoverable: false };

/** The JSON code of "maximum number of application commands reached" (facts, section 3). */
const MAX_APPLICATION_COMMANDS = 30032;

const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;

interface LintArgs {
  file: string;
  guild: boolean;
  world: string | undefined;
  app: string | undefined;
}

/** Exit status 2: bad arguments (the usage follows the message) or a file that cannot be read. */
class UsageError extends Error {
  constructor(message: string, readonly showUsage = true) {
    super(message);
  }
}

function parseLintArgs(args: string[]): LintArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { guild: { type: 'boolean' }, world: { type: 'string' }, app: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1 || positionals[0] === undefined) throw new UsageError('expected exactly one FILE');
  if ((values.world === undefined) !== (values.app === undefined)) throw new UsageError('--world and --app go together');
  return { file: positionals[0], guild: values.guild === true, world: values.world, app: values.app };
}

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${error instanceof Error ? error.message : String(error)}`, false);
  }
  const read = readJsonText(text);
  if (read.ok) return read.value;
  if (read.reason === 'syntax') throw new UsageError(`${what} ${path} is not JSON: ${read.message}`, false);
  const keys = read.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  throw new UsageError(`${what} ${path} holds reserved keys: ${keys}`, false);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only the three traits are read from the world file (shared/contracts/world.md, applications[]). */
function traitsFromWorld(world: unknown, appId: string, worldPath: string): AppTraits {
  const applications = isObject(world) && Array.isArray(world.applications) ? world.applications : [];
  const app = applications.find((candidate): candidate is Record<string, unknown> => isObject(candidate) && candidate.id === appId);
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

async function lint(args: LintArgs, out: LintOutput): Promise<number> {
  const body = await readJson(args.file, 'file');
  const app = args.world === undefined || args.app === undefined
    ? DEFAULT_LINT_TRAITS
    : traitsFromWorld(await readJson(args.world, 'world file'), args.app, args.world);
  const scope = args.guild ? 'guild' : 'global';
  const result = validateBulkOverwrite(body, { scope, app });
  if (!result.ok) {
    for (const { path, code, message } of result.issues) out.error(`${formatIssuePath(path)}: ${code} ${message}`);
    return EXIT_INVALID;
  }
  const overflow = findTypeCountOverflow(result.value.map((item) => item.definition), scope);
  if (overflow) {
    const typeName = isCommandType(overflow.type) ? commandTypeName(overflow.type) : String(overflow.type);
    out.error(`(root): ${MAX_APPLICATION_COMMANDS} Maximum number of application commands reached (${overflow.limit} ${typeName} commands)`);
    return EXIT_INVALID;
  }
  out.log(`ok: ${result.value.length} commands`);
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
