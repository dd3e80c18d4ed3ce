/**
 * The 8000-character budget of a CHAT_INPUT command (v10 API, Limits): names, descriptions and choice
 * values of the command, its options at every depth and their choices. Of a field and its
 * localizations only the longest variant counts.
 */
import type { ChoiceDefinition, CommandDefinition, OptionDefinition } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import type { LocalizationMap } from '../locales.js';
import { APPLICATION_COMMAND_TOO_LARGE } from '../io/codes.js';
import { COMMAND_SIZE_MAX } from './limits.js';
import { report, type Issues } from '../io/report.js';
import { codePointLength } from './text.js';

function longestVariant(text: string, localizations: LocalizationMap | null): number {
  let longest = codePointLength(text);
  if (localizations) {
    // Own keys only: an inherited enumerable key is never part of the client's command.
    for (const localized of Object.values(localizations)) {
      if (localized !== undefined) longest = Math.max(longest, codePointLength(localized));
    }
  }
  return longest;
}

/** Numeric values count as they are written in decimal. */
function choiceSize(choice: ChoiceDefinition): number {
  const value = typeof choice.value === 'string' ? choice.value : String(choice.value);
  return longestVariant(choice.name, choice.name_localizations) + codePointLength(value);
}

function optionSize(option: OptionDefinition): number {
  let size =
    longestVariant(option.name, option.name_localizations) +
    longestVariant(option.description, option.description_localizations);
  for (const choice of option.choices ?? []) size += choiceSize(choice);
  for (const child of option.options ?? []) size += optionSize(child);
  return size;
}

export function commandSize(command: CommandDefinition): number {
  let size =
    longestVariant(command.name, command.name_localizations) +
    longestVariant(command.description, command.description_localizations);
  for (const option of command.options) size += optionSize(option);
  return size;
}

/** Reported on the command as a whole: `errors._errors`, or `errors.<index>._errors` in a bulk body. */
export function checkCommandSize(command: CommandDefinition, path: IssuePath, issues: Issues): void {
  if (commandSize(command) > COMMAND_SIZE_MAX) {
    report(issues, path, APPLICATION_COMMAND_TOO_LARGE, `Command exceeds maximum size (${COMMAND_SIZE_MAX})`);
  }
}
