/**
 * Integers a JSON number cannot hold exactly. discord.py sends snowflakes as JSON integers
 * (`message_reference.message_id`, a bulk delete's `messages`, `allowed_mentions.users`); v10 reads
 * them exactly, while JavaScript's JSON.parse rounds anything past 2^53. Before parsing, such an
 * integer literal is rewritten as a string of its digits, so the id arrives as the snowflake string
 * every reader expects. Numbers inside strings, fractions and exponents are left as they are.
 */

const DIGIT = /[0-9]/;
const NUMBER_LITERAL = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** True for an integer literal (no fraction, no exponent) whose value is not a safe integer. */
function isUnsafeInteger(literal: string, fraction: string | undefined, exponent: string | undefined): boolean {
  return fraction === undefined && exponent === undefined && !Number.isSafeInteger(Number(literal));
}

/** The end of the string literal that opens at `start` (the index after its closing quote). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** `text` with every integer literal past 2^53 in magnitude quoted; any other text unchanged. */
export function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let copied = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"') {
      at = stringEnd(text, at);
      continue;
    }
    if (char !== '-' && !DIGIT.test(char)) {
      at += 1;
      continue;
    }
    NUMBER_LITERAL.lastIndex = at;
    const match = NUMBER_LITERAL.exec(text);
    if (!match) {
      at += 1;
      continue;
    }
    const end = at + match[0].length;
    if (isUnsafeInteger(match[0], match[1], match[2])) {
      out += `${text.slice(copied, at)}"${match[0]}"`;
      copied = end;
    }
    at = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
