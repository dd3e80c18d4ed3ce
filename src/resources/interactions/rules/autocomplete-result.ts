/**
 * The data of an APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (type 8): the suggestions for the focused
 * option, under the same rules as an option's registered choices (at most 25, names 1-100, values of
 * the option's type, strings up to 100) (docs/v10-behaviour.md#interactions). An empty list means "no suggestions".
 */
import { OptionType, type OptionDefinition } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { readChoices, type ChoiceOptionType } from '../../../core/validation/choices.js';
import { fieldOf, isAbsent, readRecord } from '../../../core/io/read.js';
import { reportRequired, type Issues } from '../../../core/io/report.js';

/**
 * The type suggestions must have. Without a known focused option (the caller lost it) the values
 * are checked as strings, the type most autocompleted options have.
 */
function suggestionType(focused: OptionDefinition | null): ChoiceOptionType {
  const type = focused?.type;
  return type === OptionType.Integer || type === OptionType.Number ? type : OptionType.String;
}

export function readAutocompleteResult(
  raw: unknown,
  focused: OptionDefinition | null,
  path: IssuePath,
  issues: Issues,
): Record<string, unknown> | undefined {
  if (isAbsent(raw)) {
    reportRequired(issues, path);
    return undefined;
  }
  const data = readRecord(raw, path, issues);
  if (!data) return undefined;
  const choicesPath = [...path, 'choices'];
  const rawChoices = fieldOf(data, 'choices');
  if (isAbsent(rawChoices)) {
    reportRequired(issues, choicesPath);
    return undefined;
  }
  return { choices: readChoices(rawChoices, choicesPath, suggestionType(focused), issues) };
}
