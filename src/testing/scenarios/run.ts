/**
 * A run of scenario files: slashd and the bot made ready once (./target.ts), the state then kept
 * as a snapshot every scenario starts from (or its own world), each scenario replayed, and the
 * coverage of the app under test read at the end. `slashd test` and the kit's `runScenario` share it.
 */
import { join } from 'node:path';
import { computeCoverage, type Coverage, type CoverageCommand, type RouteUse } from '../../core/scenarios/coverage.js';
import { runPassed, textReport, type ScenarioResult } from '../../core/scenarios/report.js';
import { expectStatus } from '../http.js';
import type { Sandbox } from '../sandbox.js';
import { loadScenario, type LoadedScenario } from './load.js';
import { newExercise, runLoadedScenario, type Exercise } from './run-scenario.js';
import { appCommands, openTarget, type OwnCalls, type Target, type TargetOptions } from './target.js';

export type ScenarioRunOptions = TargetOptions & {
  /** A sandbox of the kit the bot under test already runs against (instead of `url` and `adminToken`). */
  sandbox?: Sandbox | undefined;
};

export interface ScenarioRun {
  results: ScenarioResult[];
  coverage: Coverage | null;
  passed: boolean;
  /** The results as `slashd test --reporter text` writes them: each failed expectation with its diff. */
  report: string;
}

function loadAll(files: readonly string[]): { loaded: LoadedScenario[]; broken: ScenarioResult[] } {
  const loaded: LoadedScenario[] = [];
  const broken: ScenarioResult[] = [];
  for (const file of files) {
    try {
      loaded.push(loadScenario(file));
    } catch (error) {
      broken.push({ name: file, file, steps: [], error: (error as Error).message, durationMs: 0 });
    }
  }
  return { loaded, broken };
}

/** The bot's route uses, less the runner's own reads with its token. */
function withoutOwnCalls(routes: RouteUse[], own: OwnCalls): RouteUse[] {
  return routes
    .map((use) => ({ ...use, count: use.count - (own.get(`${use.method} ${use.route}`) ?? 0) }))
    .filter((use) => use.count > 0);
}

async function coverageOf(target: Target, exercise: Exercise): Promise<Coverage> {
  const guildIds = (await target.actors.world()).guilds.map((guild) => guild.id);
  const commands = (await appCommands(target.request, target.app, guildIds, target.ownCalls)) as CoverageCommand[];
  const usage = expectStatus(
    await target.request('GET', `/admin/applications/${target.app.id}/usage`, { auth: `Bearer ${target.adminToken}` }),
    "reading the bot's usage",
    200,
  );
  return computeCoverage({
    applicationId: target.app.id,
    commands,
    exercised: exercise.items,
    componentsSeen: exercise.componentsSeen,
    componentsUsed: exercise.componentsUsed,
    usage: { ...usage, routes: withoutOwnCalls(usage.routes, target.ownCalls) },
  });
}

/** The scenarios of `files`, replayed one after the other; a file that does not load fails alone. */
export async function runScenarioFiles(
  files: readonly string[],
  options: ScenarioRunOptions = {},
): Promise<ScenarioRun> {
  const { loaded, broken } = loadAll(files);
  const first = loaded[0]?.scenario;
  const startWorld = typeof first?.world === 'string' ? join(loaded[0]!.folder, first.world) : undefined;
  const target = await openTarget({
    ...options,
    ...(options.sandbox ? { url: options.sandbox.url, adminToken: options.sandbox.adminToken } : {}),
    world: options.world ?? startWorld,
    application: options.application ?? first?.application,
  });
  const auth = `Bearer ${target.adminToken}`;
  try {
    const base = String(
      expectStatus(await target.request('POST', '/admin/snapshots', { auth }), 'taking a snapshot', 201).id,
    );
    const exercise = newExercise();
    const results = [...broken];
    try {
      for (const scenario of loaded) {
        results.push(await runLoadedScenario(scenario, { ...target, baseSnapshot: base }, exercise));
      }
    } finally {
      await target.request('POST', `/admin/snapshots/${base}/restore`, { auth });
      await target.request('DELETE', `/admin/snapshots/${base}`, { auth });
    }
    const coverage = await coverageOf(target, exercise);
    return { results, coverage, passed: runPassed(results), report: textReport(results) };
  } finally {
    await target.close();
  }
}

/**
 * One scenario file replayed: under node:test, Vitest or Jest, `assert.ok(run.passed, run.report)`.
 * With `sandbox`, against the kit's sandbox the test started its bot on; else as `slashd test` does.
 */
export function runScenario(file: string, options: ScenarioRunOptions = {}): Promise<ScenarioRun> {
  return runScenarioFiles([file], options);
}
