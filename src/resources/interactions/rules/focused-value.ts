/**
 * The value of the option being autocompleted: the user's partial input (v10 API, "Interactions
 * received by the app", Autocomplete). Partial strings pass whatever their length and choices;
 * numbers must still be numbers of the option's type, as the client only sends input that passes
 * its own check. Bounds (`min_value`, `max_length`, choices) are not applied: "1" on the way to
 * "150" must reach the app even when `min_value` is 100.
 *
 * Decision: v10 clients send a focused INTEGER or NUMBER as the text typed so far, so slashd
 * accepts a JSON number of the option's type, the empty string (nothing typed yet), or a string
 * that reads as such a number; the app always receives the value as a string, as v10 delivers it.
 */
import { OptionType, type OptionDefinition } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { readString } from '../../../core/io/read.js';
import { reportNotInteger, reportNotNumber, type Issues } from '../../../core/io/report.js';
import { readTypedNumber } from './option-values.js';

/** Digits with an optional sign: what an INTEGER input may hold. */
const INTEGER_TEXT = /^[+-]?\d+$/;
/** A decimal with an optional fraction and exponent: what a NUMBER input may hold. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function readNumericText(text: string, type: number, path: IssuePath, issues: Issues): string | undefined {
  if (text === '') return text;
  const pattern = type === OptionType.Integer ? INTEGER_TEXT : NUMBER_TEXT;
  if (!pattern.test(text)) {
    if (type === OptionType.Integer) reportNotInteger(issues, path, text);
    else reportNotNumber(issues, path, text);
    return undefined;
  }
  return readTypedNumber(Number(text), type, path, issues) === undefined ? undefined : text;
}

function readFocusedNumber(value: unknown, type: number, path: IssuePath, issues: Issues): string | undefined {
  if (typeof value === 'string') return readNumericText(value, type, path, issues);
  const number = readTypedNumber(value, type, path, issues);
  return number === undefined ? undefined : String(number);
}

/** The focused value as the app receives it (a string); undefined when it is not valid partial input. */
export function readFocusedValue(
  value: unknown,
  option: OptionDefinition,
  path: IssuePath,
  issues: Issues,
): string | undefined {
  if (option.type === OptionType.Integer || option.type === OptionType.Number) {
    return readFocusedNumber(value, option.type, path, issues);
  }
  return readString(value, path, issues);
}
