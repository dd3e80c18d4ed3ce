/**
 * Application emojis (docs/v10-behaviour.md#application-emojis): an app's own emojis, 2,000 at most,
 * usable by its bot in any guild. Their bodies (`POST`: name and image; `PATCH`: name), the
 * refusals of their bound and of a name another of the app's emojis has, and their v10 emoji
 * object, whose `user` is the app's bot. The name's rules are a guild emoji's (2-32 of
 * `[A-Za-z0-9_]`), the image a data URI of at most 256 KiB (a GIF makes it animated). Pure.
 */
import type { APIEmoji, APIUser } from 'discord-api-types/v10';
import type { ImageData } from '../../core/image-data.js';
import { APPLICATION_EMOJI_NAME_ALREADY_TAKEN } from '../../core/io/codes.js';
import { invalidFormBody, type ApiError } from '../../core/io/errors.js';
import { isAbsent, isRecord, readRequired, readString, type JsonRecord } from '../../core/io/read.js';
import { report, reportNotObject, type Issues } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { checkEmojiName } from '../../core/world/emojis.js';
import type { Emoji } from '../../core/world/types.js';
import type { WirePayload } from '../../core/wire-payload.js';
import { readEmojiImage } from '../expressions/rules/emoji-image.js';

/** The most emojis one application holds (v10's 2,000). */
export const APPLICATION_EMOJIS_MAX = 2000;

/** An application emoji as its rules see it. */
export interface ApplicationEmoji {
  id: string;
  application_id: string;
  name: string;
  animated: boolean;
}

/** A create's body, read. */
export interface ApplicationEmojiCreate {
  name: string;
  image: ImageData;
}

function readName(value: unknown, issues: Issues): string | undefined {
  const name = readString(value, ['name'], issues);
  if (name !== undefined) checkEmojiName(name, ['name'], issues);
  return name;
}

function bodyRecord(body: unknown, issues: Issues): JsonRecord | undefined {
  if (isRecord(body)) return body;
  reportNotObject(issues, []);
  return undefined;
}

/** `POST /applications/{id}/emojis`: `{name, image}`, both required (50035 at each). */
export function readApplicationEmojiCreate(body: unknown): Result<ApplicationEmojiCreate> {
  const issues: Issues = [];
  const record = bodyRecord(body, issues);
  if (!record) return fail(issues);
  const name = readRequired(record.name, ['name'], issues, (value) => readName(value, issues));
  const image = readRequired(record.image, ['image'], issues, (value, path) => readEmojiImage(value, path, issues));
  if (issues.length > 0 || name === undefined || image === undefined) return fail(issues);
  return ok({ name, image });
}

/** `PATCH /applications/{id}/emojis/{eid}`: `{name?}` (absent or null: kept). */
export function readApplicationEmojiEdit(body: unknown): Result<{ name?: string }> {
  const issues: Issues = [];
  const record = bodyRecord(body ?? {}, issues);
  if (!record) return fail(issues);
  const edit: { name?: string } = {};
  if (!isAbsent(record.name)) {
    const name = readName(record.name, issues);
    if (name !== undefined) edit.name = name;
  }
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** Whether an image makes an animated emoji: a GIF does. */
export function isAnimatedImage(image: ImageData): boolean {
  return image.contentType === 'image/gif';
}

/** The refusal of a name another of the application's emojis has: 50035 at `name`. */
export function nameTaken(): ApiError {
  const issues: Issues = [];
  report(issues, ['name'], APPLICATION_EMOJI_NAME_ALREADY_TAKEN, 'Emoji name already taken');
  return invalidFormBody(issues);
}

/** The emoji as the world's emoji model holds one: available to its app, locked to no role. */
export function asWorldEmoji(emoji: ApplicationEmoji): Emoji {
  return { id: emoji.id, name: emoji.name, animated: emoji.animated, roles: [], available: true };
}

/** v10's emoji object of an application emoji: no roles, colons required, with its app's bot as `user`. */
export function toWireApplicationEmoji(
  emoji: ApplicationEmoji,
  bot: WirePayload<APIUser> | null,
): WirePayload<APIEmoji> {
  return {
    id: emoji.id,
    name: emoji.name,
    roles: [],
    ...(bot ? { user: bot } : {}),
    require_colons: true,
    managed: false,
    animated: emoji.animated,
    available: true,
  };
}
