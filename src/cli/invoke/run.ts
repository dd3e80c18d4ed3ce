/**
 * `slashd invoke`: acts as a world user. Names are resolved through the admin API, the command is
 * found in the channel's command index as this user sees it, `POST /api/v10/interactions` is sent
 * with the user's token, and the outcome is awaited and printed. Exit status: 0 the app answered,
 * 1 refused (the v10 error) or failed (its reason), 2 usage or an unreachable server.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fetchWorld, requestJson, type Env, type JsonAnswer } from '../client.js';
import { EXIT_FAILED, EXIT_OK, reportUsageError, UsageError, type Output } from '../usage.js';
import { parseInvokeArgs, type InvokeArgs } from './args.js';
import { parseTypedCommand } from './command-line.js';
import { awaitOutcome, type Outcome } from './outcome.js';
import { isEphemeral, renderMessage, renderResponse } from './render.js';
import { findCommand, invocationData, type IndexCommand } from './resolve-command.js';
import { findChannel, findUser } from './resolve-world.js';
import { requestWithinLimits, type WaitBudget } from './rate-limited.js';
import { verdictLines } from './why-hidden.js';

/** A refusal as the client shows it: the v10 message and code, then each field error with its path. */
export function refusalLines(answer: JsonAnswer): string[] {
  const body = typeof answer.body === 'object' && answer.body !== null ? answer.body : {};
  const lines = [
    `refused (${answer.status}): ${String(body.message ?? answer.body)} (code ${String(body.code ?? '?')})`,
  ];
  const walk = (node: unknown, path: string[]) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '_errors' && Array.isArray(value)) {
        for (const e of value as { code?: string; message?: string }[])
          lines.push(`  ${path.join('.') || '(root)'}: ${e.code} ${e.message}`);
      } else walk(value, [...path, key]);
    }
  };
  walk(body.errors, []);
  return lines;
}

class Refused extends Error {
  constructor(
    readonly answer: JsonAnswer,
    /** Why, in the permission engine's words, when it is a command the user may not use here. */
    readonly why: string[] = [],
  ) {
    super('refused');
  }
}

/** The command is not in the user's picker here, and the permission engine says why. */
class Hidden extends Error {
  constructor(
    readonly notFound: string,
    readonly why: string[],
  ) {
    super('hidden');
  }
}

/** The permission engine's verdicts for a command of this name in the channel (empty when it is shown, or unknown). */
async function whyNot(url: string, userToken: string, channelId: string, name: string, contextMenu: boolean) {
  const explained = await requestJson(`${url}/api/v10/channels/${channelId}/application-command-index/explain`, {
    auth: userToken,
  });
  return verdictLines(explained, name, contextMenu);
}

async function prepare(args: InvokeArgs) {
  const world = await fetchWorld({ url: args.url, adminToken: args.adminToken });
  const user = findUser(world, args.as);
  const { guild, channel } = findChannel(world, args.channel, args.guild);
  const index = await requestJson(`${args.url}/api/v10/channels/${channel.id}/application-command-index`, {
    auth: user.token,
  });
  if (index.status !== 200) throw new Refused(index);
  const commands = (index.body.application_commands ?? []) as IndexCommand[];
  const scope = { world, guild };
  const contextMenu = args.target !== undefined;
  const typed = contextMenu
    ? { path: [args.command.replace(/^\//, '')], options: [] }
    : parseTypedCommand(args.command);
  // Each attached file is the value of its option: the index of its `files[n]` part.
  args.attach.forEach(({ option }, index) => typed.options.push({ name: option, value: String(index) }));
  let command: IndexCommand;
  try {
    command = findCommand(commands, typed.path[0]!, contextMenu);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const why = await whyNot(args.url, user.token, channel.id, typed.path[0]!, contextMenu);
    if (why.length > 0) throw new Hidden(error.message, why);
    throw error;
  }
  const data = invocationData(command, typed, scope, args.target);
  const body = { type: 2, application_id: command.application_id, guild_id: guild.id, channel_id: channel.id, data };
  const apps = (index.body.applications ?? []) as { id: string; name: string }[];
  const appName = apps.find((app) => app.id === command.application_id)?.name ?? 'the app';
  return { user, channel, body, appName, name: typed.path[0]!, contextMenu };
}

/** The invocation with its files, as a client uploads them: `payload_json`, then `files[n]`. */
function uploadForm(body: unknown, args: InvokeArgs): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(body));
  args.attach.forEach(({ path }, index) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new UsageError(
        `--attach: cannot read ${path} (${error instanceof Error ? error.message : String(error)})`,
        false,
      );
    }
    form.append(`files[${index}]`, new Blob([bytes]), basename(path));
  });
  return form;
}

function printMessage(heading: string, lines: string[], out: Output): void {
  out.log(heading);
  for (const line of lines.length > 0 ? lines : ['(an empty message)']) out.log(`  ${line}`);
}

function printOutcome(outcome: Outcome, appName: string, out: Output): number {
  if (outcome.kind === 'failed') {
    out.error(`failed: ${outcome.reason}`);
    return EXIT_FAILED;
  }
  const message = outcome.kind === 'message' ? outcome.message : (outcome.response.data ?? {});
  const lines = outcome.kind === 'message' ? renderMessage(outcome.message) : renderResponse(outcome.response);
  const note = isEphemeral(message) ? ' (only you can see this)' : '';
  printMessage(`${appName} answered${note}:`, lines, out);
  for (const followUp of outcome.kind === 'message' ? outcome.followUps : []) {
    const only = isEphemeral(followUp) ? ' (only you can see this)' : '';
    printMessage(`${appName} followed up${only}:`, renderMessage(followUp), out);
  }
  return EXIT_OK;
}

async function invoke(args: InvokeArgs, out: Output): Promise<number> {
  const { user, channel, body, appName, name, contextMenu } = await prepare(args);
  out.log(`${user.username} in #${channel.name}: ${args.command}`);
  const budget: WaitBudget = {
    until: Date.now() + args.waitMs,
    onWait: (seconds, what) =>
      out.error(`rate limited (429) on ${what}: waiting ${seconds} s (retry_after), then again`),
  };
  const accepted = await requestWithinLimits(
    `${args.url}/api/v10/interactions`,
    { method: 'POST', auth: user.token, body, ...(args.attach.length > 0 ? { form: uploadForm(body, args) } : {}) },
    budget,
  );
  if (accepted.status === 403)
    throw new Refused(accepted, await whyNot(args.url, user.token, channel.id, name, contextMenu));
  if (accepted.status !== 200) throw new Refused(accepted);
  const outcome = await awaitOutcome({
    url: args.url,
    userToken: user.token,
    channelId: channel.id,
    interactionId: String(accepted.body.id),
    waitMs: args.waitMs,
    budget,
  });
  return printOutcome(outcome, appName, out);
}

export async function runInvoke(argv: string[], out: Output, env: Env = process.env): Promise<number> {
  try {
    return await invoke(parseInvokeArgs(argv, env), out);
  } catch (error) {
    if (error instanceof Refused) {
      for (const line of refusalLines(error.answer)) out.error(line);
      for (const line of error.why) out.error(`why: ${line}`);
      return EXIT_FAILED;
    }
    if (error instanceof Hidden) {
      out.error(error.notFound);
      for (const line of error.why) out.error(line);
      return EXIT_FAILED;
    }
    if (error instanceof UsageError) return reportUsageError('invoke', error, out);
    throw error;
  }
}
