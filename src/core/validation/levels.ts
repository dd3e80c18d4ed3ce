/**
 * Rules over one level of options (the command's, a group's or a subcommand's list): what it may
 * hold, unique names in every locale, and required options first.
 */
import { OptionType, type OptionDefinition } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import {
  APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME,
  APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
  APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
} from '../io/codes.js';
import { report, type Issues } from '../io/report.js';

/** What owns an options list, which decides what the list may hold. */
export type Level = 'command' | 'group' | 'subcommand';

/** One entry per list item; undefined where the item is too broken to take part (no object, no type). */
export type LevelEntries = readonly (OptionDefinition | undefined)[];

export function isSubcommandLike(option: OptionDefinition): boolean {
  return option.type === OptionType.Subcommand || option.type === OptionType.SubcommandGroup;
}

/** A command's own list holds either subcommands and groups, or plain options, never both. */
function checkCommandLevelKinds(entries: LevelEntries, path: IssuePath, issues: Issues): void {
  const defined = entries.filter((entry): entry is OptionDefinition => entry !== undefined);
  if (defined.some(isSubcommandLike) && !defined.every(isSubcommandLike)) {
    report(
      issues,
      path,
      APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
      'Sub-command and sub-command group option types are mutually exclusive to all other types',
    );
  }
}

function checkGroupHoldsSubcommands(entries: LevelEntries, path: IssuePath, issues: Issues): void {
  entries.forEach((entry, index) => {
    if (entry && entry.type !== OptionType.Subcommand) {
      report(
        issues,
        [...path, index, 'type'],
        APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
        'A sub-command group may only contain sub-commands',
      );
    }
  });
}

function checkSubcommandHoldsPlainOptions(entries: LevelEntries, path: IssuePath, issues: Issues): void {
  entries.forEach((entry, index) => {
    if (entry && isSubcommandLike(entry)) {
      report(
        issues,
        [...path, index, 'type'],
        APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
        'A sub-command may not contain sub-commands or sub-command groups',
      );
    }
  });
}

export function checkLevelKinds(entries: LevelEntries, path: IssuePath, level: Level, issues: Issues): void {
  if (level === 'command') checkCommandLevelKinds(entries, path, issues);
  else if (level === 'group') checkGroupHoldsSubcommands(entries, path, issues);
  else checkSubcommandHoldsPlainOptions(entries, path, issues);
}

/** The second and later options with a name already used on the level are reported at their name. */
export function checkUniqueNames(entries: LevelEntries, path: IssuePath, issues: Issues): void {
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (!entry || entry.name === '') return;
    if (seen.has(entry.name)) {
      report(
        issues,
        [...path, index, 'name'],
        APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME,
        'Application command option names must be unique',
      );
    }
    seen.add(entry.name);
  });
}

/**
 * A localized option name differs from every default option name on the level and from every
 * other option name in that locale on the level (v10 API, Localization rule 3).
 */
export function checkUniqueLocalizedNames(entries: LevelEntries, path: IssuePath, issues: Issues): void {
  if (!entries.some((entry) => entry?.name_localizations)) return;
  const defaultNames = new Set<string>();
  for (const entry of entries) if (entry && entry.name !== '') defaultNames.add(entry.name);
  /** "locale name" pairs seen so far; a space cannot occur in a locale or in an option name. */
  const localizedNames = new Set<string>();
  entries.forEach((entry, index) => {
    const localizations = entry?.name_localizations;
    if (!localizations) return;
    for (const [locale, name] of Object.entries(localizations)) {
      if (name === undefined) continue;
      const key = `${locale} ${name}`;
      if (defaultNames.has(name) || localizedNames.has(key)) {
        report(
          issues,
          [...path, index, 'name_localizations', locale],
          APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME,
          'Localized option names must differ from every option name on the same level',
        );
      }
      localizedNames.add(key);
    }
  });
}

/** Every required option after an optional one is reported at its `required`. */
export function checkRequiredFirst(entries: LevelEntries, path: IssuePath, issues: Issues): void {
  let optionalSeen = false;
  entries.forEach((entry, index) => {
    if (entry?.required === undefined) return;
    if (!entry.required) optionalSeen = true;
    else if (optionalSeen) {
      report(
        issues,
        [...path, index, 'required'],
        APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
        'Required options must be placed before non-required options',
      );
    }
  });
}
