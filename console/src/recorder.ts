/**
 * The Record button's logic: the user's actions in the chat screen as steps of a scenario, each
 * with what the user then saw as its expectations, written as YAML that `slashd test` replays.
 * The format is the server's (src/core/scenarios/types.ts, the one source of truth), imported as
 * types only: the console ships no server code. Pure functions, no DOM.
 */
import { stringify } from 'yaml';
import type { Expectation, Expected, MessageExpectation, Scenario, Step } from '../../src/core/scenarios/types';
import { OptionType, type Json, MessageFlag } from './types';

/** A v10 snowflake: ids change from one run to the next, so a recorded text matches any in their place. */
const SNOWFLAKE = /\b\d{17,20}\b/g;
/** An ISO 8601 time: as varying as an id. */
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\b/g;
/** What a snowflake and a time become in a `matches` pattern. */
const VARYING: readonly [RegExp, string][] = [
  [TIMESTAMP, '\\d{4}-\\d{2}-\\d{2}T[0-9:.]+(?:Z|[+-]\\d{2}:\\d{2})'],
  [SNOWFLAKE, '\\d{17,20}'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text as expected: itself, or a `matches` pattern when it holds ids or times. */
export function expectedText(text: string): Expected {
  const parts: { at: number; end: number; pattern: string }[] = [];
  for (const [regex, pattern] of VARYING) {
    for (const found of text.matchAll(regex)) {
      const at = found.index;
      const end = at + found[0].length;
      if (!parts.some((p) => at < p.end && end > p.at)) parts.push({ at, end, pattern });
    }
  }
  if (parts.length === 0) return text;
  parts.sort((a, b) => a.at - b.at);
  let source = '^';
  let from = 0;
  for (const part of parts) {
    source += escapeRegExp(text.slice(from, part.at)) + part.pattern;
    from = part.end;
  }
  return { matches: `${source}${escapeRegExp(text.slice(from))}$` };
}

/** A value of a command line, quoted when it has spaces or quotes (as `slashd invoke` splits words). */
function typedValue(value: string): string {
  if (!/[\s"']/.test(value)) return value;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

/** The slash command line of an invocation's wire data: `/weather city:Paris days:3`. */
export function commandLine(data: Json): string {
  const path: string[] = [String(data.name)];
  let options: Json[] = (data.options as Json[] | undefined) ?? [];
  for (;;) {
    const sub = options.find((o) => o.type === OptionType.Subcommand || o.type === OptionType.SubcommandGroup);
    if (!sub) break;
    path.push(String(sub.name));
    options = (sub.options as Json[] | undefined) ?? [];
  }
  const pairs = options.map((o) => `${String(o.name)}:${typedValue(String(o.value))}`);
  return `/${[...path, ...pairs].join(' ')}`;
}

function embedExpected(embed: Json): Expected {
  const out: Record<string, Expected> = {};
  for (const key of ['title', 'description', 'url'] as const)
    if (typeof embed[key] === 'string') out[key] = expectedText(embed[key]);
  if (Array.isArray(embed.fields))
    out.fields = (embed.fields as Json[]).map((f) => ({
      name: expectedText(String(f.name)),
      value: expectedText(String(f.value)),
    }));
  return out;
}

/** What a message showed: its text and embeds (components are the next step's to use). */
function messageExpected(data: Json): MessageExpectation {
  const expected: MessageExpectation = {};
  if (typeof data.content === 'string' && data.content !== '') expected.content = expectedText(data.content);
  if (Array.isArray(data.embeds) && data.embeds.length > 0)
    expected.embeds = (data.embeds as Json[]).map(embedExpected);
  return expected;
}

/** The v10 interaction response types the console shows as a message (CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE). */
const MESSAGE_RESPONSES = new Set([4, 7]);
const MODAL_RESPONSE = 9;

/** What an interaction's outcome, as the console followed it, expects: the answer, the modal, or the failure. */
export function outcomeExpectations(state: string, response: Json, failureReason?: string): Expectation[] {
  if (state === 'failed') return [{ refusal: { reason: failureReason ?? 'failed' } }];
  if (!response) return [];
  const data = response.data ?? {};
  if (response.type === MODAL_RESPONSE)
    return [{ modal: { title: expectedText(String(data.title)), custom_id: expectedText(String(data.custom_id)) } }];
  if (!MESSAGE_RESPONSES.has(response.type as number)) return [];
  const message = messageExpected(data);
  if (Object.keys(message).length === 0) return [];
  return ((data.flags as number | undefined) ?? 0) & MessageFlag.Ephemeral ? [{ ephemeral: message }] : [{ message }];
}

/** A request slashd refused: its HTTP status and v10 code. */
export function refusalExpectation(status: number, body: Json): Expectation {
  return { refusal: { status, ...(typeof body?.code === 'number' ? { code: body.code as number } : {}) } };
}

/** The steps recorded so far, and where the last one happened (a step names its channel only when it changes). */
export interface Recording {
  steps: Step[];
  channel: string | null;
  application: string | null;
}

export function newRecording(): Recording {
  return { steps: [], channel: null, application: null };
}

/** A step by `as` in `channel`: the channel named only when it differs from the previous step's. */
export function addStep(recording: Recording, as: string, channel: string, action: Record<string, unknown>): Step {
  const step = { ...action, as, ...(recording.channel === channel ? {} : { in: channel }) } as Step;
  recording.channel = channel;
  recording.steps.push(step);
  return step;
}

/** The recording as a scenario file. No `world`: the replay starts from the world slashd was started with (docs/testing.md). */
export function scenarioYaml(recording: Recording, name: string): string {
  const scenario: Scenario = {
    name,
    ...(recording.application ? { application: recording.application } : {}),
    steps: recording.steps,
  };
  const head = [
    '# Recorded in the slashd console. Replay: slashd test <this file>',
    '# No `world:`: the replay starts from the world slashd was started with, once the bot is ready;',
    '# add `world: <world file>` to pin another.',
  ];
  return `${head.join('\n')}\n${stringify(scenario, { lineWidth: 0 })}`;
}

/** The file a recording downloads as: the app's name, made safe for a file name. */
export function scenarioFileName(application: string | null): string {
  const base = (application ?? 'scenario')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base || 'scenario'}.scenario.yaml`;
}
