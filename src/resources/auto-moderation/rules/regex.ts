/**
 * `regex_patterns` are Rust regex syntax (v10: the `regex` crate). slashd runs them with
 * JavaScript's engine, so a pattern is read once here: refused where Rust refuses it (lookaround,
 * backreferences, atomic groups: the crate has none of them), translated where the two spell the
 * same thing differently (`(?P<name>`, `\A`, `\z`, a leading `(?i)`, `[]...]`), then compiled.
 * Pure: what runs the compiled pattern (with its time bound) is the service's.
 */

/** A pattern as JavaScript runs it: its source and flags (always `u`, and `i`: matching ignores case). */
export interface CompiledPattern {
  source: string;
  flags: string;
}

/** Why Rust's regex crate refuses a pattern, or the pattern as JavaScript runs it. */
export type PatternReading = { kind: 'pattern'; pattern: CompiledPattern } | { kind: 'refused'; reason: string };

/** Inline flags Rust takes; only i, m and s have a JavaScript flag, and only at the pattern's start. */
const RUST_FLAGS = /^\(\?([imsUux-]+)([:)])/;

function refused(reason: string): PatternReading {
  return { kind: 'refused', reason };
}

/** Reads a Rust pattern: the JavaScript pattern that matches as it does, or why Rust refuses it. */
export function readRustPattern(pattern: string): PatternReading {
  const flags = new Set(['u', 'i']);
  let rest = pattern;
  const leading = RUST_FLAGS.exec(rest);
  if (leading && leading[2] === ')' && /^[ims]+$/.test(leading[1]!)) {
    for (const flag of leading[1]!) flags.add(flag);
    rest = rest.slice(leading[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === '\\') {
      const next = rest[i + 1];
      if (next === undefined) return refused('the pattern ends with a lone backslash');
      if (!inClass && /[1-9]/.test(next)) return refused('backreferences are not supported');
      if (!inClass && next === 'k' && rest[i + 2] === '<') return refused('backreferences are not supported');
      if (!inClass && next === 'A') out += '^';
      else if (!inClass && next === 'z') out += '$';
      else if (next === 'Z') return refused('\\Z is not a Rust escape');
      else if ('#&~'.includes(next) || (next === '-' && !inClass)) out += `\\x${next.charCodeAt(0).toString(16)}`;
      else if ((next === 'p' || next === 'P') && rest[i + 2] !== undefined && /[A-Za-z]/.test(rest[i + 2]!)) {
        // Rust's one-letter class (`\pL`): JavaScript spells it with braces.
        out += `\\${next}{${rest[i + 2]!}}`;
        i += 2;
        continue;
      } else if (next === 'x' && rest[i + 2] === '{') out += '\\u';
      else out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A `]` first in a class (after `^`) is a literal in Rust; JavaScript reads it as the class's end.
      if (rest[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (rest[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && rest[i + 1] === '?') {
      const head = rest.slice(i, i + 4);
      if (head.startsWith('(?=') || head.startsWith('(?!') || head.startsWith('(?<=') || head.startsWith('(?<!')) {
        return refused('look-around, including look-ahead and look-behind, is not supported');
      }
      if (head.startsWith('(?>')) return refused('atomic groups are not supported');
      if (head.startsWith('(?P<')) {
        out += '(?<';
        i += 3;
        continue;
      }
      if (head.startsWith('(?<') || head.startsWith('(?:')) {
        out += rest.slice(i, i + 3);
        i += 2;
        continue;
      }
      const inline = RUST_FLAGS.exec(rest.slice(i));
      if (inline) return refused(`slashd runs inline flags only as a leading (?i), (?m) or (?s): ${inline[0]}`);
      return refused('unrecognized flag or group');
    }
    out += c;
  }
  if (inClass) return refused('unclosed character class');
  const compiled = { source: out, flags: [...flags].sort().join('') };
  try {
    new RegExp(compiled.source, compiled.flags);
  } catch (error) {
    return refused(error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : 'invalid');
  }
  return { kind: 'pattern', pattern: compiled };
}
