/**
 * The string codes the interaction rules emit (the `code` of an issue). Type errors reuse the base
 * codes of command validation (STRING_TYPE_CONVERT, NUMBER_TYPE_COERCE, NUMBER_TYPE_MAX, ...), so
 * one mistake reads the same wherever it is made; what only invoking and answering can get wrong
 * is named here, in the same v10 style, and listed in docs/errors.md.
 */

/** `data.name` is not the command's default name. */
export const INTERACTION_COMMAND_NAME_MISMATCH = 'INTERACTION_COMMAND_NAME_MISMATCH';
/** `data.type` is not the command's type. */
export const INTERACTION_COMMAND_TYPE_MISMATCH = 'INTERACTION_COMMAND_TYPE_MISMATCH';
/** An autocomplete request for a command that is not CHAT_INPUT. */
export const INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID = 'INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID';

/** `target_id` on a CHAT_INPUT command. */
export const INTERACTION_TARGET_NOT_ALLOWED = 'INTERACTION_TARGET_NOT_ALLOWED';
/** Options on a USER or MESSAGE command: they take none. */
export const INTERACTION_OPTIONS_NOT_ALLOWED = 'INTERACTION_OPTIONS_NOT_ALLOWED';

/** An option name the definition does not have on that level. */
export const INTERACTION_OPTION_UNKNOWN = 'INTERACTION_OPTION_UNKNOWN';
/** An option given twice on one level. */
export const INTERACTION_OPTION_DUPLICATE = 'INTERACTION_OPTION_DUPLICATE';
/** A required option is missing. */
export const INTERACTION_OPTION_REQUIRED = 'INTERACTION_OPTION_REQUIRED';
/** An option's `type` is not the type of the option it names. */
export const INTERACTION_OPTION_TYPE_MISMATCH = 'INTERACTION_OPTION_TYPE_MISMATCH';
/** A field an option of that type never carries: `value` on a subcommand, `options` on a value, `focused` outside autocomplete. */
export const INTERACTION_OPTION_FIELD_NOT_ALLOWED = 'INTERACTION_OPTION_FIELD_NOT_ALLOWED';
/** A value that is not one of the option's choices. */
export const INTERACTION_OPTION_INVALID_CHOICE = 'INTERACTION_OPTION_INVALID_CHOICE';
/** A channel whose type the option's `channel_types` does not allow. */
export const INTERACTION_OPTION_CHANNEL_TYPE_INVALID = 'INTERACTION_OPTION_CHANNEL_TYPE_INVALID';
/** A command or group with subcommands invoked without one of them. */
export const INTERACTION_SUBCOMMAND_REQUIRED = 'INTERACTION_SUBCOMMAND_REQUIRED';
/** Two different subcommands (or groups) on one level: an invocation takes one path. */
export const INTERACTION_SUBCOMMAND_MULTIPLE = 'INTERACTION_SUBCOMMAND_MULTIPLE';

/** A user id that is no user of the world. */
export const INTERACTION_UNKNOWN_USER = 'INTERACTION_UNKNOWN_USER';
/** A role id that is no role of the guild. */
export const INTERACTION_UNKNOWN_ROLE = 'INTERACTION_UNKNOWN_ROLE';
/** A channel id that is no channel of the guild (outside a guild: not the current channel). */
export const INTERACTION_UNKNOWN_CHANNEL = 'INTERACTION_UNKNOWN_CHANNEL';
/** A MENTIONABLE id that is neither a user nor a role of the guild. */
export const INTERACTION_UNKNOWN_MENTIONABLE = 'INTERACTION_UNKNOWN_MENTIONABLE';
/** A MESSAGE command's target that is no message of the channel. */
export const INTERACTION_UNKNOWN_MESSAGE = 'INTERACTION_UNKNOWN_MESSAGE';

/** An autocomplete request without a focused option. */
export const INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED = 'INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED';
/** An autocomplete request with more than one focused option. */
export const INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE = 'INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE';
/** The focused option does not have autocomplete enabled. */
export const INTERACTION_AUTOCOMPLETE_NOT_ENABLED = 'INTERACTION_AUTOCOMPLETE_NOT_ENABLED';

/** A callback type that does not answer this kind of interaction (or never answers any). */
export const INTERACTION_CALLBACK_TYPE_INVALID = 'INTERACTION_CALLBACK_TYPE_INVALID';
/** LAUNCH_ACTIVITY from an application without Activities. */
export const INTERACTION_CALLBACK_ACTIVITIES_REQUIRED = 'INTERACTION_CALLBACK_ACTIVITIES_REQUIRED';

/** Message flags outside the ones an interaction message may set. */
export const MESSAGE_FLAGS_INVALID = 'MESSAGE_FLAGS_INVALID';
/** `allowed_mentions` lists users (or roles) both in `parse` and by id. */
export const MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE = 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE';
/** An embed whose texts together exceed the per-message total. */
export const MESSAGE_EMBEDS_TOO_LARGE = 'MESSAGE_EMBEDS_TOO_LARGE';
/**
 * A message with nothing to show. v10 answers this with JSON code 50006 ("Cannot send an empty
 * message"), not with a form error: the issue sits at the root so the HTTP edge can tell.
 */
export const MESSAGE_EMPTY = 'MESSAGE_EMPTY';

/** The JSON error code (docs/v10-behaviour.md#errors style) of `MESSAGE_EMPTY`. */
export const CANNOT_SEND_EMPTY_MESSAGE_JSON_CODE = 50006;
/** The message v10 gives with code 50006. */
export const CANNOT_SEND_EMPTY_MESSAGE_TEXT = 'Cannot send an empty message';

/** Every code above, for documentation and tests. */
export const INTERACTION_CODES: readonly string[] = [
  INTERACTION_COMMAND_NAME_MISMATCH,
  INTERACTION_COMMAND_TYPE_MISMATCH,
  INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID,
  INTERACTION_TARGET_NOT_ALLOWED,
  INTERACTION_OPTIONS_NOT_ALLOWED,
  INTERACTION_OPTION_UNKNOWN,
  INTERACTION_OPTION_DUPLICATE,
  INTERACTION_OPTION_REQUIRED,
  INTERACTION_OPTION_TYPE_MISMATCH,
  INTERACTION_OPTION_FIELD_NOT_ALLOWED,
  INTERACTION_OPTION_INVALID_CHOICE,
  INTERACTION_OPTION_CHANNEL_TYPE_INVALID,
  INTERACTION_SUBCOMMAND_REQUIRED,
  INTERACTION_SUBCOMMAND_MULTIPLE,
  INTERACTION_UNKNOWN_USER,
  INTERACTION_UNKNOWN_ROLE,
  INTERACTION_UNKNOWN_CHANNEL,
  INTERACTION_UNKNOWN_MENTIONABLE,
  INTERACTION_UNKNOWN_MESSAGE,
  INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED,
  INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE,
  INTERACTION_AUTOCOMPLETE_NOT_ENABLED,
  INTERACTION_CALLBACK_TYPE_INVALID,
  INTERACTION_CALLBACK_ACTIVITIES_REQUIRED,
  MESSAGE_FLAGS_INVALID,
  MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE,
  MESSAGE_EMBEDS_TOO_LARGE,
  MESSAGE_EMPTY,
];
