/**
 * Every string code slashd puts in an issue (the `code` of a 50035 `_errors` entry), in one table:
 * a parser names a code by its constant, never by a literal string. The first three are documented
 * v10 codes; the rest are named in the same style (docs/v10-behaviour.md#errors) and listed in
 * docs/errors.md, docs/permissions.md and docs/world.md. The messages of the base-type codes are
 * built in ./report.ts, so one violation reads the same wherever it is found.
 */

// Command validation.

/** A required field is missing or null. */
export const BASE_TYPE_REQUIRED = 'BASE_TYPE_REQUIRED';
/** A value is not one of an enumeration's members. */
export const BASE_TYPE_CHOICES = 'BASE_TYPE_CHOICES';
/** A CHAT_INPUT command's names, descriptions and choice values exceed 8000 characters. */
export const APPLICATION_COMMAND_TOO_LARGE = 'APPLICATION_COMMAND_TOO_LARGE';

/** A key that names the prototype machinery (`__proto__`, `constructor`, `prototype`), see ../records.ts. */
export const DICT_TYPE_INVALID_KEY = 'DICT_TYPE_INVALID_KEY';

/** A string or list is shorter or longer than its bounds allow. */
export const BASE_TYPE_BAD_LENGTH = 'BASE_TYPE_BAD_LENGTH';
/** A string or list is longer than its maximum (it has no minimum). */
export const BASE_TYPE_MAX_LENGTH = 'BASE_TYPE_MAX_LENGTH';
/** A list is shorter than its minimum (it has no maximum). */
export const BASE_TYPE_MIN_LENGTH = 'BASE_TYPE_MIN_LENGTH';

/** Expected a string. */
export const STRING_TYPE_CONVERT = 'STRING_TYPE_CONVERT';
/** A string holds characters its field does not allow (an emoji's name). */
export const STRING_TYPE_REGEX = 'STRING_TYPE_REGEX';
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
/** Expected a boolean in a command permissions body (docs/permissions.md pins this spelling). */
export const BOOLEAN_TYPE_COERCE = 'BOOLEAN_TYPE_COERCE';
/** A body sent with a Content-Type other than application/json. */
export const CONTENT_TYPE_INVALID = 'CONTENT_TYPE_INVALID';

// Invoking commands and answering interactions. Type errors reuse the base codes above, so one
// mistake reads the same wherever it is made.

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

// Clicking components and submitting modals.

/** No enabled component of the message has this `custom_id`. */
export const INTERACTION_COMPONENT_UNKNOWN = 'INTERACTION_COMPONENT_UNKNOWN';
/** `data.component_type` is not the type of the component with that `custom_id`. */
export const INTERACTION_COMPONENT_TYPE_MISMATCH = 'INTERACTION_COMPONENT_TYPE_MISMATCH';
/** The component is disabled: nobody can use it. */
export const INTERACTION_COMPONENT_DISABLED = 'INTERACTION_COMPONENT_DISABLED';
/** A link or premium button (or any component that is not a button or a select): it sends no interaction. */
export const INTERACTION_COMPONENT_NOT_INTERACTIVE = 'INTERACTION_COMPONENT_NOT_INTERACTIVE';
/** `data.values` on a button, which has none. */
export const INTERACTION_COMPONENT_VALUES_NOT_ALLOWED = 'INTERACTION_COMPONENT_VALUES_NOT_ALLOWED';
/** A string select value that is not one of its options' values. */
export const INTERACTION_SELECT_VALUE_INVALID = 'INTERACTION_SELECT_VALUE_INVALID';
/** No open modal of this app with this `custom_id` for this user (never sent, submitted, expired, or another user's). */
export const INTERACTION_MODAL_UNKNOWN = 'INTERACTION_MODAL_UNKNOWN';
/** A submitted field whose `custom_id` the modal does not have (or that is given twice). */
export const INTERACTION_MODAL_FIELD_UNKNOWN = 'INTERACTION_MODAL_FIELD_UNKNOWN';
/** A required text input of the modal left out or empty. */
export const INTERACTION_MODAL_FIELD_REQUIRED = 'INTERACTION_MODAL_FIELD_REQUIRED';

/** Message flags outside the ones an interaction message may set. */
export const MESSAGE_FLAGS_INVALID = 'MESSAGE_FLAGS_INVALID';
/** `allowed_mentions` lists users (or roles) both in `parse` and by id. */
export const MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE = 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE';
/** Embeds whose texts together exceed the per-message total (v10's code, at `embeds`). */
export const MAX_EMBED_SIZE_EXCEEDED = 'MAX_EMBED_SIZE_EXCEEDED';
/** A time that is not ISO 8601 (an embed's `timestamp`); v10's code. */
export const DATE_TIME_TYPE_PARSE = 'DATE_TIME_TYPE_PARSE';
/**
 * A message with nothing to show. v10 answers this with JSON code 50006 ("Cannot send an empty
 * message"), not with a form error: the issue sits at the root so the HTTP edge can tell.
 */
export const MESSAGE_EMPTY = 'MESSAGE_EMPTY';
/** A reply (`message_reference`) to a message the channel does not hold, with `fail_if_not_exists` (v10's code). */
export const REPLIES_UNKNOWN_MESSAGE = 'REPLIES_UNKNOWN_MESSAGE';
/** An invocation names a command version that is no longer current (read-repair). */
export const APPLICATION_COMMAND_OUTDATED = 'APPLICATION_COMMAND_OUTDATED';

// Command permissions (docs/permissions.md).

/** A ROLE overwrite names no role of the guild (the guild id is @everyone). */
export const APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE = 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE';
/** A USER overwrite names no member of the guild. */
export const APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER = 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER';
/** A CHANNEL overwrite names no channel of the guild (the guild id minus 1 is every channel). */
export const APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL = 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL';
/** A CHANNEL overwrite names a thread: a thread always follows its parent, so it could never apply. */
export const APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL = 'APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL';
/** An id appears in more than one overwrite. */
export const APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID = 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID';

// Applications (the interactions endpoint URL).

/** Not a URL, or longer than a URL may be. */
export const URL_TYPE_INVALID_URL = 'URL_TYPE_INVALID_URL';
/** A URL whose scheme is not http or https. */
export const URL_TYPE_INVALID_SCHEME = 'URL_TYPE_INVALID_SCHEME';
/** The interactions endpoint did not answer the verification PING as v10 requires. */
export const APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID = 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID';

// Attachments (multipart uploads; docs/decisions.md#attachments).

/** An `attachments[].id` names neither an uploaded file of the request nor an attachment the message has. */
export const ATTACHMENT_NOT_FOUND = 'ATTACHMENT_NOT_FOUND';
/** A file part of the upload that v10 cannot take: not named `files[n]`, or an index given twice. */
export const ATTACHMENT_FILE_INVALID = 'ATTACHMENT_FILE_INVALID';

// Guilds (docs/v10-behaviour.md#guild-edit).

/** An image field (a guild's icon, an event's cover, a webhook's avatar) that is not a PNG, JPEG, GIF or WebP data URI (v10's code). */
export const IMAGE_INVALID = 'IMAGE_INVALID';
/** A guild setting naming a channel that is not one of the guild's (or not of a type it may be). */
export const GUILD_CHANNEL_INVALID = 'GUILD_CHANNEL_INVALID';

// Webhooks (docs/v10-behaviour.md#webhooks).

/** An avatar larger than v10 takes. */
export const BINARY_TYPE_MAX_SIZE = 'BINARY_TYPE_MAX_SIZE';
/** A webhook name (or an execute's `username`) containing a word v10 reserves ("clyde", "discord"). */
export const WEBHOOK_INVALID_USERNAME = 'WEBHOOK_INVALID_USERNAME';

// Bot users (docs/v10-behaviour.md#bot-users).

/** A bot's username containing what v10 refuses in one ("discord", "clyde", "@", "#", ":", "```"). */
export const USERNAME_INVALID_CONTAINS = 'USERNAME_INVALID_CONTAINS';
/** A bot's username that v10 refuses whole ("everyone", "here"). */
export const USERNAME_INVALID = 'USERNAME_INVALID';
/** A third username change within the hour (v10 answers it as a 50035, not a 429). */
export const USERNAME_RATE_LIMIT = 'USERNAME_RATE_LIMIT';

// World files (docs/world.md).

/** A second object with an id or a secret already taken. */
export const WORLD_DUPLICATE = 'WORLD_DUPLICATE';
/** A reference to an application, user or guild the world does not declare. */
export const WORLD_UNKNOWN_REFERENCE = 'WORLD_UNKNOWN_REFERENCE';

/** The codes of command validation, for documentation and tests. */
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
  APPLICATION_COMMAND_NSFW_DISCOVERABLE,
  APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED,
  APPLICATION_COMMAND_ENTRY_POINT_GUILD,
  APPLICATION_COMMAND_TYPE_IMMUTABLE,
  APPLICATION_COMMANDS_DUPLICATE_NAME,
  APPLICATION_COMMANDS_DUPLICATE_ID,
];

// Message components (v10's codes where known; docs/decisions.md#message-components-and-embeds).

/** A component whose `type` may not stand where it is (v10 names the types that may). */
export const UNION_TYPE_CHOICES = 'UNION_TYPE_CHOICES';
/** A button of style 1-4 without a `custom_id`. */
export const BUTTON_COMPONENT_CUSTOM_ID_REQUIRED = 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED';
/** A button with both a `custom_id` and a `url`: a link button has no custom id, another button no url. */
export const BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE = 'BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE';
/** A second component of one message or modal with a `custom_id` already used there. */
export const COMPONENT_CUSTOM_ID_DUPLICATED = 'COMPONENT_CUSTOM_ID_DUPLICATED';
/** An action row wider than it may be (more than five buttons, or a select beside anything). */
export const COMPONENT_LAYOUT_WIDTH_EXCEEDED = 'COMPONENT_LAYOUT_WIDTH_EXCEEDED';
/** An emoji that is neither one unicode emoji nor a custom emoji's id. */
export const COMPONENT_INVALID_EMOJI = 'COMPONENT_INVALID_EMOJI';
/** Two options of one string select share a value. */
export const SELECT_COMPONENT_OPTION_VALUE_DUPLICATED = 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED';
/** More default options (or `default_values`) than the select's `max_values`. */
export const SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES = 'SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES';
/**
 * slashd's: a field the component's kind never carries (a `sku_id` on a link button, a label on a
 * premium button). v10 has no documented code for it.
 */
export const COMPONENT_FIELD_NOT_ALLOWED = 'COMPONENT_FIELD_NOT_ALLOWED';
/** v10's: `content`, `embeds`, `poll` or `sticker_ids` on a message with the IS_COMPONENTS_V2 flag. */
export const MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2 =
  'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2';
/** v10's: an `attachment://name` media url naming no file of the message. */
export const UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND =
  'UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND';
/** slashd's: a components v2 message with more than 40 components, nested ones included (v10 documents no code). */
export const COMPONENTS_TOTAL_COUNT_EXCEEDED = 'COMPONENTS_TOTAL_COUNT_EXCEEDED';
/** slashd's: the text displays of one message hold more than 4000 characters together (v10 documents no code). */
export const TEXT_DISPLAYS_TOTAL_LENGTH_EXCEEDED = 'TEXT_DISPLAYS_TOTAL_LENGTH_EXCEEDED';

/** The codes of message components, for documentation and tests. */
export const MESSAGE_COMPONENT_CODES: readonly string[] = [
  UNION_TYPE_CHOICES,
  BUTTON_COMPONENT_CUSTOM_ID_REQUIRED,
  BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE,
  COMPONENT_CUSTOM_ID_DUPLICATED,
  COMPONENT_LAYOUT_WIDTH_EXCEEDED,
  COMPONENT_INVALID_EMOJI,
  SELECT_COMPONENT_OPTION_VALUE_DUPLICATED,
  SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES,
  COMPONENT_FIELD_NOT_ALLOWED,
  MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2,
  UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND,
  COMPONENTS_TOTAL_COUNT_EXCEEDED,
  TEXT_DISPLAYS_TOTAL_LENGTH_EXCEEDED,
];

/** The codes of invoking and answering, for documentation and tests. */
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
  INTERACTION_COMPONENT_UNKNOWN,
  INTERACTION_COMPONENT_TYPE_MISMATCH,
  INTERACTION_COMPONENT_DISABLED,
  INTERACTION_COMPONENT_NOT_INTERACTIVE,
  INTERACTION_COMPONENT_VALUES_NOT_ALLOWED,
  INTERACTION_SELECT_VALUE_INVALID,
  INTERACTION_MODAL_UNKNOWN,
  INTERACTION_MODAL_FIELD_UNKNOWN,
  INTERACTION_MODAL_FIELD_REQUIRED,
  MESSAGE_FLAGS_INVALID,
  MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE,
  MAX_EMBED_SIZE_EXCEEDED,
  DATE_TIME_TYPE_PARSE,
  MESSAGE_EMPTY,
  ...MESSAGE_COMPONENT_CODES,
];

// Injected faults (`/admin/faults`, docs/faults.md).

/** A fault field that does not apply to the fault's kind (a `route` on a gateway fault). */
export const FAULT_FIELD_NOT_ALLOWED = 'FAULT_FIELD_NOT_ALLOWED';
/** A fault with neither `count` nor `until`: every fault expires. */
export const FAULT_EXPIRY_REQUIRED = 'FAULT_EXPIRY_REQUIRED';
/** A fault's `until` is not an ISO 8601 time, is past, or is further ahead than a fault may live. */
export const FAULT_UNTIL_INVALID = 'FAULT_UNTIL_INVALID';
/** `dry_run` is neither `true` nor `false`. */
export const DRY_RUN_INVALID = 'DRY_RUN_INVALID';

// Roles and channels (docs/decisions.md, "Roles and channels").

/** A channel's `parent_id` that names no category of its guild (or a category given a parent). */
export const CHANNEL_PARENT_INVALID = 'CHANNEL_PARENT_INVALID';
/** A reorder body naming a role or channel the guild does not have. */
export const GUILD_STRUCTURE_UNKNOWN_ID = 'GUILD_STRUCTURE_UNKNOWN_ID';
/** A scenario's `matches` is not a JavaScript regular expression (docs/testing.md#scenarios). */
export const SCENARIO_PATTERN_INVALID = 'SCENARIO_PATTERN_INVALID';
// Members (`PATCH /guilds/{guild}/members/{user}`).

/** A timeout ending more than 28 days from now. */
export const COMMUNICATION_DISABLED_TOO_LONG = 'COMMUNICATION_DISABLED_TOO_LONG';

// Guild scheduled events (docs/v10-behaviour.md#scheduled-events).

/** A start time not in the future, on create or when moved (v10's code). */
export const GUILD_SCHEDULED_EVENT_SCHEDULE_PAST = 'GUILD_SCHEDULED_EVENT_SCHEDULE_PAST';
/** An end time at or before the start time. */
export const GUILD_SCHEDULED_EVENT_END_BEFORE_START = 'GUILD_SCHEDULED_EVENT_END_BEFORE_START';
/** A field the entity type does not take, or lacks (an external event's channel, a voice event's location). */
export const GUILD_SCHEDULED_EVENT_ENTITY_INVALID = 'GUILD_SCHEDULED_EVENT_ENTITY_INVALID';
/** A status change v10 does not allow (only scheduled to active or canceled, and active to completed). */
export const GUILD_SCHEDULED_EVENT_STATUS_INVALID = 'GUILD_SCHEDULED_EVENT_STATUS_INVALID';
/** A recurrence rule outside the combinations v10 supports. */
export const GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID = 'GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID';

// Entitlements.

/** `POST .../entitlements/{id}/consume` of an entitlement whose SKU is not consumable. */
export const ENTITLEMENT_NOT_CONSUMABLE = 'ENTITLEMENT_NOT_CONSUMABLE';
/** An application's entitlements are at their bound (`ENTITLEMENTS_PER_APPLICATION_MAX`). */
export const ENTITLEMENTS_MAX = 'ENTITLEMENTS_MAX';
/** slashd's: the admin API's renewal of a subscription that is inactive (it has no period to end). */
export const SUBSCRIPTION_NOT_ACTIVE = 'SUBSCRIPTION_NOT_ACTIVE';
/** slashd's: a premium button's `sku_id` that is no SKU of the message's application (v10 documents no code). */
export const PREMIUM_BUTTON_UNKNOWN_SKU = 'PREMIUM_BUTTON_UNKNOWN_SKU';
/** slashd's: the admin API's subscription to a SKU that is not a subscription SKU (type 5). */
export const SKU_NOT_SUBSCRIPTION = 'SKU_NOT_SUBSCRIPTION';

// Application role connections.

/** A metadata key not of a-z, 0-9 and `_`, or a connection's value for a key the app never declared. */
export const ROLE_CONNECTION_KEY_INVALID = 'ROLE_CONNECTION_KEY_INVALID';
/** A connection's value that is not one of its record's type (an integer, a date, 0 or 1), or too long. */
export const ROLE_CONNECTION_VALUE_INVALID = 'ROLE_CONNECTION_VALUE_INVALID';

// Application emojis.

/** An application emoji's name that another of the application's emojis has (v10's code). */
export const APPLICATION_EMOJI_NAME_ALREADY_TAKEN = 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN';

// Auto moderation (docs/v10-behaviour.md#auto-moderation).

/** A guild at its rules of a trigger type: 6 keyword rules, 1 of each other type (v10's code). */
export const AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED = 'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED';
/** A `regex_patterns` entry Rust's regex crate does not compile (lookaround, a backreference...). */
export const AUTO_MODERATION_INVALID_REGEX = 'AUTO_MODERATION_INVALID_REGEX';
/** An action, or an event type, the rule's trigger type does not take (a timeout of a spam rule). */
export const AUTO_MODERATION_INVALID_ACTION = 'AUTO_MODERATION_INVALID_ACTION';
/** A rule's trigger type changed by an edit (v10 keeps it). */
export const AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE = 'AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE';
/** A send-alert action's channel that is no text channel of the guild. */
export const AUTO_MODERATION_INVALID_CHANNEL = 'AUTO_MODERATION_INVALID_CHANNEL';
