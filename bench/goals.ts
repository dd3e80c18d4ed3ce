/** A figure beside its goal, judged: how every line of the growth bench ends. */
import { fixed } from './stats.js';

export interface Goal {
  /** `atMost`: the figure must not exceed the bound; `atLeast`: it must reach it. */
  kind: 'atMost' | 'atLeast';
  bound: number;
}

export const atMost = (bound: number): Goal => ({ kind: 'atMost', bound });
export const atLeast = (bound: number): Goal => ({ kind: 'atLeast', bound });

/** "0.42 (goal ≥ 0.5: MISSED)". */
export function judged(value: number, goal: Goal, digits = 2): string {
  const met = goal.kind === 'atMost' ? value <= goal.bound : value >= goal.bound;
  return `${fixed(value, digits)} (goal ${goal.kind === 'atMost' ? '≤' : '≥'} ${goal.bound}: ${met ? 'met' : 'MISSED'})`;
}

/**
 * Runs `work`; if it fails, says so under `label` and returns: one failed row must not cost the
 * other rows of a long run (and a failure is a figure too).
 */
export async function attempt(say: (line: string) => void, label: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    say(`${label} FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Row `row`, if `rows` has it: its line, prefixed, or why it failed. */
export function runRow(
  rows: ReadonlySet<number>,
  row: number,
  say: (line: string) => void,
  prefix: string,
  measure: () => Promise<string>,
): Promise<void> {
  if (!rows.has(row)) return Promise.resolve();
  return attempt(say, `${prefix}(${row})`, async () => say(prefix + (await measure())));
}
