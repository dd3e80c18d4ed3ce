/**
 * Command and option names (v10 API, Naming rules). CHAT_INPUT command names and all option names
 * follow the slash-command pattern in lowercase; the other command types only have a length.
 */
import { CommandType, type CommandTypeValue } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import { APPLICATION_COMMAND_INVALID_NAME } from '../io/codes.js';
import { isAbsent, readString } from '../io/read.js';
import { NAME_LENGTH_MAX, NAME_LENGTH_MIN } from './limits.js';
import { report, reportRequired, type Issues } from '../io/report.js';
import { checkLength } from './text.js';

/** A rule one text field obeys; its localized values obey the same one. */
export type TextRule = (text: string, path: IssuePath, issues: Issues) => void;

/** Most names are plain ASCII; those need neither the Unicode pattern nor case mapping. */
const PLAIN_LOWERCASE_NAME = /^[-_'a-z0-9]*$/;

/** The pattern's single-character class: a name may hold only these. */
const SLASH_NAME_CHARACTER = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]$/u;

/** The first character of a letter that has a lowercase variant and is not in it, if any. */
function firstNotLowercase(name: string): string | undefined {
  for (const character of name) {
    if (character.toLowerCase() !== character) return character;
  }
  return undefined;
}

function firstNotAllowed(name: string): string | undefined {
  for (const character of name) {
    if (!SLASH_NAME_CHARACTER.test(character)) return character;
  }
  return undefined;
}

/** Why a name breaks the slash-command pattern, in words; undefined when it does not. */
export function slashNameProblem(name: string): string | undefined {
  if (PLAIN_LOWERCASE_NAME.test(name)) return undefined;
  const notAllowed = firstNotAllowed(name);
  if (notAllowed !== undefined) {
    return `${JSON.stringify(notAllowed)} is a character that is not allowed (letters, numbers, - _ and ' only)`;
  }
  const upper = firstNotLowercase(name);
  return upper === undefined ? undefined : `it must be lower case (${JSON.stringify(upper)} is not)`;
}

/** CHAT_INPUT command names and option names. */
export const checkSlashName: TextRule = (name, path, issues) => {
  checkLength(name, NAME_LENGTH_MIN, NAME_LENGTH_MAX, path, issues);
  const problem = slashNameProblem(name);
  if (problem !== undefined) {
    report(issues, path, APPLICATION_COMMAND_INVALID_NAME, `Command name is invalid: ${problem}`);
  }
};

/** USER, MESSAGE and PRIMARY_ENTRY_POINT names: any characters, mixed case and spaces included. */
export const checkFreeformName: TextRule = (name, path, issues) => {
  checkLength(name, NAME_LENGTH_MIN, NAME_LENGTH_MAX, path, issues);
};

export function nameRuleFor(type: CommandTypeValue): TextRule {
  return type === CommandType.ChatInput ? checkSlashName : checkFreeformName;
}

/**
 * A required name. The string comes back even when it breaks its rule, so that later rules
 * (uniqueness, localizations equal to it) still see it.
 */
export function readName(value: unknown, path: IssuePath, rule: TextRule, issues: Issues): string | undefined {
  if (isAbsent(value)) {
    reportRequired(issues, path);
    return undefined;
  }
  const name = readString(value, path, issues);
  if (name !== undefined) rule(name, path, issues);
  return name;
}
