/**
 * Runs a rule's regex patterns with a time bound. Rust's regex crate (v10's) runs in linear time;
 * JavaScript's engine backtracks, so a pattern such as `(a+)+b` could hold a node for seconds on a
 * message. Each run is a script in one separate context with a timeout: a pattern that does not
 * finish in time matches nothing (docs/decisions.md, "Auto moderation"), and all the patterns of
 * one message share a budget.
 */
import vm from 'node:vm';
import type { CompiledPattern } from './rules/regex.js';
import type { PatternRunner } from './rules/matching.js';

/** How long one pattern may run on one message. */
export const PATTERN_TIME_LIMIT_MS = 100;
/** All the patterns of a guild's rules together, on one message (6 keyword rules of 10 patterns could otherwise take 6 s). */
export const MESSAGE_PATTERNS_TIME_LIMIT_MS = 250;
/** Matches collected of one pattern (the matcher looks at the first not allowed). */
const MATCHES_MAX = 100;

const SCRIPT = new vm.Script(`(() => {
  const found = [];
  for (const m of input.content.matchAll(new RegExp(input.source, input.flags + 'g'))) {
    if (m[0] !== '') found.push(m[0]);
    if (found.length >= input.max) break;
  }
  return JSON.stringify(found);
})()`);

/** Runs one pattern on one message within `timeLimitMs` (at most the runner's own limit). */
export type TimedPatternRunner = ((pattern: CompiledPattern, content: string, timeLimitMs?: number) => string[]) & {
  /** How many runs the bound stopped. */
  timedOut: () => number;
};

/** A runner with its own context. */
export function patternRunner(limitMs = PATTERN_TIME_LIMIT_MS): TimedPatternRunner {
  const context = vm.createContext(Object.create(null) as object);
  let timedOut = 0;
  const run = (pattern: CompiledPattern, content: string, timeLimitMs = limitMs): string[] => {
    (context as { input?: unknown }).input = {
      source: pattern.source,
      flags: pattern.flags,
      content,
      max: MATCHES_MAX,
    };
    const timeout = Math.max(1, Math.min(Math.ceil(timeLimitMs), limitMs));
    try {
      return JSON.parse(SCRIPT.runInContext(context, { timeout }) as string) as string[];
    } catch {
      timedOut++;
      return [];
    }
  };
  return Object.assign(run, { timedOut: () => timedOut });
}

/**
 * The runner for one message: each pattern gets what is left of the message's budget, and one run
 * once it is spent matches nothing. `elapsed` is the clock the budget is measured with (ms).
 */
export function messagePatternRunner(
  runner: TimedPatternRunner,
  elapsed: () => number,
  budgetMs = MESSAGE_PATTERNS_TIME_LIMIT_MS,
): PatternRunner {
  const start = elapsed();
  return (pattern, content) => {
    const left = budgetMs - (elapsed() - start);
    return left <= 0 ? [] : runner(pattern, content, left);
  };
}
