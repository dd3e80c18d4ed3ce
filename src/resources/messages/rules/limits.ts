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
/** Most characters of an embed provider name. */
export const EMBED_PROVIDER_NAME_LENGTH_MAX = 256;
/** Most characters of any URL of an embed (its link, images, icons, video, provider, author). */
export const EMBED_URL_LENGTH_MAX = 2048;
/** The largest embed color: 0xFFFFFF, an RGB value. */
export const EMBED_COLOR_MAX = 0xffffff;

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

/** Fewest characters of a component's `custom_id`. */
export const COMPONENT_CUSTOM_ID_LENGTH_MIN = 1;
/** Most characters of a component's `custom_id` (and so of `data.custom_id` in a click). */
export const COMPONENT_CUSTOM_ID_LENGTH_MAX = 100;
/** The largest `id` an app may give a component: v10 stores it as a signed 32-bit integer. */
export const COMPONENT_ID_MAX = 2_147_483_647;
/** Fewest components in one action row. */
export const ACTION_ROW_COMPONENTS_MIN = 1;
/** Most components in one action row. */
export const ACTION_ROW_COMPONENTS_MAX = 5;
/** How wide an action row is: a button takes 1 of it, a select or a text input all of it. */
export const ACTION_ROW_WIDTH = 5;
/** How wide a button is in its action row. */
export const BUTTON_WIDTH = 1;
/** Most characters of a button's label. */
export const BUTTON_LABEL_LENGTH_MAX = 80;
/** Most characters of a link button's `url`. */
export const BUTTON_URL_LENGTH_MAX = 512;
/** Most characters of a component emoji's `name`: a custom emoji's name, or one unicode emoji. */
export const COMPONENT_EMOJI_NAME_LENGTH_MAX = 32;
/** Most characters of a select menu's placeholder. */
export const SELECT_PLACEHOLDER_LENGTH_MAX = 150;
/** The smallest `min_values` of a select menu. */
export const SELECT_MIN_VALUES_MIN = 0;
/** The smallest `max_values` of a select menu. */
export const SELECT_MAX_VALUES_MIN = 1;
/** Fewest options of a string select. */
export const SELECT_OPTIONS_MIN = 1;
/** Most options of a string select. */
export const SELECT_OPTIONS_MAX = 25;
/** Fewest characters of a string select option's label. */
export const SELECT_OPTION_LABEL_LENGTH_MIN = 1;
/** Most characters of a string select option's label. */
export const SELECT_OPTION_LABEL_LENGTH_MAX = 100;
/** Fewest characters of a string select option's value. */
export const SELECT_OPTION_VALUE_LENGTH_MIN = 1;
/** Most characters of a string select option's value. */
export const SELECT_OPTION_VALUE_LENGTH_MAX = 100;
/** Most characters of a string select option's description. */
export const SELECT_OPTION_DESCRIPTION_LENGTH_MAX = 100;
/** Most `default_values` of a user, role, mentionable or channel select. */
export const SELECT_DEFAULT_VALUES_MAX = 25;
/** Fewest characters of a text input's label (in an action row of a modal). */
export const TEXT_INPUT_LABEL_LENGTH_MIN = 1;
/** Most characters of a text input's label. */
export const TEXT_INPUT_LABEL_LENGTH_MAX = 45;
/** Most characters of a text input's placeholder. */
export const TEXT_INPUT_PLACEHOLDER_LENGTH_MAX = 100;
/** The smallest `max_length` of a text input. */
export const TEXT_INPUT_MAX_LENGTH_MIN = 1;
/** Fewest characters of a label component's `label`. */
export const LABEL_LENGTH_MIN = 1;
/** Most characters of a label component's `label`. */
export const LABEL_LENGTH_MAX = 45;
/** Fewest characters of a label component's `description`. */
export const LABEL_DESCRIPTION_LENGTH_MIN = 1;
/** Most characters of a label component's `description`. */
export const LABEL_DESCRIPTION_LENGTH_MAX = 100;
/** Fewest characters of a text display's `content`. */
export const TEXT_DISPLAY_CONTENT_LENGTH_MIN = 1;
/** Most characters of a text display's `content`. */
export const TEXT_DISPLAY_CONTENT_LENGTH_MAX = 4000;
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
/** Fewest messages one bulk delete names (v10). */
export const BULK_DELETE_MESSAGES_MIN = 2;
/** Most messages one bulk delete names (v10). */
export const BULK_DELETE_MESSAGES_MAX = 100;
/** The oldest a message may be (by its id's time) to be bulk deleted: 14 days (v10). */
export const BULK_DELETE_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

// Components v2 (messages with the IS_COMPONENTS_V2 flag; docs/v10-behaviour.md#components-v2).

/** Most components of a components v2 message, nested ones included (and so most top-level ones). */
export const MESSAGE_COMPONENTS_V2_TOTAL_MAX = 40;
/** Most characters of all text displays of one message together. */
export const TEXT_DISPLAYS_TOTAL_LENGTH_MAX = 4000;
/** Fewest text displays in a section. */
export const SECTION_COMPONENTS_MIN = 1;
/** Most text displays in a section. */
export const SECTION_COMPONENTS_MAX = 3;
/** Fewest components in a container. */
export const CONTAINER_COMPONENTS_MIN = 1;
/** Most components in a container (the message's own bound is the tighter one). */
export const CONTAINER_COMPONENTS_MAX = 40;
/** The largest container `accent_color`: 0xFFFFFF, an RGB value. */
export const CONTAINER_ACCENT_COLOR_MAX = 0xffffff;
/** Fewest items of a media gallery. */
export const MEDIA_GALLERY_ITEMS_MIN = 1;
/** Most items of a media gallery. */
export const MEDIA_GALLERY_ITEMS_MAX = 10;
/** Fewest characters of a thumbnail's or gallery item's `description` (its alt text). */
export const MEDIA_DESCRIPTION_LENGTH_MIN = 1;
/** Most characters of a thumbnail's or gallery item's `description`. */
export const MEDIA_DESCRIPTION_LENGTH_MAX = 1024;
/** Most characters of an unfurled media item's `url`. */
export const MEDIA_URL_LENGTH_MAX = 2048;
/** A separator's `spacing`: 1 small, 2 large. */
export const SEPARATOR_SPACINGS: readonly number[] = [1, 2];
