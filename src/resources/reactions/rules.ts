/**
 * Reactions on messages (docs/v10-behaviour.md#reactions): the emoji of a path, the query of a
 * reaction's user list, a message's `reactions` field, and the four MESSAGE_REACTION_* dispatches.
 * An emoji is a unicode one, or one of the guild's custom emojis (`name:id`, the world file's
 * `emojis`); any other is 10014, as v10 answers one the guild does not have.
 */
import type {
  APIGuildMember,
  APIReaction,
  GatewayMessageReactionAddDispatchData,
  GatewayMessageReactionRemoveAllDispatchData,
  GatewayMessageReactionRemoveDispatchData,
  GatewayMessageReactionRemoveEmojiDispatchData,
} from 'discord-api-types/v10';
import type { Issue } from '../../core/io/issue.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { toWirePartialEmoji } from '../../core/world/emojis.js';
import { readIntegerParam, readSnowflakeParam } from '../../core/world/page-query.js';
import type { WorldDispatch, WorldDispatchData, WorldDispatchName } from '../../core/world/dispatch.js';
import type { Emoji } from '../../core/world/types.js';

/** Distinct emojis one message holds at most (v10: 20); a further new one is 30010. */
export const MAX_REACTION_EMOJIS_PER_MESSAGE = 20;
/** Users one page of `GET …/reactions/{emoji}` holds at most. */
export const REACTION_USERS_PAGE_MAX = 100;
/** Users one page holds when `limit` is not given. */
export const REACTION_USERS_PAGE_DEFAULT = 25;
/** The longest emoji text slashd reads from a path: the longest ZWJ sequences are far shorter. */
const MAX_UNICODE_EMOJI_LENGTH = 64;
/**
 * The most code points of one unicode emoji: Unicode's longest recommended sequences (a kiss with
 * two skin tones) have 10; a few more leave room for new ones, not for a tower of marks.
 */
export const MAX_UNICODE_EMOJI_CODE_POINTS = 12;

/** The v10 emoji object of a reaction: `{id: null, name}` for unicode, `{id, name, animated}` for custom. */
export type ReactionEmojiWire = { id: null; name: string } | { id: string; name: string | null; animated?: boolean };

/**
 * The emoji of a reaction path: its stored key (the unicode text, or a custom emoji's id), its v10
 * emoji object, and the guild's emoji when it is a custom one.
 */
export interface ReactionEmoji {
  readonly key: string;
  readonly wire: ReactionEmojiWire;
  readonly custom?: Emoji;
}

/** `name:id`, or `a:name:id` for an animated one (as discord.js writes it); the name is not checked, v10 reads the id. */
const CUSTOM_EMOJI = /^(?:a:)?[\w~-]{1,32}:(\d{15,21})$/;
/** A stored key that is a custom emoji's id: unicode keys always hold a pictograph. */
const CUSTOM_KEY = /^\d+$/;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
/**
 * What an emoji is made of (UTS #51): pictographs and emoji, and their components (skin tones,
 * hair, ZWJ, variation selectors, the keycap mark, regional indicators, tags, keycap digits);
 * a combining accent, a letter or a control character makes it no emoji.
 */
const EMOJI_PARTS = /^[\p{Extended_Pictographic}\p{Emoji}\p{Emoji_Component}]+$/u;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The emoji of a path (already percent-decoded): one unicode emoji (a single grapheme with a
 * pictograph in it, made of emoji parts only, at most `MAX_UNICODE_EMOJI_CODE_POINTS` long), or
 * one of `emojis` (the guild's) by its id; otherwise null (v10's 10014).
 */
export function readReactionEmoji(raw: string, emojis: readonly Emoji[]): ReactionEmoji | null {
  const custom = CUSTOM_EMOJI.exec(raw);
  if (custom) {
    const emoji = emojis.find((e) => e.id === custom[1]);
    return emoji ? { key: emoji.id, wire: toWirePartialEmoji(emoji), custom: emoji } : null;
  }
  if (!isUnicodeEmoji(raw)) return null;
  return { key: raw, wire: { id: null, name: raw } };
}

/** The id of a custom emoji of a path (`name:id`, `a:name:id`), or undefined for any other text. */
export function customEmojiIdOf(raw: string): string | undefined {
  return CUSTOM_EMOJI.exec(raw)?.[1];
}

/** The reaction emoji of a custom emoji found elsewhere than in the guild (an application's own). */
export function customReactionEmoji(emoji: Emoji): ReactionEmoji {
  return { key: emoji.id, wire: toWirePartialEmoji(emoji), custom: emoji };
}

/** Texts of paths already judged, at most this many: a few hundred emojis make up nearly every reaction. */
const JUDGED_EMOJIS_MAX = 4_096;
/** The verdicts of `isUnicodeEmoji` on recent texts (segmenting a grapheme costs more than the rest of an add). */
const judgedEmojis = new Map<string, boolean>();

function isUnicodeEmoji(text: string): boolean {
  if (text.length === 0 || text.length > MAX_UNICODE_EMOJI_LENGTH) return false;
  const judged = judgedEmojis.get(text);
  if (judged !== undefined) return judged;
  const verdict = judgeUnicodeEmoji(text);
  if (judgedEmojis.size >= JUDGED_EMOJIS_MAX) judgedEmojis.clear();
  judgedEmojis.set(text, verdict);
  return verdict;
}

/** `isUnicodeEmoji` of a text of a length it may be. */
function judgeUnicodeEmoji(text: string): boolean {
  if (!PICTOGRAPH.test(text)) return false;
  if (!EMOJI_PARTS.test(text) || [...text].length > MAX_UNICODE_EMOJI_CODE_POINTS) return false;
  let count = 0;
  for (const _ of graphemes.segment(text)) if (++count > 1) return false;
  return true;
}

/** True when a stored key is a custom emoji's id. */
export function isCustomEmojiKey(key: string): boolean {
  return CUSTOM_KEY.test(key);
}

/**
 * The v10 emoji object of a stored key: a custom emoji the guild no longer has keeps its id with a
 * null name, as v10 shows a reaction of a deleted emoji.
 */
export function emojiOfKey(key: string, emojis: readonly Emoji[]): ReactionEmojiWire {
  if (!isCustomEmojiKey(key)) return { id: null, name: key };
  const emoji = emojis.find((e) => e.id === key);
  return emoji ? toWirePartialEmoji(emoji) : { id: key, name: null };
}

/**
 * Whether a member with `roles` may use the emoji: it must be available, and when it names roles,
 * the member must have one of them (a bot has none: its role is not in the world).
 */
export function emojiUsableBy(emoji: Emoji, roles: readonly string[]): boolean {
  return emoji.available && (emoji.roles.length === 0 || emoji.roles.some((role) => roles.includes(role)));
}

export interface ReactionUsersQuery {
  limit: number;
  after: string | undefined;
  /** 1 asks for super-reactions, which slashd never has. */
  burst: boolean;
}

/** `limit` (1-100, default 25), `after` (a user id) and `type` (0 normal, 1 burst); bad values are 50035. */
export function readReactionUsersQuery(query: Readonly<Record<string, unknown>>): Result<ReactionUsersQuery> {
  const issues: Issue[] = [];
  const limit = readIntegerParam(
    query.limit,
    { name: 'limit', min: 1, max: REACTION_USERS_PAGE_MAX, fallback: REACTION_USERS_PAGE_DEFAULT },
    issues,
  );
  const after = readSnowflakeParam(query.after, 'after', issues);
  const type = readIntegerParam(query.type, { name: 'type', min: 0, max: 1, fallback: 0 }, issues);
  return issues.length > 0 ? fail(issues) : ok({ limit, after, burst: type === 1 });
}

/** One entry of a message object's `reactions`, as v10 sends it (no super-reactions in slashd). */
export function wireReaction(key: string, count: number, me: boolean, emojis: readonly Emoji[]): APIReaction {
  return {
    count,
    count_details: { burst: 0, normal: count },
    me,
    me_burst: false,
    emoji: emojiOfKey(key, emojis),
    burst_colors: [],
  };
}

export interface ReactionPlace {
  guildId: string;
  channelId: string;
  messageId: string;
}

function dispatch<K extends WorldDispatchName>(t: K, place: ReactionPlace, d: WorldDispatchData<K>): WorldDispatch<K> {
  return { t, guildId: place.guildId, channelId: place.channelId, recipientIds: [], d };
}

/** MESSAGE_REACTION_ADD: who reacted, with their member object (user included) and the message's author. */
export function reactionAddDispatch(
  place: ReactionPlace,
  emoji: ReactionEmoji,
  userId: string,
  member: APIGuildMember | undefined,
  messageAuthorId: string,
): WorldDispatch {
  const d = {
    user_id: userId,
    channel_id: place.channelId,
    message_id: place.messageId,
    guild_id: place.guildId,
    emoji: emoji.wire,
    burst: false,
    type: 0,
    ...(member ? { member } : {}),
    message_author_id: messageAuthorId,
    burst_colors: [],
  } satisfies GatewayMessageReactionAddDispatchData;
  return dispatch('MESSAGE_REACTION_ADD', place, d);
}

export function reactionRemoveDispatch(place: ReactionPlace, emoji: ReactionEmoji, userId: string): WorldDispatch {
  const d = {
    user_id: userId,
    channel_id: place.channelId,
    message_id: place.messageId,
    guild_id: place.guildId,
    emoji: emoji.wire,
    burst: false,
    type: 0,
  } satisfies GatewayMessageReactionRemoveDispatchData;
  return dispatch('MESSAGE_REACTION_REMOVE', place, d);
}

export function reactionRemoveAllDispatch(place: ReactionPlace): WorldDispatch {
  const d = {
    channel_id: place.channelId,
    message_id: place.messageId,
    guild_id: place.guildId,
  } satisfies GatewayMessageReactionRemoveAllDispatchData;
  return dispatch('MESSAGE_REACTION_REMOVE_ALL', place, d);
}

export function reactionRemoveEmojiDispatch(place: ReactionPlace, emoji: ReactionEmoji): WorldDispatch {
  const d = {
    channel_id: place.channelId,
    message_id: place.messageId,
    guild_id: place.guildId,
    emoji: emoji.wire,
  } satisfies GatewayMessageReactionRemoveEmojiDispatchData;
  return dispatch('MESSAGE_REACTION_REMOVE_EMOJI', place, d);
}
