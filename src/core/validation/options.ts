/**
 * Command options (v10 API, Application command option). Each type-specific field is accepted only on
 * the types it applies to; a subcommand or group carries a nested list, checked level by level.
 */
import { OptionType, type OptionDefinition, type OptionTypeValue } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import { readLengthBounds, readValueBounds } from './bounds.js';
import { readChoices, type ChoiceOptionType } from './choices.js';
import { APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES } from '../io/codes.js';
import { checkDescription, readRequiredDescription } from './descriptions.js';
import { fieldOf, isAbsent, readBoolean, readInteger, readList, readRecord, type JsonRecord } from '../io/read.js';
import {
  checkLevelKinds,
  checkRequiredFirst,
  checkUniqueLocalizedNames,
  checkUniqueNames,
  type Level,
  type LevelEntries,
} from './levels.js';
import { OPTION_DEPTH_MAX, OPTIONS_PER_LEVEL_MAX } from './limits.js';
import { readEnumList } from './lists.js';
import { readLocalizations } from './localizations.js';
import { checkSlashName, readName } from './names.js';
import { checkFieldsApply } from './option-fields.js';
import { report, reportNotOneOf, reportRequired, reportTooLong, type Issues } from '../io/report.js';
import { CHANNEL_TYPES, isOptionType, OPTION_TYPES } from './values.js';

function readOptionType(value: unknown, path: IssuePath, issues: Issues): OptionTypeValue | undefined {
  if (isAbsent(value)) {
    reportRequired(issues, path);
    return undefined;
  }
  const type = readInteger(value, path, issues);
  if (type === undefined) return undefined;
  if (isOptionType(type)) return type;
  reportNotOneOf(issues, path, OPTION_TYPES);
  return undefined;
}

/** An option while it is read: each rule fills in its fields, then it is returned read-only. */
type OptionDraft = { -readonly [K in keyof OptionDefinition]: OptionDefinition[K] };

function readFlag(record: JsonRecord, field: string, path: IssuePath, issues: Issues): boolean {
  const value = fieldOf(record, field);
  if (isAbsent(value)) return false;
  return readBoolean(value, [...path, field], issues) ?? false;
}

function isChoiceType(type: OptionTypeValue): type is ChoiceOptionType {
  return type === OptionType.String || type === OptionType.Integer || type === OptionType.Number;
}

/** Choices and autocomplete, which exclude each other. */
function readSuggestions(
  record: JsonRecord,
  path: IssuePath,
  type: ChoiceOptionType,
  option: OptionDraft,
  issues: Issues,
): void {
  const rawChoices = fieldOf(record, 'choices');
  const choices = isAbsent(rawChoices) ? [] : readChoices(rawChoices, [...path, 'choices'], type, issues);
  const hasChoices = Array.isArray(rawChoices) && rawChoices.length > 0;
  if (choices.length > 0) option.choices = choices;
  const autocomplete = readFlag(record, 'autocomplete', path, issues);
  if (autocomplete && hasChoices) {
    report(
      issues,
      [...path, 'autocomplete'],
      APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES,
      'Autocomplete cannot be enabled on an option with choices',
    );
  }
  // Kept only when on, as v10 returns it; discord.js compares it strictly when deciding to redeploy.
  if (autocomplete) option.autocomplete = true;
}

function readChannelTypes(record: JsonRecord, path: IssuePath, option: OptionDraft, issues: Issues): void {
  const value = fieldOf(record, 'channel_types');
  if (isAbsent(value)) return;
  const channelTypes = readEnumList(value, [...path, 'channel_types'], CHANNEL_TYPES, 0, issues);
  if (channelTypes && channelTypes.length > 0) option.channel_types = channelTypes;
}

/** The fields of a plain (non-subcommand) option that depend on its type. */
function readPlainOptionFields(record: JsonRecord, path: IssuePath, option: OptionDraft, issues: Issues): void {
  const type = option.type;
  option.required = readFlag(record, 'required', path, issues);
  if (isChoiceType(type)) readSuggestions(record, path, type, option, issues);
  if (type === OptionType.String) {
    const { min, max } = readLengthBounds(record, path, issues);
    if (min !== undefined) option.min_length = min;
    if (max !== undefined) option.max_length = max;
  }
  if (type === OptionType.Integer || type === OptionType.Number) {
    const { min, max } = readValueBounds(record, path, type, issues);
    if (min !== undefined) option.min_value = min;
    if (max !== undefined) option.max_value = max;
  }
  if (type === OptionType.Channel) readChannelTypes(record, path, option, issues);
}

/**
 * One option at `depth` (the command's own list is depth 1). Undefined when it is not an object or
 * has no valid type; otherwise a best-effort definition even when some fields are wrong.
 */
function readOption(value: unknown, path: IssuePath, depth: number, issues: Issues): OptionDefinition | undefined {
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const type = readOptionType(fieldOf(record, 'type'), [...path, 'type'], issues);
  const name = readName(fieldOf(record, 'name'), [...path, 'name'], checkSlashName, issues) ?? '';
  const nameLocalizations = readLocalizations(
    fieldOf(record, 'name_localizations'),
    [...path, 'name_localizations'],
    name,
    checkSlashName,
    issues,
  );
  const description = readRequiredDescription(fieldOf(record, 'description'), [...path, 'description'], issues) ?? '';
  const descriptionLocalizations = readLocalizations(
    fieldOf(record, 'description_localizations'),
    [...path, 'description_localizations'],
    description,
    checkDescription,
    issues,
  );
  if (type === undefined) return undefined;
  checkFieldsApply(record, path, type, issues);
  const option: OptionDraft = {
    type,
    name,
    name_localizations: nameLocalizations,
    description,
    description_localizations: descriptionLocalizations,
  };
  if (type === OptionType.Subcommand || type === OptionType.SubcommandGroup) {
    const level: Level = type === OptionType.Subcommand ? 'subcommand' : 'group';
    // Deeper lists only exist under misplaced subcommands, already reported at their type.
    const children =
      depth < OPTION_DEPTH_MAX
        ? readOptionList(fieldOf(record, 'options'), [...path, 'options'], level, depth + 1, issues)
        : [];
    // Like choices and channel types, an empty list is left out, as v10 returns it.
    if (children.length > 0) option.options = children;
  } else {
    readPlainOptionFields(record, path, option, issues);
  }
  return option;
}

/** An options list owned by `level`; null and omitted mean an empty list. */
export function readOptionList(
  value: unknown,
  path: IssuePath,
  level: Level,
  depth: number,
  issues: Issues,
): OptionDefinition[] {
  if (isAbsent(value)) return [];
  const list = readList(value, path, issues);
  if (!list) return [];
  if (list.length > OPTIONS_PER_LEVEL_MAX) reportTooLong(issues, path, OPTIONS_PER_LEVEL_MAX);
  // Array.from, unlike map, visits the holes of a sparse array (as undefined).
  const entries: LevelEntries = Array.from(list, (entry, index) => readOption(entry, [...path, index], depth, issues));
  checkLevelKinds(entries, path, level, issues);
  checkUniqueNames(entries, path, issues);
  checkUniqueLocalizedNames(entries, path, issues);
  checkRequiredFirst(entries, path, issues);
  return entries.filter((entry): entry is OptionDefinition => entry !== undefined);
}
