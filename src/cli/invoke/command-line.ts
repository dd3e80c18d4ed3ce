/**
 * The command as a user types it in the client: `/group sub opt:value other:"two words"`. Words
 * before the first `name:value` pair are the command's path; a word without a colon after a pair
 * continues that pair's value, so `/echo text:hello world` needs no quotes.
 */
import { UsageError } from '../usage.js';

export interface TypedCommand {
  /** The command's name, then its subcommand group and subcommand names, as typed. */
  path: string[];
  /** Option values as typed, in order; their types come from the command's definition. */
  options: { name: string; value: string }[];
}

/** Splits on spaces outside double or single quotes; the quotes themselves are dropped. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | null = null;
  let started = false;
  for (const character of text) {
    if (quote) {
      if (character === quote) quote = null;
      else current += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      started = true;
    } else if (/\s/.test(character)) {
      if (started || current) words.push(current);
      current = '';
      started = false;
    } else {
      current += character;
    }
  }
  if (quote) throw new UsageError(`unbalanced ${quote} in the command`);
  if (started || current) words.push(current);
  return words;
}

/** A `name:value` word: the option name is everything before the first colon. */
const OPTION_WORD = /^([^:\s]+):([\s\S]*)$/;

export function parseTypedCommand(text: string): TypedCommand {
  const words = splitWords(text.trim().replace(/^\//, ''));
  const typed: TypedCommand = { path: [], options: [] };
  for (const word of words) {
    const pair = OPTION_WORD.exec(word);
    const last = typed.options.at(-1);
    if (pair) typed.options.push({ name: pair[1]!, value: pair[2]! });
    else if (last) last.value = last.value === '' ? word : `${last.value} ${word}`;
    else typed.path.push(word);
  }
  if (typed.path.length === 0) throw new UsageError("no command: expected something like '/hello name:world'");
  return typed;
}
