/**
 * The value of one filled-in option (not the one being autocompleted): its JSON type, then either
 * its choices or its bounds. Ids are only checked for shape here; `option-resolution.ts` looks them up.
 */
import { OptionType, type OptionDefinition } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { isSnowflake } from '../../../core/snowflake.js';
import { readBoolean, readInteger, readNumber, readString } from '../../../core/io/read.js';
import {
  INTEGER_VALUE_MAX,
  INTEGER_VALUE_MIN,
  NUMBER_VALUE_MAX,
  NUMBER_VALUE_MIN,
} from '../../../core/validation/limits.js';
import { checkRange } from '../../../core/validation/numbers.js';
import { report, reportNotSnowflake, type Issues } from '../../../core/io/report.js';
import { checkLength } from '../../../core/validation/text.js';
import { INTERACTION_OPTION_INVALID_CHOICE } from '../../../core/io/codes.js';
import { OPTION_STRING_VALUE_LENGTH_MAX } from '../../messages/rules/limits.js';

export type OptionValue = string | number | boolean;

/** The option types whose value is an id. */
const ID_OPTION_TYPES: ReadonlySet<number> = new Set([
  OptionType.User,
  OptionType.Channel,
  OptionType.Role,
  OptionType.Mentionable,
  OptionType.Attachment,
]);

export function isIdOptionType(type: number): boolean {
  return ID_OPTION_TYPES.has(type);
}

function hasChoices(option: OptionDefinition): boolean {
  return option.choices !== undefined && option.choices.length > 0;
}

/** Choices replace the bounds: they are "the only valid values a user can pick" (v10 API, Option choice). */
function checkChoice(value: string | number, option: OptionDefinition, path: IssuePath, issues: Issues): void {
  if (option.choices?.some((choice) => choice.value === value)) return;
  report(issues, path, INTERACTION_OPTION_INVALID_CHOICE, "Value is not one of the option's choices.");
}

function checkStringBounds(text: string, option: OptionDefinition, path: IssuePath, issues: Issues): void {
  checkLength(text, option.min_length ?? 0, option.max_length ?? OPTION_STRING_VALUE_LENGTH_MAX, path, issues);
}

/** The option's own `min_value`/`max_value`, checked once the value is within its type's range. */
function checkValueBounds(value: number, option: OptionDefinition, path: IssuePath, issues: Issues): void {
  checkRange(value, option.min_value ?? -Infinity, option.max_value ?? Infinity, path, issues);
}

function readStringValue(
  value: unknown,
  option: OptionDefinition,
  path: IssuePath,
  issues: Issues,
): string | undefined {
  const text = readString(value, path, issues);
  if (text === undefined) return undefined;
  if (hasChoices(option)) checkChoice(text, option, path, issues);
  else checkStringBounds(text, option, path, issues);
  return text;
}

/** INTEGER within ±(2^53 − 1), NUMBER finite within ±2^53 (v10 API, Option types); undefined when mistyped. */
export function readTypedNumber(value: unknown, type: number, path: IssuePath, issues: Issues): number | undefined {
  const isInteger = type === OptionType.Integer;
  const number = isInteger ? readInteger(value, path, issues) : readNumber(value, path, issues);
  if (number === undefined) return undefined;
  const before = issues.length;
  if (isInteger) checkRange(number, INTEGER_VALUE_MIN, INTEGER_VALUE_MAX, path, issues);
  else checkRange(number, NUMBER_VALUE_MIN, NUMBER_VALUE_MAX, path, issues);
  return issues.length === before ? number : undefined;
}

function readNumericValue(
  value: unknown,
  option: OptionDefinition,
  path: IssuePath,
  issues: Issues,
): number | undefined {
  const number = readTypedNumber(value, option.type, path, issues);
  if (number === undefined) return undefined;
  if (hasChoices(option)) checkChoice(number, option, path, issues);
  else checkValueBounds(number, option, path, issues);
  return number;
}

function readIdValue(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if (isSnowflake(value)) return value;
  reportNotSnowflake(issues, path, value);
  return undefined;
}

/** A filled-in option's value, typed; undefined when its type is wrong (the issue is reported). */
export function readOptionValue(
  value: unknown,
  option: OptionDefinition,
  path: IssuePath,
  issues: Issues,
): OptionValue | undefined {
  switch (option.type) {
    case OptionType.String:
      return readStringValue(value, option, path, issues);
    case OptionType.Integer:
    case OptionType.Number:
      return readNumericValue(value, option, path, issues);
    case OptionType.Boolean:
      return readBoolean(value, path, issues);
    default:
      return isIdOptionType(option.type) ? readIdValue(value, path, issues) : undefined;
  }
}
