/**
 * Descriptions (v10 API, Application command; docs/v10-behaviour.md#compatibility-decisions). CHAT_INPUT commands and every
 * option need one; USER and MESSAGE commands may not have one ("" and null count as none);
 * a PRIMARY_ENTRY_POINT command may have one.
 */
import { CommandType, type CommandTypeValue } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import type { LocalizationMap } from '../locales.js';
import { APPLICATION_COMMAND_FIELD_NOT_ALLOWED } from '../io/codes.js';
import { isAbsent, readString } from '../io/read.js';
import { DESCRIPTION_LENGTH_MAX, DESCRIPTION_LENGTH_MIN } from './limits.js';
import { hasLocalizedValues, readLocalizations } from './localizations.js';
import type { TextRule } from './names.js';
import { report, reportRequired, type Issues } from '../io/report.js';
import { checkLength } from './text.js';
import { commandTypeName } from './values.js';

export const checkDescription: TextRule = (text, path, issues) => {
  checkLength(text, DESCRIPTION_LENGTH_MIN, DESCRIPTION_LENGTH_MAX, path, issues);
};

export function readRequiredDescription(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if (isAbsent(value)) {
    reportRequired(issues, path);
    return undefined;
  }
  const text = readString(value, path, issues);
  if (text !== undefined) checkDescription(text, path, issues);
  return text;
}

/** PRIMARY_ENTRY_POINT: "" and null mean none; anything else is a description like any other. */
export function readOptionalDescription(value: unknown, path: IssuePath, issues: Issues): string {
  if (isAbsent(value) || value === '') return '';
  const text = readString(value, path, issues);
  if (text === undefined) return '';
  checkDescription(text, path, issues);
  return text;
}

function reportNotAllowedOnType(issues: Issues, path: IssuePath, type: CommandTypeValue): void {
  report(
    issues,
    path,
    APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
    `This field is not allowed on ${commandTypeName(type)} commands.`,
  );
}

/** USER and MESSAGE: only "", null or nothing. */
export function readForbiddenDescription(
  value: unknown,
  path: IssuePath,
  type: CommandTypeValue,
  issues: Issues,
): string {
  if (!isAbsent(value) && value !== '') reportNotAllowedOnType(issues, path, type);
  return '';
}

export interface DescriptionFields {
  description: string;
  description_localizations: LocalizationMap | null;
}

/** A command's description and its localizations, by the rules of its type. */
export function readCommandDescription(
  description: unknown,
  localizations: unknown,
  path: IssuePath,
  type: CommandTypeValue,
  issues: Issues,
): DescriptionFields {
  const localizationsPath = [...path, 'description_localizations'];
  if (type === CommandType.User || type === CommandType.Message) {
    if (hasLocalizedValues(localizations)) reportNotAllowedOnType(issues, localizationsPath, type);
    return {
      description: readForbiddenDescription(description, [...path, 'description'], type, issues),
      description_localizations: null,
    };
  }
  const text =
    type === CommandType.ChatInput
      ? (readRequiredDescription(description, [...path, 'description'], issues) ?? '')
      : readOptionalDescription(description, [...path, 'description'], issues);
  return {
    description: text,
    description_localizations: readLocalizations(localizations, localizationsPath, text, checkDescription, issues),
  };
}
