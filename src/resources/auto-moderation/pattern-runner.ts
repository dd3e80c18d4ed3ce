/**
 * Runs a rule's regex patterns with a time bound. Rust's regex crate (v10's) runs in linear time;
 * JavaScript's engine backtracks, so a pattern such as `(a+)+b` could hold a node for seconds on a
 * message. Each run is a script in one separate context with a timeout: a pattern that does not
 * finish in time matches nothing (docs/decisions.md, "Auto moderation patterns").
 */
import vm from 'node:vm';
import type { CompiledPattern } from './rules/regex.js';
import type { PatternRunner } from './rules/matching.js';

/** How long one pattern may run on one message. */
export const PATTERN_TIME_LIMIT_MS = 50;
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

/** A runner with its own context; `timedOut` counts the runs stopped by the bound. */
export function patternRunner(timeLimitMs = PATTERN_TIME_LIMIT_MS): PatternRunner & { timedOut: () => number } {
  const context = vm.createContext(Object.create(null) as object);
  let timedOut = 0;
  const run = (pattern: CompiledPattern, content: string): string[] => {
    (context as { input?: unknown }).input = {
      source: pattern.source,
      flags: pattern.flags,
      content,
      max: MATCHES_MAX,
    };
    try {
      return JSON.parse(SCRIPT.runInContext(context, { timeout: timeLimitMs }) as string) as string[];
    } catch {
      timedOut++;
      return [];
    }
  };
  return Object.assign(run, { timedOut: () => timedOut });
}
