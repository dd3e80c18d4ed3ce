/**
 * A step's expectations judged against what slashd shows after it, each read again until it
 * matches or its wait runs out (a bounded wait on a condition, not a sleep): then the failure says
 * what was expected and, from the closest observation, what was there.
 */
import './linear-engine.js';
import { MessageFlags } from 'discord-api-types/v10';
import { setTimeout as pause } from 'node:timers/promises';
import { bestCandidate, diffLines, matchExpected, type Mismatch } from '../../core/scenarios/match.js';
import {
  expectationKind,
  type Expectation,
  type Expected,
  type MessageExpectation,
} from '../../core/scenarios/types.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { User } from '../../core/world/types.js';
import { findGuild, findRole, findUser } from '../../cli/invoke/resolve-world.js';
import type { Actors } from '../actors.js';
import { expectStatus, SandboxRequestError, type Json, type Requester } from '../http.js';
import type { InteractionOutcome, WireMessage } from '../outcome.js';

/** Between two reads of an expectation not yet met, in ms. */
export const EXPECTATION_POLL_MS = 20;
/** Expectations about the action's own answer, read once. */
const FINAL_KINDS: ReadonlySet<string> = new Set(['refusal', 'modal']);

/** What a step did, as the expectations read it. */
export interface StepObservation {
  actor: User;
  channelId: string;
  guildId: string | null;
  /** The newest message id of the channel before the step: messages after it are the step's. */
  marker: string;
  /** The last gateway event number recorded before the step. */
  eventSeq: number;
  /** The interaction's outcome (invoke, click, submit). */
  outcome: InteractionOutcome | null;
  /** The message a click or reaction acted on. */
  target: WireMessage | null;
  /** The refusal of the action: HTTP status and v10 code, or the interaction's failure reason. */
  refusal: { status?: number; code?: number; reason?: string; message?: string } | null;
}

export interface ExpectationContext {
  actors: Actors;
  request: Requester;
  adminToken: string;
  applicationId: string;
  /** Every message a step read: the coverage collects the components shown. */
  seen(message: WireMessage): void;
}

type Judgement = { mismatches: Mismatch[]; said: string } | null;

function newer(id: string, marker: string): boolean {
  return BigInt(id) > BigInt(marker);
}

/** A message as an expectation reads it: `author` by name, or by id when an id is expected. */
function projected(message: WireMessage, expected: MessageExpectation): Json {
  const author = message.author as Json | undefined;
  const byId = typeof expected.author === 'string' && isSnowflake(expected.author);
  return { ...message, author: byId ? author?.id : author?.username };
}

async function stepMessages(context: ExpectationContext, step: StepObservation, reader = step.actor) {
  const listed = await context.actors.messages(step.channelId, reader);
  listed.forEach((message) => context.seen(message));
  const fresh = listed.filter((message) => newer(message.id, step.marker));
  const updated = step.target ? listed.filter((message) => message.id === step.target!.id) : [];
  return [...fresh, ...updated];
}

function judgeMessages(candidates: readonly WireMessage[], expected: MessageExpectation, what: string): Judgement {
  const best = bestCandidate(candidates, (message) =>
    matchExpected(expected as Expected, projected(message, expected)),
  );
  if (best && best.mismatches.length === 0) return null;
  if (!best) return { mismatches: [], said: `${what}: none was posted` };
  return {
    mismatches: best.mismatches,
    said: `${what}: none matched; the closest of ${candidates.length} (${best.candidate.id})`,
  };
}

async function judgeMessage(context: ExpectationContext, step: StepObservation, expected: MessageExpectation) {
  const visible = (await stepMessages(context, step)).filter((m) => ((m.flags ?? 0) & MessageFlags.Ephemeral) === 0);
  return judgeMessages(visible, expected, 'message');
}

/** Another member of the step's guild (else another user), to check an ephemeral answer is not shown to them. */
async function someoneElse(context: ExpectationContext, step: StepObservation): Promise<User | null> {
  const world = await context.actors.world();
  const members = world.guilds.find((guild) => guild.id === step.guildId)?.members ?? [];
  const other = members.find((member) => member.user_id !== step.actor.id);
  return world.users.find((user) => (other ? user.id === other.user_id : user.id !== step.actor.id)) ?? null;
}

async function judgeEphemeral(context: ExpectationContext, step: StepObservation, expected: MessageExpectation) {
  const own = (await stepMessages(context, step)).filter((m) => ((m.flags ?? 0) & MessageFlags.Ephemeral) !== 0);
  const judged = judgeMessages(own, expected, 'ephemeral answer');
  if (judged) return judged;
  const other = await someoneElse(context, step);
  if (!other) return null;
  const theirs = await context.actors.messages(step.channelId, other).catch(() => [] as WireMessage[]);
  const leaked = theirs.find((m) => own.some((mine) => mine.id === m.id));
  return leaked ? { mismatches: [], said: `ephemeral answer: ${other.username} sees it too (${leaked.id})` } : null;
}

function judgeRefusal(step: StepObservation, expected: Record<string, unknown>): Judgement {
  if (!step.refusal)
    return { mismatches: [], said: `refusal: the step was not refused (${step.outcome?.state ?? 'done'})` };
  const mismatches = matchExpected(expected as Expected, step.refusal);
  return mismatches.length === 0 ? null : { mismatches, said: `refusal: ${step.refusal.message ?? 'another refusal'}` };
}

function judgeModal(step: StepObservation, expected: Record<string, unknown>): Judgement {
  if (!step.outcome?.modal) return { mismatches: [], said: 'modal: the step opened none' };
  const mismatches = matchExpected(expected as Expected, step.outcome.modal);
  return mismatches.length === 0 ? null : { mismatches, said: 'modal: it differs' };
}

async function judgeMember(
  context: ExpectationContext,
  step: StepObservation,
  expected: { user: string; guild?: string; has?: string[]; lacks?: string[] },
) {
  context.actors.forget();
  const world = await context.actors.world();
  const guild = expected.guild ? findGuild(world, expected.guild) : world.guilds.find((g) => g.id === step.guildId);
  if (!guild) return { mismatches: [], said: 'member: the step happened outside a guild; name one with `guild`' };
  const user = findUser(world, expected.user);
  const member = guild.members.find((m) => m.user_id === user.id);
  if (!member) return { mismatches: [], said: `member: ${user.username} is not a member of ${guild.name}` };
  const roleName = (id: string) => guild.roles.find((role) => role.id === id)?.name ?? id;
  const holds = (reference: string) => member.roles.includes(findRole(guild, reference)?.id ?? reference);
  const mismatches: Mismatch[] = [
    ...(expected.has ?? [])
      .filter((role) => !holds(role))
      .map((role) => ({ path: 'roles', expected: `has ${role}`, observed: member.roles.map(roleName) })),
    ...(expected.lacks ?? [])
      .filter(holds)
      .map((role) => ({ path: 'roles', expected: `lacks ${role}`, observed: member.roles.map(roleName) })),
  ];
  return mismatches.length === 0
    ? null
    : { mismatches, said: `member: the roles of ${user.username} in ${guild.name}` };
}

async function judgeEvent(
  context: ExpectationContext,
  step: StepObservation,
  expected: { type: string; data?: Expected },
) {
  const usage = expectStatus(
    await context.request('GET', `/admin/applications/${context.applicationId}/usage`, {
      auth: `Bearer ${context.adminToken}`,
    }),
    "reading the bot's usage",
    200,
  ) as { recent_events: { seq: number; type: string; data: string | null }[] };
  const received = usage.recent_events.filter((event) => event.seq > step.eventSeq);
  const sameType = received.filter((event) => event.type === expected.type);
  if (sameType.length === 0)
    return {
      mismatches: [],
      said: `event: the bot received no ${expected.type} (it received: ${received.map((e) => e.type).join(', ') || 'nothing'})`,
    };
  if (expected.data === undefined) return null;
  const best = bestCandidate(sameType, (event) =>
    matchExpected(expected.data!, event.data === null ? undefined : JSON.parse(event.data)),
  );
  return best && best.mismatches.length > 0
    ? { mismatches: best.mismatches, said: `event: no ${expected.type} matched` }
    : null;
}

function judge(
  context: ExpectationContext,
  step: StepObservation,
  expectation: Expectation,
): Promise<Judgement> | Judgement {
  const kind = expectationKind(expectation);
  const value = (expectation as Record<string, any>)[kind];
  if (kind === 'message') return judgeMessage(context, step, value);
  if (kind === 'ephemeral') return judgeEphemeral(context, step, value);
  if (kind === 'refusal') return judgeRefusal(step, value);
  if (kind === 'modal') return judgeModal(step, value);
  if (kind === 'member') return judgeMember(context, step, value);
  return judgeEvent(context, step, value);
}

/** A read the acting user is refused (a channel they cannot see) is an unmet expectation, not a crash. */
async function judgeOrRefused(
  context: ExpectationContext,
  step: StepObservation,
  expectation: Expectation,
): Promise<Judgement> {
  try {
    return await judge(context, step, expectation);
  } catch (error) {
    if (error instanceof SandboxRequestError)
      return { mismatches: [], said: `${expectationKind(expectation)}: ${error.message}` };
    throw error;
  }
}

/** Null when the expectation is met within `timeoutMs`; else the failure in words with its diff. */
export async function awaitExpectation(
  context: ExpectationContext,
  step: StepObservation,
  expectation: Expectation,
  timeoutMs: number,
): Promise<string | null> {
  const deadline = performance.now() + timeoutMs;
  // What the action itself answered (a refusal, a modal) is known at once: nothing to wait for.
  const known = FINAL_KINDS.has(expectationKind(expectation));
  for (;;) {
    const judged = await judgeOrRefused(context, step, expectation);
    if (judged === null) return null;
    if (known || performance.now() >= deadline) {
      return [known ? judged.said : `${judged.said} (waited ${timeoutMs} ms)`, ...diffLines(judged.mismatches)].join(
        '\n',
      );
    }
    await pause(EXPECTATION_POLL_MS);
  }
}
