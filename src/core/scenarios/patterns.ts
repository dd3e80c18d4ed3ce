/**
 * A scenario's `matches` runs against what a bot sent, so it must not take time exponential (or of
 * a high degree) in that text: `^Hello, (a+)+$` took 2.7 s on 37 characters with a backtracking
 * engine. Patterns are compiled for V8's linear-time engine (the `l` flag): it accepts JavaScript's
 * syntax less what cannot run in time linear in the text (backreferences, lookarounds), and
 * refuses those at compile time, so the rule is stated once by the engine that keeps it. The engine
 * is enabled by the testing kit before any scenario is read (src/testing/scenarios/linear-engine.ts).
 * The engine repeats an atom at most 16 times, so `\d{17,20}` (what the console's recorder writes
 * for a snowflake) is first written as `\d{16}\d{1,4}`, the same language in counts it takes.
 */

/** The flag of V8's linear-time engine (`--enable-experimental-regexp-engine`). */
const LINEAR = 'l';

/** The largest count the linear-time engine repeats an atom by (it refuses `x{17}`). */
const LINEAR_COUNT_MAX = 16;

/** The length of the escape at `at` (a backslash), whole: `\x41` is one atom, not `\x` and `41`. */
function escapeLength(text: string, at: number): number {
  const next = text[at + 1];
  if (next === 'x') return 4;
  if (next === 'c') return 3;
  if (next === 'u' || next === 'p' || next === 'P' || next === 'k') {
    const close = { u: '}', p: '}', P: '}', k: '>' }[next];
    const open = next === 'k' ? '<' : '{';
    if (text[at + 2] === open) {
      const end = text.indexOf(close, at + 3);
      return end < 0 ? 2 : end - at + 1;
    }
    return next === 'u' ? 6 : 2;
  }
  let length = 2;
  if (next !== undefined && /\d/.test(next)) while (/\d/.test(text[at + length] ?? '')) length++;
  return length;
}

/** The end of the character class opening at `at`. */
function classEnd(text: string, at: number): number {
  let index = at + 1;
  if (text[index] === ']') index++;
  while (index < text.length && text[index] !== ']') index += text[index] === '\\' ? escapeLength(text, index) : 1;
  return Math.min(index + 1, text.length);
}

/** `atom{min,max}` (max null: unbounded) in counts of at most LINEAR_COUNT_MAX. */
function repeated(atom: string, min: number, max: number | null, lazy: string): string {
  const pieces: string[] = [];
  // `{n,}` counts as n + 1 to the engine, so an unbounded rest keeps at most LINEAR_COUNT_MAX - 1.
  const restMax = max === null ? LINEAR_COUNT_MAX - 1 : LINEAR_COUNT_MAX;
  let required = min;
  for (; required > restMax; required -= LINEAR_COUNT_MAX) pieces.push(`${atom}{${LINEAR_COUNT_MAX}}`);
  if (max === null) return [...pieces, `${atom}{${required},}${lazy}`].join('');
  let optional = max - min;
  const head = Math.min(optional, LINEAR_COUNT_MAX - required);
  pieces.push(`${atom}{${required},${required + head}}${lazy}`);
  for (optional -= head; optional > 0; optional -= LINEAR_COUNT_MAX) {
    pieces.push(`${atom}{0,${Math.min(optional, LINEAR_COUNT_MAX)}}${lazy}`);
  }
  return pieces.join('');
}

const COUNT = /^\{(\d+)(,(\d*))?\}(\??)/;

/**
 * The pattern with every count above LINEAR_COUNT_MAX on a single atom (a character, an escape, a
 * class) split into counts the engine takes. A group's count is left as written: the engine
 * refuses it past 16, and says so.
 */
function withLinearCounts(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    const length = char === '\\' ? escapeLength(text, index) : char === '[' ? classEnd(text, index) - index : 1;
    const atom = text.slice(index, index + length);
    index += length;
    const count = '()|^$'.includes(char) && length === 1 ? null : COUNT.exec(text.slice(index));
    if (!count) {
      out += atom;
      continue;
    }
    const min = Number(count[1]);
    const max = count[2] === undefined ? min : count[3] === '' ? null : Number(count[3]);
    const large = max === null ? min >= LINEAR_COUNT_MAX : min > LINEAR_COUNT_MAX || max > LINEAR_COUNT_MAX;
    out += large && (max === null || max >= min) ? repeated(atom, min, max, count[4]!) : atom + count[0];
    index += count[0].length;
  }
  return out;
}

/** The compiled pattern, or why it cannot be one. */
export function linearPattern(text: string): RegExp | { problem: string } {
  try {
    return new RegExp(withLinearCounts(text), LINEAR);
  } catch (error) {
    try {
      new RegExp(text);
    } catch (plain) {
      return { problem: `Not a regular expression: ${(plain as Error).message}` };
    }
    const message = (error as Error).message;
    if (/flag/i.test(message)) return { problem: 'The linear-time regular expression engine is not enabled' };
    return {
      problem:
        'Not a regular expression that runs in time linear in the text (no backreferences, lookarounds, or a group counted more than 16 times)',
    };
  }
}
