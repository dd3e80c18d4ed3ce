/**
 * `slashd/testing`: a bot's tests against slashd in the same process (node:test, Vitest, Jest).
 * See docs/testing.md.
 */
export {
  createSandbox,
  type ClickOptions,
  type FaultSpec,
  type InvokeOptions,
  type MessageRef,
  type Place,
  type Sandbox,
  type SandboxOptions,
} from './sandbox.js';
export { DEFAULT_OUTCOME_WAIT_MS, type InteractionOutcome, type WireMessage } from './outcome.js';
export { SandboxRequestError } from './http.js';
export type { World } from '../core/world/types.js';
export { runScenario, runScenarioFiles, type ScenarioRun, type ScenarioRunOptions } from './scenarios/run.js';
export { parseScenarioText, ScenarioFileError } from './scenarios/load.js';
export type * from '../core/scenarios/types.js';
export type { ScenarioResult, StepResult } from '../core/scenarios/report.js';
export type { Coverage } from '../core/scenarios/coverage.js';
