/**
 * Every number the validation rules depend on, one constant each (v10 API, Limits; docs/v10-behaviour.md#endpoints).
 * Lengths count Unicode code points, not UTF-16 units.
 */

/** Fewest characters in a command or option name. */
export const NAME_LENGTH_MIN = 1;
/** Most characters in a command or option name. */
export const NAME_LENGTH_MAX = 32;

/** Fewest characters in a description where one is required. */
export const DESCRIPTION_LENGTH_MIN = 1;
/** Most characters in a command or option description. */
export const DESCRIPTION_LENGTH_MAX = 100;

/** Most options on one level of a command (the command, a group or a subcommand). */
export const OPTIONS_PER_LEVEL_MAX = 25;
/** Deepest options list: command → group → subcommand → its options. */
export const OPTION_DEPTH_MAX = 3;

/** Most choices on one option. */
export const CHOICES_PER_OPTION_MAX = 25;
/** Fewest characters in a choice name. */
export const CHOICE_NAME_LENGTH_MIN = 1;
/** Most characters in a choice name. */
export const CHOICE_NAME_LENGTH_MAX = 100;
/** Most characters in a string choice value (the OpenAPI document's 6000 is wrong: docs/v10-behaviour.md#the-openapi-document). */
export const CHOICE_STRING_VALUE_LENGTH_MAX = 100;

/** Smallest value an INTEGER option or choice may hold: -(2^53 - 1). */
export const INTEGER_VALUE_MIN = -Number.MAX_SAFE_INTEGER;
/** Largest value an INTEGER option or choice may hold: 2^53 - 1. */
export const INTEGER_VALUE_MAX = Number.MAX_SAFE_INTEGER;
/** Smallest value a NUMBER option or choice may hold: -2^53. */
export const NUMBER_VALUE_MIN = -(2 ** 53);
/** Largest value a NUMBER option or choice may hold: 2^53. */
export const NUMBER_VALUE_MAX = 2 ** 53;

/** Lowest `min_length` of a STRING option. */
export const MIN_LENGTH_LOWEST = 0;
/** Highest `min_length` of a STRING option. */
export const MIN_LENGTH_HIGHEST = 6000;
/** Lowest `max_length` of a STRING option. */
export const MAX_LENGTH_LOWEST = 1;
/** Highest `max_length` of a STRING option. */
export const MAX_LENGTH_HIGHEST = 6000;

/** Most characters of names, descriptions and choice values over one CHAT_INPUT command. */
export const COMMAND_SIZE_MAX = 8000;

/** Most commands in one bulk overwrite body. */
export const BULK_COMMANDS_MAX = 130;

/** Fewest entries in `contexts` or `integration_types` when the list is given. */
export const INSTALL_LIST_LENGTH_MIN = 1;

/** Largest `default_member_permissions` bit set: v10 permissions fit in 64 bits (docs/decisions.md). */
export const PERMISSIONS_BITS_MAX = (1n << 64n) - 1n;

/** Largest integer `default_member_permissions` accepted as a JSON number (larger sets must be strings). */
export const PERMISSIONS_INTEGER_MAX = Number.MAX_SAFE_INTEGER;

/** Most CHAT_INPUT commands in one scope. */
export const CHAT_INPUT_COMMANDS_MAX = 100;
/** Most USER commands in one scope. */
export const USER_COMMANDS_MAX = 15;
/** Most MESSAGE commands in one scope. */
export const MESSAGE_COMMANDS_MAX = 15;
/** Most PRIMARY_ENTRY_POINT commands an application has globally. */
export const GLOBAL_ENTRY_POINT_COMMANDS_MAX = 1;
/** Most PRIMARY_ENTRY_POINT commands in a guild: they are global only. */
export const GUILD_ENTRY_POINT_COMMANDS_MAX = 0;
