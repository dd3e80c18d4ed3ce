/**
 * Which option fields apply to which option type (v10 API, Application command option, "Applies to").
 * A field given on a type it does not apply to is an error, unless it says nothing.
 */
import { OptionType, type OptionTypeValue } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import { APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED } from '../io/codes.js';
import { fieldOf, isAbsent, type JsonRecord } from '../io/read.js';
import { report, type Issues } from '../io/report.js';
import { optionTypeName } from './values.js';

type TypeSpecificField =
  | 'required'
  | 'choices'
  | 'options'
  | 'channel_types'
  | 'min_value'
  | 'max_value'
  | 'min_length'
  | 'max_length'
  | 'autocomplete';

const TYPE_SPECIFIC_FIELDS: readonly TypeSpecificField[] = [
  'required',
  'choices',
  'options',
  'channel_types',
  'min_value',
  'max_value',
  'min_length',
  'max_length',
  'autocomplete',
];

/** The type-specific fields each option type takes (v10 API, "Applies to" column). */
const FIELDS_BY_TYPE: Readonly<Record<OptionTypeValue, readonly TypeSpecificField[]>> = {
  [OptionType.Subcommand]: ['options'],
  [OptionType.SubcommandGroup]: ['options'],
  [OptionType.String]: ['required', 'choices', 'min_length', 'max_length', 'autocomplete'],
  [OptionType.Integer]: ['required', 'choices', 'min_value', 'max_value', 'autocomplete'],
  [OptionType.Boolean]: ['required'],
  [OptionType.User]: ['required'],
  [OptionType.Channel]: ['required', 'channel_types'],
  [OptionType.Role]: ['required'],
  [OptionType.Mentionable]: ['required'],
  [OptionType.Number]: ['required', 'choices', 'min_value', 'max_value', 'autocomplete'],
  [OptionType.Attachment]: ['required'],
};

/**
 * Whether a field says anything. Clients that serialize every field send null, false or [] for
 * fields they do not use; those mean "not set" and are accepted on any type.
 */
function isSet(value: unknown): boolean {
  return !isAbsent(value) && value !== false && !(Array.isArray(value) && value.length === 0);
}

export function checkFieldsApply(record: JsonRecord, path: IssuePath, type: OptionTypeValue, issues: Issues): void {
  const allowed = FIELDS_BY_TYPE[type];
  for (const field of TYPE_SPECIFIC_FIELDS) {
    if (!allowed.includes(field) && isSet(fieldOf(record, field))) {
      report(
        issues,
        [...path, field],
        APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED,
        `This field is not allowed on options of type ${optionTypeName(type)}.`,
      );
    }
  }
}
