/**
 * A scenario's `matches` runs against what a bot sent, so it must not take time exponential (or of
 * a high degree) in that text: `^Hello, (a+)+$` took 2.7 s on 37 characters with a backtracking
 * engine. Patterns are compiled for V8's linear-time engine (the `l` flag): it accepts JavaScript's
 * syntax less what cannot run in time linear in the text (backreferences, lookarounds), and
 * refuses those at compile time, so the rule is stated once by the engine that keeps it. The engine
 * is enabled by the testing kit before any scenario is read (src/testing/scenarios/linear-engine.ts).
 */

/** The flag of V8's linear-time engine (`--enable-experimental-regexp-engine`). */
const LINEAR = 'l';

/** The compiled pattern, or why it cannot be one. */
export function linearPattern(text: string): RegExp | { problem: string } {
  try {
    return new RegExp(text, LINEAR);
  } catch (error) {
    try {
      new RegExp(text);
    } catch (plain) {
      return { problem: `Not a regular expression: ${(plain as Error).message}` };
    }
    const message = (error as Error).message;
    if (/flag/i.test(message)) return { problem: 'The linear-time regular expression engine is not enabled' };
    return {
      problem: 'Not a regular expression that runs in time linear in the text (no backreferences or lookarounds)',
    };
  }
}
