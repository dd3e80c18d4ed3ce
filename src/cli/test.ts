/**
 * `slashd test SCENARIOS...`: replays scenario files (docs/testing.md#scenarios) against the bot
 * under test, on a slashd started in this process or the one at `--url`, and reports each failed
 * expectation with its diff; exit 0 when every scenario passed, 1 when one failed, 2 for a wrong
 * command line or a bot that never became ready.
 */
import { writeFileSync } from 'node:fs';
import { coverageText } from '../core/scenarios/coverage.js';
import { renderReport, REPORTERS, type ReporterName } from '../core/scenarios/report.js';
import { scenarioFiles } from '../testing/scenarios/load.js';
import { runScenarioFiles } from '../testing/scenarios/run.js';
import type { Env } from './client.js';
import {
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  parseCommandLine,
  reportUsageError,
  UsageError,
  type Output,
} from './usage.js';

export interface TestArgs {
  files: string[];
  url: string | undefined;
  adminToken: string | undefined;
  world: string | undefined;
  bot: string | undefined;
  application: string | undefined;
  reporter: ReporterName;
  output: string | undefined;
  coverage: string | undefined;
  readyTimeoutMs: number | undefined;
}

function reporter(raw: string | undefined): ReporterName {
  if (raw === undefined) return 'text';
  if (!(REPORTERS as readonly string[]).includes(raw))
    throw new UsageError(`--reporter takes ${REPORTERS.join(', ')}, not '${raw}'`);
  return raw as ReporterName;
}

function seconds(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${flag} takes a number of seconds, not '${raw}'`);
  return value * 1000;
}

export function parseTestArgs(args: string[], env: Env): TestArgs {
  const { values, positionals } = parseCommandLine(args, {
    url: { type: 'string' },
    'admin-token': { type: 'string' },
    world: { type: 'string' },
    bot: { type: 'string' },
    app: { type: 'string' },
    reporter: { type: 'string' },
    output: { type: 'string' },
    coverage: { type: 'string' },
    'ready-timeout': { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('no scenarios: name scenario files or folders');
  const url = (values.url as string | undefined) ?? env.SLASHD_URL;
  return {
    files: positionals,
    url,
    adminToken:
      (values['admin-token'] as string | undefined) ?? (url === undefined ? undefined : env.SLASHD_ADMIN_TOKEN),
    world: values.world as string | undefined,
    bot: values.bot as string | undefined,
    application: values.app as string | undefined,
    reporter: reporter(values.reporter as string | undefined),
    output: values.output as string | undefined,
    coverage: values.coverage as string | undefined,
    readyTimeoutMs: seconds(values['ready-timeout'] as string | undefined, '--ready-timeout'),
  };
}

export async function runTest(args: string[], out: Output, env: Env = process.env): Promise<number> {
  let parsed: TestArgs;
  let files: string[];
  try {
    parsed = parseTestArgs(args, env);
    files = scenarioFiles(parsed.files);
  } catch (error) {
    if (error instanceof UsageError) return reportUsageError('test', error, out);
    out.error(`slashd test: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  if (files.length === 0) {
    out.error(`slashd test: no scenario files (*.yaml, *.yml) in ${parsed.files.join(', ')}`);
    return EXIT_USAGE;
  }
  let run;
  try {
    run = await runScenarioFiles(files, {
      url: parsed.url,
      adminToken: parsed.adminToken,
      world: parsed.world,
      bot: parsed.bot,
      application: parsed.application,
      readyTimeoutMs: parsed.readyTimeoutMs,
    });
  } catch (error) {
    out.error(`slashd test: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const report = renderReport(parsed.reporter, run.results);
  if (parsed.output !== undefined) writeFileSync(parsed.output, report);
  else out.log(report.trimEnd());
  if (run.coverage) {
    if (parsed.coverage !== undefined) writeFileSync(parsed.coverage, `${JSON.stringify(run.coverage, null, 2)}\n`);
    // On stderr when the report is on stdout: a JUnit or TAP stream stays parseable.
    const coverage = coverageText(run.coverage).trimEnd();
    if (parsed.output === undefined && parsed.reporter !== 'text') out.error(coverage);
    else out.log(coverage);
  }
  if (parsed.output !== undefined) out.log(`${run.passed ? 'passed' : 'failed'}: the report is in ${parsed.output}`);
  return run.passed ? EXIT_OK : EXIT_FAILED;
}
