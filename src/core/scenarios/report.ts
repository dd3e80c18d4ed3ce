/**
 * A run's results, and the three ways `slashd test` writes them: text for a person, TAP and JUnit
 * XML for CI systems (GitLab and GitHub Actions' test reporters read JUnit; TAP for the rest).
 */

export interface StepResult {
  name: string;
  /** Empty when the step passed: else each failed expectation in words, with its diff. */
  failures: string[];
  durationMs: number;
  /** Not run: an earlier step of the scenario failed. */
  skipped: boolean;
}

export interface ScenarioResult {
  name: string;
  /** The scenario's file, as given. */
  file: string;
  steps: StepResult[];
  /** Why the scenario could not run at all (an invalid file, a world that does not load), else null. */
  error: string | null;
  durationMs: number;
}

export type ReporterName = 'text' | 'tap' | 'junit';
export const REPORTERS: readonly ReporterName[] = ['text', 'tap', 'junit'];

export function stepPassed(step: StepResult): boolean {
  return !step.skipped && step.failures.length === 0;
}

export function scenarioPassed(scenario: ScenarioResult): boolean {
  return scenario.error === null && scenario.steps.every((step) => step.skipped || step.failures.length === 0);
}

export function runPassed(results: readonly ScenarioResult[]): boolean {
  return results.every(scenarioPassed);
}

function indent(lines: readonly string[], prefix: string): string[] {
  return lines.flatMap((line) => line.split('\n')).map((line) => `${prefix}${line}`);
}

export function textReport(results: readonly ScenarioResult[]): string {
  const lines: string[] = [];
  for (const scenario of results) {
    lines.push(`${scenarioPassed(scenario) ? 'PASS' : 'FAIL'} ${scenario.name} (${scenario.file})`);
    if (scenario.error !== null) lines.push(...indent([scenario.error], '  '));
    for (const step of scenario.steps) {
      const mark = step.skipped ? '-' : step.failures.length === 0 ? '✓' : '✗';
      lines.push(`  ${mark} ${step.name}${step.skipped ? ' (skipped)' : ''}`);
      lines.push(...indent(step.failures, '      '));
    }
  }
  const failed = results.filter((scenario) => !scenarioPassed(scenario)).length;
  lines.push('', `${results.length - failed} passed, ${failed} failed, ${results.length} scenarios`);
  return `${lines.join('\n')}\n`;
}

/** TAP 13: a test point per step, a failure's diff in a YAML block. */
export function tapReport(results: readonly ScenarioResult[]): string {
  const points = results.flatMap((scenario) =>
    scenario.error !== null
      ? [{ name: scenario.name, passed: false, skipped: false, failures: [scenario.error] }]
      : scenario.steps.map((step) => ({
          name: `${scenario.name} › ${step.name}`,
          passed: step.skipped || step.failures.length === 0,
          skipped: step.skipped,
          failures: step.failures,
        })),
  );
  const lines = ['TAP version 13', `1..${points.length}`];
  points.forEach((point, index) => {
    const name = point.name.replace(/#/g, '\\#');
    lines.push(
      `${point.passed ? 'ok' : 'not ok'} ${index + 1} - ${name}${point.skipped ? ' # SKIP an earlier step failed' : ''}`,
    );
    if (point.failures.length > 0) lines.push('  ---', '  message: |', ...indent(point.failures, '    '), '  ...');
  });
  return `${lines.join('\n')}\n`;
}

/** Characters XML 1.0 cannot hold at all: C0 controls but tab, line feed and carriage return. */
function xmlAllows(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function xml(text: string): string {
  return [...text]
    .filter(xmlAllows)
    .join('')
    .replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** JUnit XML: a testsuite per scenario, a testcase per step. */
export function junitReport(results: readonly ScenarioResult[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = (scenario: ScenarioResult) =>
    scenario.error !== null ? 1 : scenario.steps.filter((step) => !step.skipped && step.failures.length > 0).length;
  const total = (scenario: ScenarioResult) => (scenario.error !== null ? 1 : scenario.steps.length);
  lines.push(
    `<testsuites name="slashd test" tests="${results.reduce((n, s) => n + total(s), 0)}" failures="${results.reduce((n, s) => n + failures(s), 0)}">`,
  );
  for (const scenario of results) {
    const skipped = scenario.steps.filter((step) => step.skipped).length;
    lines.push(
      `  <testsuite name="${xml(scenario.name)}" file="${xml(scenario.file)}" tests="${total(scenario)}" failures="${failures(scenario)}" skipped="${skipped}" time="${seconds(scenario.durationMs)}">`,
    );
    if (scenario.error !== null) {
      lines.push(`    <testcase name="(loading)" classname="${xml(scenario.name)}" time="0">`);
      lines.push(
        `      <failure message="${xml(scenario.error.split('\n')[0]!)}">${xml(scenario.error)}</failure>`,
        '    </testcase>',
      );
    }
    for (const step of scenario.steps) {
      lines.push(
        `    <testcase name="${xml(step.name)}" classname="${xml(scenario.name)}" time="${seconds(step.durationMs)}">`,
      );
      if (step.skipped) lines.push('      <skipped message="an earlier step failed"/>');
      else if (step.failures.length > 0)
        lines.push(
          `      <failure message="${xml(step.failures[0]!.split('\n')[0]!)}">${xml(step.failures.join('\n'))}</failure>`,
        );
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

export function renderReport(reporter: ReporterName, results: readonly ScenarioResult[]): string {
  if (reporter === 'tap') return tapReport(results);
  if (reporter === 'junit') return junitReport(results);
  return textReport(results);
}
