/**
 * Command and option names (spec, Naming rules). CHAT_INPUT command names and all option names
 * follow the slash-command pattern in lowercase; the other command types only have a length.
 */
import { CommandType, type CommandTypeValue } from '../commands/model.js';
import type { IssuePath } from '../errors.js';
import { APPLICATION_COMMAND_INVALID_NAME } from './codes.js';
import { isAbsent, readString } from './json.js';
import { NAME_LENGTH_MAX, NAME_LENGTH_MIN } from './limits.js';
import { report, reportRequired, type Issues } from './report.js';
import { checkLength } from './text.js';

/** A rule one text field obeys; its localized values obey the same one. */
export type TextRule = (text: string, path: IssuePath, issues: Issues) => void;

/** The pattern's character class; its length part is checked on its own, in code points. */
const SLASH_NAME_CHARACTERS = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]*$/u;
/** Most names are plain ASCII; those need neither the Unicode pattern nor case mapping. */
const PLAIN_LOWERCASE_NAME = /^[-_'a-z0-9]*$/;

/** Every letter that has a lowercase variant is in it (uncased letters pass as they are). */
function isLowercase(name: string): boolean {
  for (const character of name) {
    if (character.toLowerCase() !== character) return false;
  }
  return true;
}

function hasSlashNameCharacters(name: string): boolean {
  if (PLAIN_LOWERCASE_NAME.test(name)) return true;
  return SLASH_NAME_CHARACTERS.test(name) && isLowercase(name);
}

/** CHAT_INPUT command names and option names. */
export const checkSlashName: TextRule = (name, path, issues) => {
  checkLength(name, NAME_LENGTH_MIN, NAME_LENGTH_MAX, path, issues);
  if (!hasSlashNameCharacters(name)) {
    report(issues, path, APPLICATION_COMMAND_INVALID_NAME, 'Command name is invalid');
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
