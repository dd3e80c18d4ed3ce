/**
 * One scenario replayed against a running slashd and the bot under test: its world restored, then
 * each step acted as its user through the HTTP API (./actors.ts) and its expectations awaited.
 * The first failed step fails the scenario; the steps after it are reported skipped.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { exercisedItems } from '../../core/scenarios/coverage.js';
import type { ScenarioResult, StepResult } from '../../core/scenarios/report.js';
import {
  actionKind,
  DEFAULT_EXPECTATION_TIMEOUT_MS,
  expectationKind,
  type Scenario,
  type Step,
} from '../../core/scenarios/types.js';
import type { User } from '../../core/world/types.js';
import { parseTypedCommand } from '../../cli/invoke/command-line.js';
import { loadWorldFile } from '../../world/world-file.js';
import { findComponent, type Actors } from '../actors.js';
import { expectStatus, SandboxRequestError, type Json, type Requester } from '../http.js';
import type { InteractionOutcome, WireMessage } from '../outcome.js';
import { awaitExpectation, type StepObservation } from './expectations.js';
import type { LoadedScenario } from './load.js';

/** What all scenarios of a run exercised, for the coverage report. */
export interface Exercise {
  items: Set<string>;
  componentsSeen: Set<string>;
  componentsUsed: Set<string>;
}

export function newExercise(): Exercise {
  return { items: new Set(), componentsSeen: new Set(), componentsUsed: new Set() };
}

export interface ScenarioTarget {
  request: Requester;
  adminToken: string;
  actors: Actors;
  /** The state once the bot was ready: what a scenario without `world` starts from. */
  baseSnapshot: string | null;
}

interface Scene {
  target: ScenarioTarget;
  loaded: LoadedScenario;
  applicationId: string;
  exercise: Exercise;
  place: { channelId: string; guildId: string | null } | null;
  last: InteractionOutcome | null;
}

const admin = (target: ScenarioTarget) => `Bearer ${target.adminToken}`;

async function restoreWorld(target: ScenarioTarget, loaded: LoadedScenario): Promise<void> {
  const world = loaded.scenario.world;
  const restore = async (id: string) =>
    expectStatus(
      await target.request('POST', `/admin/snapshots/${encodeURIComponent(id)}/restore`, { auth: admin(target) }),
      `restoring snapshot ${id}`,
      204,
    );
  if (typeof world === 'object') await restore(world.snapshot);
  else if (target.baseSnapshot !== null) await restore(target.baseSnapshot);
  if (typeof world === 'string') {
    const file = loadWorldFile(resolve(loaded.folder, world));
    expectStatus(
      await target.request('PUT', '/admin/world', { auth: admin(target), body: file }),
      'loading the world',
      200,
    );
  }
  target.actors.forget();
}

/** The custom_ids of a bot message's components, for the coverage. */
function noteComponents(scene: Scene, message: WireMessage): void {
  if ((message.author as Json | undefined)?.id !== scene.applicationId) return;
  findComponent(message.components, (component) => {
    if (typeof component.custom_id === 'string') scene.exercise.componentsSeen.add(component.custom_id);
    return false;
  });
}

function describeStep(step: Step): string {
  if (step.name) return step.name;
  const kind = actionKind(step);
  const value = (step as unknown as Record<string, unknown>)[kind];
  const where = step.in ? ` in ${step.in}` : '';
  if (kind === 'invoke') return `${step.as} invokes ${String(value)}${where}`;
  if (kind === 'click') return `${step.as} clicks ${typeof value === 'string' ? value : JSON.stringify(value)}`;
  if (kind === 'submit') return `${step.as} submits the modal`;
  if (kind === 'upload') return `${step.as} uploads ${(value as { file: string }).file}${where}`;
  return `${step.as} ${kind === 'post' ? 'posts' : 'reacts with'} ${JSON.stringify(value)}${where}`;
}

async function placeOf(scene: Scene, step: Step): Promise<{ channelId: string; guildId: string | null }> {
  if (step.in !== undefined) {
    const { guild, channel } = await scene.target.actors.place(step.in, step.guild);
    scene.place = { channelId: channel.id, guildId: guild.id };
  }
  if (!scene.place) throw new Error('no channel: say where the first step happens with `in`');
  return scene.place;
}

/** The message holding the component a click names: the last answer's, else the channel's newest with it. */
async function clickTarget(scene: Scene, actor: User, channelId: string, step: Step & { click: unknown }) {
  const wanted = step.click;
  const matches = (component: Json) =>
    typeof wanted === 'string' || 'custom_id' in (wanted as object)
      ? component.custom_id === (typeof wanted === 'string' ? wanted : (wanted as { custom_id: string }).custom_id)
      : component.label === (wanted as { label: string }).label;
  const recent = [...(scene.last?.messages ?? []), ...(scene.last?.message ? [scene.last.message] : [])].reverse();
  const channel = (await scene.target.actors.messages(channelId, actor)).reverse();
  for (const message of [...recent, ...channel]) {
    const component = findComponent(message.components, matches);
    if (component) return { message, customId: String(component.custom_id) };
  }
  throw new Error(`no message of the channel has a component ${JSON.stringify(wanted)}`);
}

/** Does the step's action; the outcome, or the refusal it met. */
async function act(scene: Scene, step: Step, actor: User, observation: StepObservation, waitMs: number): Promise<void> {
  const { actors } = scene.target;
  const { channelId } = observation;
  if ('invoke' in step) {
    const typed =
      step.target === undefined
        ? parseTypedCommand(step.invoke)
        : { path: [step.invoke.replace(/^\//, '')], options: [] };
    const options = {
      waitMs,
      ...(step.target === undefined ? {} : { target: step.target }),
      ...(step.guild ? { guild: step.guild } : {}),
    };
    const items = exercisedItems(
      { commandPath: typed.path, options: typed.options.map((o) => o.name) },
      step.target !== undefined,
    );
    items.forEach((item) => scene.exercise.items.add(item));
    observation.outcome = await actors.invoke(actor.id, channelId, step.invoke, options);
  } else if ('click' in step) {
    const { message, customId } = await clickTarget(scene, actor, channelId, step);
    scene.exercise.componentsUsed.add(customId);
    observation.target = message;
    observation.outcome = await actors.click(actor.id, message, customId, {
      waitMs,
      ...(step.values ? { values: step.values } : {}),
    });
  } else if ('submit' in step) {
    if (!scene.last?.modal) throw new Error('the previous step opened no modal to submit');
    observation.outcome = await actors.submitModal(actor.id, scene.last, step.submit, { waitMs });
  } else if ('post' in step) {
    await actors.post(actor.id, channelId, step.post);
  } else if ('react' in step) {
    const [newest] = await actors.messages(channelId, actor, 1);
    if (!newest) throw new Error('the channel has no message to react to');
    observation.target = newest;
    await actors.react(actor.id, newest, step.react);
  } else {
    const file = resolve(scene.loaded.folder, step.upload.file);
    const bytes = new Uint8Array(readFileSync(file));
    await actors.post(actor.id, channelId, step.upload.content ?? '', {
      name: step.upload.name ?? basename(file),
      bytes,
    });
  }
  if (observation.outcome) {
    scene.last = observation.outcome;
    observation.outcome.messages.forEach((message) => noteComponents(scene, message));
    if (observation.outcome.state === 'failed')
      observation.refusal = {
        reason: observation.outcome.failureReason ?? 'failed',
        message: `the interaction failed (${observation.outcome.failureReason})`,
      };
  }
}

async function lastEventSeq(scene: Scene): Promise<number> {
  const usage = expectStatus(
    await scene.target.request('GET', `/admin/applications/${scene.applicationId}/usage`, {
      auth: admin(scene.target),
    }),
    "reading the bot's usage",
    200,
  ) as { last_event_seq: number };
  return usage.last_event_seq;
}

async function runStep(scene: Scene, step: Step, timeoutMs: number): Promise<string[]> {
  const actors = scene.target.actors;
  const actor = await actors.user(step.as);
  const place = await placeOf(scene, step);
  // A user who cannot read the channel may still act (and be refused): then every message is new.
  const [newest] = await actors.messages(place.channelId, actor, 1).catch((error: unknown) => {
    if (error instanceof SandboxRequestError) return [];
    throw error;
  });
  const observation: StepObservation = {
    actor,
    channelId: place.channelId,
    guildId: place.guildId,
    marker: newest?.id ?? '0',
    eventSeq: await lastEventSeq(scene),
    outcome: null,
    target: null,
    refusal: null,
  };
  try {
    await act(scene, step, actor, observation, timeoutMs);
  } catch (error) {
    if (!(error instanceof SandboxRequestError)) return [`the step could not be done: ${(error as Error).message}`];
    const body = (error.body ?? {}) as Json;
    observation.refusal = { status: error.status, code: body.code, message: error.message };
  }
  const expectations = step.expect ?? [];
  const failures: string[] = [];
  if (observation.refusal && !expectations.some((e) => expectationKind(e) === 'refusal'))
    failures.push(`refused: ${observation.refusal.message}`);
  const context = {
    actors,
    request: scene.target.request,
    adminToken: scene.target.adminToken,
    applicationId: scene.applicationId,
    seen: (message: WireMessage) => noteComponents(scene, message),
  };
  for (const expectation of expectations) {
    const failure = await awaitExpectation(context, observation, expectation, step.timeout ?? timeoutMs);
    if (failure !== null) failures.push(failure);
  }
  return failures;
}

export async function runLoadedScenario(
  loaded: LoadedScenario,
  target: ScenarioTarget,
  exercise: Exercise,
): Promise<ScenarioResult> {
  const scenario: Scenario = loaded.scenario;
  const started = performance.now();
  const result: ScenarioResult = {
    name: scenario.name ?? basename(loaded.file),
    file: loaded.file,
    steps: [],
    error: null,
    durationMs: 0,
  };
  try {
    await restoreWorld(target, loaded);
    const app = await target.actors.application(scenario.application);
    const scene: Scene = { target, loaded, applicationId: app.id, exercise, place: null, last: null };
    let failed = false;
    for (const step of scenario.steps) {
      const stepStarted = performance.now();
      const entry: StepResult = { name: describeStep(step), failures: [], durationMs: 0, skipped: failed };
      if (!failed) {
        entry.failures = await runStep(scene, step, scenario.timeout ?? DEFAULT_EXPECTATION_TIMEOUT_MS);
        failed = entry.failures.length > 0;
      }
      entry.durationMs = performance.now() - stepStarted;
      result.steps.push(entry);
    }
  } catch (error) {
    result.error = (error as Error).message;
  }
  result.durationMs = performance.now() - started;
  return result;
}
