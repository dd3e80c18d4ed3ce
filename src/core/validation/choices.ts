/** Option choices (v10 API, Option choice): at most 25, each a name and a value of the option's type. */
import { OptionType, type ChoiceDefinition } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import { isAbsent, readList, readRecord, readString, fieldOf } from '../io/read.js';
import {
  CHOICE_NAME_LENGTH_MAX,
  CHOICE_NAME_LENGTH_MIN,
  CHOICE_STRING_VALUE_LENGTH_MAX,
  CHOICES_PER_OPTION_MAX,
} from './limits.js';
import { readLocalizations } from './localizations.js';
import { readName, type TextRule } from './names.js';
import { readOptionNumber } from './numbers.js';
import { reportRequired, reportTooLong, type Issues } from '../io/report.js';
import { checkLength } from './text.js';

/** The option types that take choices. */
export type ChoiceOptionType = typeof OptionType.String | typeof OptionType.Integer | typeof OptionType.Number;

export const checkChoiceName: TextRule = (name, path, issues) => {
  checkLength(name, CHOICE_NAME_LENGTH_MIN, CHOICE_NAME_LENGTH_MAX, path, issues);
};

function readStringChoiceValue(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  const text = readString(value, path, issues);
  if (text !== undefined) checkLength(text, 0, CHOICE_STRING_VALUE_LENGTH_MAX, path, issues);
  return text;
}

function readChoiceValue(
  value: unknown,
  path: IssuePath,
  type: ChoiceOptionType,
  issues: Issues,
): string | number | undefined {
  if (isAbsent(value)) {
    reportRequired(issues, path);
    return undefined;
  }
  return type === OptionType.String
    ? readStringChoiceValue(value, path, issues)
    : readOptionNumber(value, path, type, issues);
}

function readChoice(
  value: unknown,
  path: IssuePath,
  type: ChoiceOptionType,
  issues: Issues,
): ChoiceDefinition | undefined {
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const name = readName(fieldOf(record, 'name'), [...path, 'name'], checkChoiceName, issues);
  const nameLocalizations = readLocalizations(
    fieldOf(record, 'name_localizations'),
    [...path, 'name_localizations'],
    name,
    checkChoiceName,
    issues,
  );
  const choiceValue = readChoiceValue(fieldOf(record, 'value'), [...path, 'value'], type, issues);
  if (name === undefined || choiceValue === undefined) return undefined;
  return { name, name_localizations: nameLocalizations, value: choiceValue };
}

/** The valid choices; an empty list means none. */
export function readChoices(
  value: unknown,
  path: IssuePath,
  type: ChoiceOptionType,
  issues: Issues,
): ChoiceDefinition[] {
  const list = readList(value, path, issues);
  if (!list) return [];
  if (list.length > CHOICES_PER_OPTION_MAX) reportTooLong(issues, path, CHOICES_PER_OPTION_MAX);
  const choices: ChoiceDefinition[] = [];
  for (let index = 0; index < list.length; index++) {
    const choice = readChoice(list[index], [...path, index], type, issues);
    if (choice) choices.push(choice);
  }
  return choices;
}
