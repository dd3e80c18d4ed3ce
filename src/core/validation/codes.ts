/**
 * The string codes validation emits (the `code` of a 50035 `_errors` entry). The first three are
 * documented v10 codes; the rest are named in the same style (docs/v10-behaviour.md#errors) and listed in
 * docs/errors.md.
 */

/** A required field is missing or null. */
export const BASE_TYPE_REQUIRED = 'BASE_TYPE_REQUIRED';
/** A value is not one of an enumeration's members. */
export const BASE_TYPE_CHOICES = 'BASE_TYPE_CHOICES';
/** A CHAT_INPUT command's names, descriptions and choice values exceed 8000 characters. */
export const APPLICATION_COMMAND_TOO_LARGE = 'APPLICATION_COMMAND_TOO_LARGE';

/** A key that names the prototype machinery (`__proto__`, `constructor`, `prototype`); defined with the records it protects. */
export { DICT_TYPE_INVALID_KEY } from '../records.js';

/** A string or list is shorter or longer than its bounds allow. */
export const BASE_TYPE_BAD_LENGTH = 'BASE_TYPE_BAD_LENGTH';
/** A string or list is longer than its maximum (it has no minimum). */
export const BASE_TYPE_MAX_LENGTH = 'BASE_TYPE_MAX_LENGTH';
/** A list is shorter than its minimum (it has no maximum). */
export const BASE_TYPE_MIN_LENGTH = 'BASE_TYPE_MIN_LENGTH';

/** Expected a string. */
export const STRING_TYPE_CONVERT = 'STRING_TYPE_CONVERT';
/** Expected a number, an integer, or a snowflake. */
export const NUMBER_TYPE_COERCE = 'NUMBER_TYPE_COERCE';
/** A number is above its maximum. */
export const NUMBER_TYPE_MAX = 'NUMBER_TYPE_MAX';
/** A number is below its minimum. */
export const NUMBER_TYPE_MIN = 'NUMBER_TYPE_MIN';
/** Expected a boolean. */
export const BOOLEAN_TYPE_CONVERT = 'BOOLEAN_TYPE_CONVERT';
/** Expected an object. */
export const DICT_TYPE_CONVERT = 'DICT_TYPE_CONVERT';
/** Expected an array. */
export const LIST_TYPE_CONVERT = 'LIST_TYPE_CONVERT';
/** A list that must hold distinct values holds one twice. */
export const LIST_TYPE_DUPLICATE_VALUE = 'LIST_TYPE_DUPLICATE_VALUE';

/** A CHAT_INPUT command or option name breaks the naming pattern or uses an uppercase letter. */
export const APPLICATION_COMMAND_INVALID_NAME = 'APPLICATION_COMMAND_INVALID_NAME';
/** A command-level field is given on a command type it does not apply to. */
export const APPLICATION_COMMAND_FIELD_NOT_ALLOWED = 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED';
/** An option field is given on an option type it does not apply to. */
export const APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED = 'APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED';
/** Two options on one level share a name (default or localized). */
export const APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME = 'APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME';
/** A required option follows an optional one. */
export const APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID = 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID';
/** Subcommands and groups are mixed with other options, or nested where they may not be. */
export const APPLICATION_COMMAND_OPTIONS_TYPE_INVALID = 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID';
/** `min_value` above `max_value`, or `min_length` above `max_length`. */
export const APPLICATION_COMMAND_OPTION_RANGE_INVALID = 'APPLICATION_COMMAND_OPTION_RANGE_INVALID';
/** `autocomplete: true` on an option that has choices. */
export const APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES = 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES';
/** An integration type the application does not support. */
export const APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED = 'APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED';
/** PRIVATE_CHANNEL in `contexts` without USER_INSTALL in `integration_types`. */
export const APPLICATION_COMMAND_CONTEXT_PRIVATE_CHANNEL_INVALID =
  'APPLICATION_COMMAND_CONTEXT_PRIVATE_CHANNEL_INVALID';
/** `nsfw: true` on a command of an application with discovery enabled. */
export const APPLICATION_COMMAND_NSFW_DISCOVERABLE = 'APPLICATION_COMMAND_NSFW_DISCOVERABLE';
/** A PRIMARY_ENTRY_POINT command for an application without the EMBEDDED flag. */
export const APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED = 'APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED';
/** A PRIMARY_ENTRY_POINT command in a guild. */
export const APPLICATION_COMMAND_ENTRY_POINT_GUILD = 'APPLICATION_COMMAND_ENTRY_POINT_GUILD';
/** PATCH names a type other than the command's. */
export const APPLICATION_COMMAND_TYPE_IMMUTABLE = 'APPLICATION_COMMAND_TYPE_IMMUTABLE';
/** Two commands of one type in a bulk overwrite share a name. */
export const APPLICATION_COMMANDS_DUPLICATE_NAME = 'APPLICATION_COMMANDS_DUPLICATE_NAME';
/** Two commands in a bulk overwrite share an id. */
export const APPLICATION_COMMANDS_DUPLICATE_ID = 'APPLICATION_COMMANDS_DUPLICATE_ID';

/** Every code above, for documentation and tests. */
export const VALIDATION_CODES: readonly string[] = [
  BASE_TYPE_REQUIRED,
  BASE_TYPE_CHOICES,
  APPLICATION_COMMAND_TOO_LARGE,
  BASE_TYPE_BAD_LENGTH,
  BASE_TYPE_MAX_LENGTH,
  BASE_TYPE_MIN_LENGTH,
  STRING_TYPE_CONVERT,
  NUMBER_TYPE_COERCE,
  NUMBER_TYPE_MAX,
  NUMBER_TYPE_MIN,
  BOOLEAN_TYPE_CONVERT,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  LIST_TYPE_DUPLICATE_VALUE,
  APPLICATION_COMMAND_INVALID_NAME,
  APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
  APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED,
  APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME,
  APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
  APPLICATION_COMMAND_OPTIONS_TYPE_INVALID,
  APPLICATION_COMMAND_OPTION_RANGE_INVALID,
  APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES,
  APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED,
  APPLICATION_COMMAND_CONTEXT_PRIVATE_CHANNEL_INVALID,
  APPLICATION_COMMAND_NSFW_DISCOVERABLE,
  APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED,
  APPLICATION_COMMAND_ENTRY_POINT_GUILD,
  APPLICATION_COMMAND_TYPE_IMMUTABLE,
  APPLICATION_COMMANDS_DUPLICATE_NAME,
  APPLICATION_COMMANDS_DUPLICATE_ID,
];
