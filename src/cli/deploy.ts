/**
 * `slashd diff FILE --app ID [--guild ID]` and `slashd deploy FILE ...`: what a bulk overwrite
 * with FILE would do to the app's commands, and applying it only when something would change.
 * Against slashd the server plans it (`PUT ...?dry_run=true`: its daily create counter included);
 * against any other v10 server (`--server v10`, which has no dry run) the list is read with the
 * bot token and the same pure diff (src/core/commands/diff.ts) runs here.
 * Exit status: diff 0 no change, 1 changes; deploy 0 deployed or nothing to do, 1 refused; 2 usage.
 */
import type { CommandScope, StoredCommand } from '../core/commands/model.js';
import { diffBulkOverwrite, type BulkOverwriteDiff } from '../resources/commands/rules/diff.js';
import { ApiError } from '../core/io/errors.js';
import { isRecord } from '../core/io/read.js';
import { isSnowflake } from '../core/snowflake.js';
import {
  readServerCommandList,
  validateBulkOverwrite,
  type AppTraits,
  type ValidationContext,
} from '../core/validation/index.js';
import { requestJson, serverUrl, type Env, type JsonAnswer } from './client.js';
import { formatIssue, readJson } from './lint.js';
import { EXIT_FAILED, EXIT_OK, parseCommandLine, plural, reportUsageError, UsageError, type Output } from './usage.js';

export const DEPLOY_USAGE = `usage: slashd diff FILE --app ID [--guild ID] [--url URL] [--token T] [--server slashd|v10] [--json]
       slashd deploy FILE --app ID [--guild ID] [--url URL] [--token T] [--server slashd|v10]
  FILE is a bulk overwrite body (a JSON list of commands); the bot token comes from --token or
  SLASHD_BOT_TOKEN; --url is the server's origin (its API under /api/v10). --server v10: a server
  without slashd's dry run (the diff is computed here from its list; the daily creates are unknown)`;

interface DeployArgs {
  file: string;
  app: string;
  guild: string | null;
  url: string;
  token: string;
  server: 'slashd' | 'v10';
  json: boolean;
}

function parseDeployArgs(args: string[], env: Env): DeployArgs {
  const { positionals, values } = parseCommandLine(args, {
    app: { type: 'string' },
    guild: { type: 'string' },
    url: { type: 'string' },
    token: { type: 'string' },
    server: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1 || positionals[0] === undefined) throw new UsageError('expected exactly one FILE');
  const app = values.app as string | undefined;
  if (app === undefined || !isSnowflake(app)) throw new UsageError('--app ID (a snowflake) is required');
  const guild = (values.guild as string | undefined) ?? null;
  if (guild !== null && !isSnowflake(guild)) throw new UsageError('--guild ID must be a snowflake');
  const token = (values.token as string | undefined) ?? env.SLASHD_BOT_TOKEN;
  if (!token) throw new UsageError('no bot token: pass --token or set SLASHD_BOT_TOKEN');
  const server = (values.server as string | undefined) ?? 'slashd';
  if (server !== 'slashd' && server !== 'v10') throw new UsageError('--server is slashd or v10');
  return {
    file: positionals[0],
    app,
    guild,
    url: serverUrl(values.url as string | undefined, env),
    token,
    server,
    json: values.json === true,
  };
}

function commandsUrl(args: DeployArgs, query = ''): string {
  const scope = args.guild === null ? '' : `/guilds/${args.guild}`;
  return `${args.url}/api/v10/applications/${args.app}${scope}/commands${query}`;
}

/** A refusal of the server, as a line a person can act on. */
function refusal(what: string, answer: JsonAnswer): UsageError {
  const body: unknown = answer.body;
  const message = isRecord(body) && typeof body.message === 'string' ? `: ${body.message}` : '';
  const code = isRecord(body) && typeof body.code === 'number' ? ` (code ${body.code})` : '';
  return new UsageError(`${what} answered ${answer.status}${message}${code}`, false);
}

/** The app's traits for filling defaults as the server does, from its own application object. */
async function appTraits(args: DeployArgs): Promise<AppTraits> {
  const answer = await requestJson(`${args.url}/api/v10/applications/@me`, { auth: `Bot ${args.token}` });
  if (answer.status !== 200 || !isRecord(answer.body)) throw refusal('GET /applications/@me', answer);
  const app = answer.body;
  const config = isRecord(app.integration_types_config) ? Object.keys(app.integration_types_config).map(Number) : [0];
  return {
    flags: typeof app.flags === 'number' ? app.flags : 0,
    integration_types: config.filter((type) => Number.isInteger(type)),
    discoverable: false,
  };
}

/** The diff computed here: the server's list read back into stored commands, then the planner. */
async function clientSideDiff(args: DeployArgs, body: unknown): Promise<BulkOverwriteDiff> {
  const ctx: ValidationContext = { scope: args.guild === null ? 'global' : 'guild', app: await appTraits(args) };
  const entries = validateBulkOverwrite(body, ctx);
  if (!entries.ok) throw new InvalidFile(entries.issues.map((issue) => formatIssue(body, issue)));
  const listed = await requestJson(commandsUrl(args, '?with_localizations=true'), { auth: `Bot ${args.token}` });
  if (listed.status !== 200 || !Array.isArray(listed.body)) throw refusal('GET commands', listed);
  const remote = listed.body as Record<string, unknown>[];
  const parsed = readServerCommandList(remote, ctx);
  if (!parsed.ok) throw new UsageError("the server's command list could not be read back as definitions", false);
  const commands: StoredCommand[] = parsed.value.map((entry, i) => ({
    id: entry.id ?? '',
    application_id: args.app,
    guild_id: args.guild,
    version: typeof remote[i]?.version === 'string' ? remote[i].version : '',
    definition: entry.definition,
  }));
  const scope: CommandScope = { applicationId: args.app, guildId: args.guild };
  return diffBulkOverwrite(scope, { commands, createsToday: null }, entries.value, Date.now());
}

/** The diff slashd plans without writing (`?dry_run=true`). */
async function serverDiff(args: DeployArgs, body: unknown): Promise<BulkOverwriteDiff> {
  const answer = await requestJson(commandsUrl(args, '?dry_run=true'), {
    method: 'PUT',
    auth: `Bot ${args.token}`,
    body,
  });
  if (answer.status === 400 && isRecord(answer.body) && answer.body.code === 50035) {
    throw new InvalidFile([`the server refused FILE: ${JSON.stringify(answer.body.errors)}`]);
  }
  if (answer.status !== 200) throw refusal('PUT commands?dry_run=true', answer);
  if (Array.isArray(answer.body)) {
    // A server without the dry run applied the list: say so plainly.
    throw new UsageError('the server does not know dry_run and APPLIED the list; use --server v10 with it', false);
  }
  return answer.body as BulkOverwriteDiff;
}

/** FILE does not validate: its issues, one per line. */
class InvalidFile extends Error {
  constructor(readonly lines: string[]) {
    super('invalid file');
  }
}

function describeDiff(diff: BulkOverwriteDiff, out: Output): void {
  for (const command of diff.added) out.log(`+ ${command.name} (type ${command.type}): new`);
  for (const command of diff.changed) out.log(`~ ${command.name} (${command.id}): ${command.fields.join(', ')}`);
  for (const command of diff.removed) out.log(`- ${command.name} (${command.id ?? ''}): removed`);
  const creates = diff.daily_creates;
  const left = creates.left_after === null ? 'unknown' : String(creates.left_after);
  out.log(
    `${diff.added.length} added, ${diff.changed.length} changed, ${diff.unchanged.length} unchanged, ` +
      `${diff.removed.length} removed; ${plural(diff.ids_kept.length, 'id')} kept, ` +
      `${plural(diff.version_bumps, 'version bump')}; ` +
      `daily creates: ${creates.would_use} used, ${creates.limit === null ? 'no daily limit' : `${left} left of ${creates.limit}`}`,
  );
}

async function planned(args: DeployArgs): Promise<{ body: unknown; diff: BulkOverwriteDiff }> {
  const body = await readJson(args.file, 'file');
  const diff = args.server === 'slashd' ? await serverDiff(args, body) : await clientSideDiff(args, body);
  return { body, diff };
}

async function guarded(command: string, out: Output, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidFile) {
      for (const line of error.lines) out.error(line);
      return EXIT_FAILED;
    }
    if (error instanceof UsageError) return reportUsageError(command, error, out, DEPLOY_USAGE);
    if (error instanceof ApiError) {
      // The planner refused as the server would (an entry point removed, a limit reached).
      out.error(`slashd ${command}: ${error.message}`);
      return EXIT_FAILED;
    }
    throw error;
  }
}

export function runDiff(args: string[], out: Output, env: Env = process.env): Promise<number> {
  return guarded('diff', out, async () => {
    const parsed = parseDeployArgs(args, env);
    const { diff } = await planned(parsed);
    if (parsed.json) out.log(JSON.stringify(diff, null, 2));
    else describeDiff(diff, out);
    return diff.changes ? EXIT_FAILED : EXIT_OK;
  });
}

export function runDeploy(args: string[], out: Output, env: Env = process.env): Promise<number> {
  return guarded('deploy', out, async () => {
    const parsed = parseDeployArgs(args, env);
    const { body, diff } = await planned(parsed);
    if (!diff.changes) {
      out.log('no change: nothing deployed');
      return EXIT_OK;
    }
    describeDiff(diff, out);
    const answer = await requestJson(commandsUrl(parsed), { method: 'PUT', auth: `Bot ${parsed.token}`, body });
    if (answer.status !== 200) throw refusal('PUT commands', answer);
    out.log(`deployed: ${plural((answer.body as unknown[]).length, 'command')}`);
    return EXIT_OK;
  });
}
