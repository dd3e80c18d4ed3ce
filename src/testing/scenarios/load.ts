/** A scenario file read: YAML (JSON is YAML too), checked, or an error naming each problem by path. */
import './linear-engine.js';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describeIssues, validateScenario } from '../../core/scenarios/validate.js';
import type { Scenario } from '../../core/scenarios/types.js';

/** A scenario file larger than this is refused before it is parsed. */
export const MAX_SCENARIO_FILE_BYTES = 4 * 1024 * 1024;
/** The endings `slashd test <dir>` picks up. */
const SCENARIO_FILE = /\.scenario\.ya?ml$|\.ya?ml$/;

export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} is not a valid scenario:\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.name = 'ScenarioFileError';
  }
}

export interface LoadedScenario {
  scenario: Scenario;
  /** The file's folder: paths in it (a world file, an upload) are relative to it. */
  folder: string;
  file: string;
}

export function parseScenarioText(text: string, file: string): Scenario {
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new ScenarioFileError(file, [`not YAML: ${(error as Error).message}`]);
  }
  const checked = validateScenario(value);
  if (!checked.ok) throw new ScenarioFileError(file, describeIssues(checked.issues));
  return checked.value;
}

export function loadScenario(file: string): LoadedScenario {
  const path = resolve(file);
  if (statSync(path).size > MAX_SCENARIO_FILE_BYTES)
    throw new ScenarioFileError(file, [`larger than ${MAX_SCENARIO_FILE_BYTES} bytes`]);
  return { scenario: parseScenarioText(readFileSync(path, 'utf8'), file), folder: dirname(path), file };
}

/** The scenario files a command line names: files as given, folders searched (sorted) for `*.yaml`/`*.yml`. */
export function scenarioFiles(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path, { recursive: true, encoding: 'utf8' })
      .filter((name) => SCENARIO_FILE.test(name))
      .sort()
      .map((name) => join(path, name));
  });
}
