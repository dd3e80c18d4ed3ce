/**
 * A guild's custom emojis (docs/world.md#guilds): the world file's rules for them, and their v10
 * emoji objects, whole (GUILD_CREATE, `GET /guilds/{id}`) and partial (reactions).
 */
import type { APIEmoji, APIPartialEmoji } from 'discord-api-types/v10';
import type { IssuePath } from '../io/issue.js';
import { STRING_TYPE_REGEX } from '../io/codes.js';
import { report, reportBadLength, type Issues } from '../io/report.js';
import type { WirePayload } from '../wire-payload.js';
import type { Emoji, Guild } from './types.js';

/** The most custom emojis a guild holds: v10's at boost level 3 (250 static and 250 animated). */
export const GUILD_EMOJIS_MAX = 500;
/** The shortest emoji name v10 takes. */
export const EMOJI_NAME_MIN = 2;
/** The longest emoji name v10 takes. */
export const EMOJI_NAME_MAX = 32;
/** The characters of an emoji name: letters, digits and underscores, as v10. */
const EMOJI_NAME = /^\w+$/;

/** An emoji name's rules: its length, then its characters. */
export function checkEmojiName(name: string, path: IssuePath, issues: Issues): void {
  if (name.length < EMOJI_NAME_MIN || name.length > EMOJI_NAME_MAX) {
    reportBadLength(issues, path, EMOJI_NAME_MIN, EMOJI_NAME_MAX);
  } else if (!EMOJI_NAME.test(name)) {
    report(issues, path, STRING_TYPE_REGEX, 'String value did not match validation regex.');
  }
}

/** The guild's custom emojis (none when the world gave it none). */
export function guildEmojis(guild: Pick<Guild, 'emojis'>): readonly Emoji[] {
  return guild.emojis ?? [];
}

/** The custom emoji of `id` in the guild, or undefined. */
export function findGuildEmoji(guild: Pick<Guild, 'emojis'>, id: string): Emoji | undefined {
  return guildEmojis(guild).find((emoji) => emoji.id === id);
}

/** v10's emoji object of a guild's emoji (no creator: v10 sends it only with MANAGE_GUILD_EXPRESSIONS). */
export function toWireGuildEmoji(emoji: Emoji): WirePayload<APIEmoji> {
  return {
    id: emoji.id,
    name: emoji.name,
    roles: [...emoji.roles],
    require_colons: true,
    managed: false,
    animated: emoji.animated,
    available: emoji.available,
  };
}

/** The partial emoji reactions carry: `{id, name, animated}`. */
export function toWirePartialEmoji(emoji: Emoji): { id: string; name: string; animated: boolean } {
  return { id: emoji.id, name: emoji.name, animated: emoji.animated } satisfies APIPartialEmoji;
}
