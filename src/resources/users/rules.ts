/**
 * A bot's own profile (`PATCH /users/@me`, v10's Modify Current User for a bot): the body's rules
 * (a username of 2-32 characters v10 would take, an avatar and a banner as data URIs or null), the
 * stored profile, and the plan of an edit under v10's two username changes an hour. Pure.
 */
import { USERNAME_INVALID, USERNAME_INVALID_CONTAINS, USERNAME_RATE_LIMIT } from '../../core/io/codes.js';
import { isRecord, readString } from '../../core/io/read.js';
import { issue, type Issue, type IssuePath } from '../../core/io/issue.js';
import { report, reportBadLength, reportNotObject, type Issues } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { readImageDataUri, type ImageData } from '../../core/image-data.js';
import type { BotProfile } from '../../core/world/types.js';

/** A username's length after trimming, in characters: 2 to 32 (v10). */
export const BOT_USERNAME_MIN = 2;
export const BOT_USERNAME_MAX = 32;
/** What a username may not contain, in any case (v10's rules for usernames, and "clyde" it reserves). */
export const FORBIDDEN_USERNAME_PARTS: readonly string[] = ['discord', 'clyde', '@', '#', ':', '```'];
/** Usernames v10 refuses whole, in any case. */
export const FORBIDDEN_USERNAMES: readonly string[] = ['everyone', 'here'];
/** The largest avatar or banner, decoded: 10 MiB, v10's bound on uploaded avatars. */
export const BOT_IMAGE_BYTES_MAX = 10 * 1024 * 1024;
/** A body carries both images as base64 (4/3 of their bytes) inside JSON: room for the two largest. */
export const BOT_PROFILE_BODY_LIMIT_BYTES = 28 * 1024 * 1024;
/** Username changes v10 allows a user within USERNAME_CHANGE_WINDOW_MS (a third is refused). */
export const USERNAME_CHANGES_PER_WINDOW = 2;
/** The window of USERNAME_CHANGES_PER_WINDOW: one hour. */
export const USERNAME_CHANGE_WINDOW_MS = 60 * 60 * 1000;

/** An image of the profile: its hash (as the user object names it), media type and bytes. */
export interface BotImage {
  readonly hash: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** The images a profile has: an avatar and a banner. */
export type BotImageKind = 'avatar' | 'banner';

/** Undefined: unchanged; null: removed; an image: the new one. */
export type BotImageChange = BotImage | null | undefined;

/** What a `PATCH /users/@me` body asks. */
export interface BotProfileEdit {
  readonly username?: string;
  readonly avatar?: BotImage | null;
  readonly banner?: BotImage | null;
}

/** The profile as stored: what the user object shows, and when the name last changed. */
export interface StoredBotProfile extends BotProfile {
  /** Epoch ms of the last username changes, oldest first (at most USERNAME_CHANGES_PER_WINDOW). */
  readonly username_changes: readonly number[];
}

/** What an edit writes: the profile and the images it changes. */
export interface BotProfileWrite {
  readonly profile: StoredBotProfile;
  readonly avatar: BotImageChange;
  readonly banner: BotImageChange;
}

/** A username: trimmed, 2-32 characters, nothing v10 refuses in one. */
export function readBotUsername(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  const raw = readString(value, path, issues);
  if (raw === undefined) return undefined;
  const name = raw.trim();
  const length = [...name].length;
  if (length < BOT_USERNAME_MIN || length > BOT_USERNAME_MAX) {
    reportBadLength(issues, path, BOT_USERNAME_MIN, BOT_USERNAME_MAX);
    return undefined;
  }
  const lower = name.toLowerCase();
  const part = FORBIDDEN_USERNAME_PARTS.find((word) => lower.includes(word));
  if (part) {
    report(issues, path, USERNAME_INVALID_CONTAINS, `Username cannot contain "${part}"`);
    return undefined;
  }
  if (FORBIDDEN_USERNAMES.includes(lower)) {
    report(issues, path, USERNAME_INVALID, 'Username is invalid');
    return undefined;
  }
  return name;
}

/** An avatar or banner: a data URI of a PNG, JPEG, GIF or WebP image of at most BOT_IMAGE_BYTES_MAX, or null. */
function readBotImage(value: unknown, path: IssuePath, issues: Issues): BotImage | null | undefined {
  if (value === null) return null;
  const image: ImageData | undefined = readImageDataUri(value, path, issues, BOT_IMAGE_BYTES_MAX);
  return image && { hash: image.hash, contentType: image.contentType, bytes: image.bytes };
}

/** `PATCH /users/@me`: every field optional (v10 takes a body of only an avatar, as discord.js sends). */
export function readBotProfileEdit(body: unknown): Result<BotProfileEdit> {
  const issues: Issue[] = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const edit: { username?: string; avatar?: BotImage | null; banner?: BotImage | null } = {};
  if (body.username !== undefined) {
    const username = readBotUsername(body.username, ['username'], issues);
    if (username !== undefined) edit.username = username;
  }
  for (const kind of ['avatar', 'banner'] as const) {
    if (body[kind] === undefined) continue;
    const image = readBotImage(body[kind], [kind], issues);
    if (image !== undefined) edit[kind] = image;
  }
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** The username changes still inside the window at `nowMs`. */
function recentChanges(changes: readonly number[], nowMs: number): number[] {
  return changes.filter((at) => nowMs - at < USERNAME_CHANGE_WINDOW_MS);
}

/**
 * The write an edit makes of the stored profile (null: none yet) of a bot whose application is
 * named `appName`, or the 50035 of a third name change within the hour (nothing written then). A
 * name the bot already has is no change.
 */
export function planBotProfileEdit(
  current: StoredBotProfile | null,
  appName: string,
  edit: BotProfileEdit,
  nowMs: number,
): Result<BotProfileWrite> {
  const before = current ?? { username: null, avatar: null, banner: null, username_changes: [] };
  let changes = recentChanges(before.username_changes, nowMs);
  const renamed = edit.username !== undefined && edit.username !== (before.username ?? appName);
  if (renamed) {
    if (changes.length >= USERNAME_CHANGES_PER_WINDOW) {
      return fail([
        issue(
          ['username'],
          USERNAME_RATE_LIMIT,
          'You are changing your username or Discord Tag too fast. Try again later.',
        ),
      ]);
    }
    changes = [...changes, nowMs];
  }
  const imageHash = (change: BotImage | null | undefined, kept: string | null) =>
    change === undefined ? kept : (change?.hash ?? null);
  return ok({
    profile: {
      username: renamed ? edit.username : before.username,
      avatar: imageHash(edit.avatar, before.avatar),
      banner: imageHash(edit.banner, before.banner),
      username_changes: changes,
    },
    avatar: edit.avatar,
    banner: edit.banner,
  });
}

/** An image's hash from a CDN file name (`{hash}.png`, `.jpg`, `.gif`, `.webp`, or none). */
export function imageHashOf(file: string): string {
  return file.replace(/\.(png|jpe?g|gif|webp)$/i, '');
}
