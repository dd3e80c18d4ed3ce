/**
 * Every number the interaction rules depend on, one constant each (v10 API, Limits; docs/v10-behaviour.md#interactions).
 * Text lengths count code points, as command validation does.
 */

/** Most characters of a STRING option value when the option sets no `max_length`. */
export const OPTION_STRING_VALUE_LENGTH_MAX = 6000;

/** Most characters of a message's `content`. */
export const MESSAGE_CONTENT_LENGTH_MAX = 2000;
/** Most embeds on one message. */
export const MESSAGE_EMBEDS_MAX = 10;
/** Most top-level components (action rows) on one message. */
export const MESSAGE_COMPONENT_ROWS_MAX = 5;
/** Most attachments on one message. */
export const MESSAGE_ATTACHMENTS_MAX = 10;
/** Most user or role ids in `allowed_mentions.users` / `.roles`. */
export const ALLOWED_MENTIONS_IDS_MAX = 100;

/** Most characters of an embed title. */
export const EMBED_TITLE_LENGTH_MAX = 256;
/** Most characters of an embed description. */
export const EMBED_DESCRIPTION_LENGTH_MAX = 4096;
/** Most fields on one embed. */
export const EMBED_FIELDS_MAX = 25;
/** Most characters of an embed field name. */
export const EMBED_FIELD_NAME_LENGTH_MAX = 256;
/** Most characters of an embed field value. */
export const EMBED_FIELD_VALUE_LENGTH_MAX = 1024;
/** Most characters of an embed footer text. */
export const EMBED_FOOTER_TEXT_LENGTH_MAX = 2048;
/** Most characters of an embed author name. */
export const EMBED_AUTHOR_NAME_LENGTH_MAX = 256;
/** Most characters of all embed texts of one message together. */
export const EMBEDS_TOTAL_LENGTH_MAX = 6000;

/** Fewest characters of a modal's `custom_id`. */
export const MODAL_CUSTOM_ID_LENGTH_MIN = 1;
/** Most characters of a modal's `custom_id`. */
export const MODAL_CUSTOM_ID_LENGTH_MAX = 100;
/** Fewest characters of a modal's title. */
export const MODAL_TITLE_LENGTH_MIN = 1;
/** Most characters of a modal's title. */
export const MODAL_TITLE_LENGTH_MAX = 45;
/** Fewest components of a modal. */
export const MODAL_COMPONENTS_MIN = 1;
/** Most components of a modal. */
export const MODAL_COMPONENTS_MAX = 5;

/** The `attachment_size_limit` every interaction carries: 25 MiB, v10's default upload limit. */
export const ATTACHMENT_SIZE_LIMIT = 26_214_400;
/** The interaction `version` field: always 1 (docs/v10-behaviour.md#interactions). */
export const INTERACTION_VERSION = 1;

/** Most characters of a component's `custom_id` (and so of `data.custom_id` in a click). */
export const COMPONENT_CUSTOM_ID_LENGTH_MAX = 100;
/** Most values a select menu can send (its `max_values` is at most 25). */
export const SELECT_VALUES_MAX = 25;
/** Most characters of one select value as a client sends it (string select option values are at most 100). */
export const SELECT_VALUE_LENGTH_MAX = 100;
/** Most characters a text input may hold. */
export const TEXT_INPUT_VALUE_LENGTH_MAX = 4000;
/** Most fields one modal submission may carry (a modal has at most 5 top-level components, each holding one input). */
export const MODAL_SUBMIT_FIELDS_MAX = 5;
/** How deep the search for a component goes in a message's tree (containers, sections, rows). */
export const COMPONENT_TREE_DEPTH_MAX = 8;
/** How many of the user's recent interactions are searched for the modal a submission names. */
export const MODAL_SEARCH_LIMIT = 50;
