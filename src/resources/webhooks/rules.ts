/**
 * Channel webhooks (v10 Webhook resource, type 1 incoming): the bounds, the bodies of create and
 * edit (names, avatars as data URIs), the execute request's own fields and query, and the webhook
 * object as v10 answers it. Pure: the service reads and writes through the store.
 */
import { createHash } from 'node:crypto';
import { ChannelType, WebhookType, type APIUser, type APIWebhook } from 'discord-api-types/v10';
import {
  BINARY_TYPE_MAX_SIZE,
  BOOLEAN_TYPE_CONVERT,
  IMAGE_INVALID,
  WEBHOOK_INVALID_USERNAME,
} from '../../core/io/codes.js';
import { isAbsent, isRecord, readSnowflake, readString, type JsonRecord } from '../../core/io/read.js';
import { report, reportBadLength, reportNotObject, reportRequired, type Issues } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import type { IssuePath } from '../../core/io/issue.js';
import { THREAD_NAME_MAX } from '../threads/rules/thread-requests.js';
import type { WirePayload } from '../../core/wire-payload.js';

export interface StoredWebhook {
  readonly id: string;
  /** The app that made it: the only one that sees, edits or deletes it with its bot token. */
  readonly application_id: string;
  readonly guild_id: string;
  readonly channel_id: string;
  /** 1 incoming (executed by its token), 2 channel follower (posts the crossposts of its source). */
  readonly type: WebhookType.Incoming | WebhookType.ChannelFollower;
  /** A follower's announcement channel and its guild; null for an incoming webhook. */
  readonly source_guild_id: string | null;
  readonly source_channel_id: string | null;
  readonly name: string;
  /** Its avatar's hash, or null for none. */
  readonly avatar: string | null;
  /** SHA-256 of the token, hex (src/store/tokens.ts). */
  readonly token_digest: string;
  /** Epoch ms. */
  readonly created_at: number;
}

/** An avatar's image: its hash (as the webhook names it), media type and bytes. */
export interface WebhookAvatarImage {
  readonly hash: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** The most webhooks one channel holds (v10: 30007 beyond). */
export const MAX_WEBHOOKS_PER_CHANNEL = 15;
/** A webhook's name (and an execute's `username`): 1 to 80 characters (v10). */
export const WEBHOOK_NAME_MIN = 1;
export const WEBHOOK_NAME_MAX = 80;
/** Words a webhook's name may not contain, in any case (v10). */
export const FORBIDDEN_NAME_WORDS: readonly string[] = ['clyde', 'discord'];
/** The largest avatar image, decoded: 10 MiB, v10's bound on uploaded avatars. */
export const WEBHOOK_AVATAR_BYTES_MAX = 10 * 1024 * 1024;
/** A create or edit body carries the avatar as base64 (4/3 of its bytes) inside JSON: room for the largest. */
export const WEBHOOK_BODY_LIMIT_BYTES = 15 * 1024 * 1024;
/** Random bytes of a token: 51 give 68 base64url characters, the length of v10's tokens. */
export const WEBHOOK_TOKEN_BYTES = 51;
/** Hex digits of an avatar's hash (v10's hashes are 32). */
const AVATAR_HASH_HEX = 32;

/** Channels whose messages are posts (threads): an execute names its post (`thread_name`) or a post (`thread_id`). */
export const POST_CHANNEL_TYPES: ReadonlySet<number> = new Set([ChannelType.GuildForum, ChannelType.GuildMedia]);

/** The channels a webhook may post in: text-bearing guild channels, and forums and media channels (by their posts). */
export const WEBHOOK_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
]);

/** An avatar read from a data URI: its image, or null to remove it. */
export type AvatarChange = WebhookAvatarImage | null;

export interface WebhookCreate {
  readonly name: string;
  readonly avatar: AvatarChange;
}

export interface WebhookEdit {
  readonly name?: string;
  /** Undefined: unchanged; null: removed. */
  readonly avatar?: AvatarChange;
  /** Bot edits only: the channel it moves to. */
  readonly channelId?: string;
}

/** Signatures of the image formats v10 takes for avatars, and their media types. */
const IMAGE_SIGNATURES: readonly { type: string; matches: (bytes: Uint8Array) => boolean }[] = [
  { type: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a' },
  { type: 'image/webp', matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return bytes.length >= to ? Buffer.from(bytes.subarray(from, to)).toString('latin1') : '';
}

const DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An avatar's hash: the first 32 hex digits of its bytes' SHA-256 (a new image, a new hash, a new URL). */
export function avatarHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, AVATAR_HASH_HEX);
}

/** An execute's `avatar_url` as the author's avatar hash: the URL's first 32 hex digits of SHA-256 (nothing is fetched). */
export function avatarUrlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, AVATAR_HASH_HEX);
}

/** `avatar`: a data URI of a PNG, JPEG, GIF or WebP image of at most WEBHOOK_AVATAR_BYTES_MAX, or null. */
export function readAvatar(value: unknown, path: IssuePath, issues: Issues): AvatarChange | undefined {
  if (value === null) return null;
  if (typeof value !== 'string') {
    report(issues, path, IMAGE_INVALID, 'Invalid image data');
    return undefined;
  }
  const prefix = DATA_URI.exec(value);
  const data = prefix ? value.slice(prefix[0].length) : '';
  if (!prefix || !BASE64.test(data) || data.length % 4 !== 0) {
    report(issues, path, IMAGE_INVALID, 'Invalid image data');
    return undefined;
  }
  if ((data.length / 4) * 3 - (data.match(/=*$/)?.[0].length ?? 0) > WEBHOOK_AVATAR_BYTES_MAX) {
    report(issues, path, BINARY_TYPE_MAX_SIZE, `File cannot be larger than ${WEBHOOK_AVATAR_BYTES_MAX / 1024}.0 kb.`);
    return undefined;
  }
  const bytes = new Uint8Array(Buffer.from(data, 'base64'));
  const format = IMAGE_SIGNATURES.find((signature) => signature.matches(bytes));
  if (!format) {
    report(issues, path, IMAGE_INVALID, 'Invalid image data');
    return undefined;
  }
  return { hash: avatarHash(bytes), contentType: format.type, bytes };
}

/** A webhook's name, or an execute's `username`: 1-80 characters, none of FORBIDDEN_NAME_WORDS. */
export function readWebhookName(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  const name = readString(value, path, issues);
  if (name === undefined) return undefined;
  const length = [...name].length;
  if (length < WEBHOOK_NAME_MIN || length > WEBHOOK_NAME_MAX) {
    reportBadLength(issues, path, WEBHOOK_NAME_MIN, WEBHOOK_NAME_MAX);
    return undefined;
  }
  const forbidden = FORBIDDEN_NAME_WORDS.find((word) => name.toLowerCase().includes(word));
  if (forbidden) {
    report(issues, path, WEBHOOK_INVALID_USERNAME, `Username cannot contain "${forbidden}"`);
    return undefined;
  }
  return name;
}

function readBody(body: unknown, issues: Issues): JsonRecord | undefined {
  if (isRecord(body)) return body;
  reportNotObject(issues, []);
  return undefined;
}

/** `POST /channels/{c}/webhooks`: `name` required, `avatar` optional. */
export function readWebhookCreate(body: unknown): Result<WebhookCreate> {
  const issues: Issues = [];
  const record = readBody(body, issues);
  if (!record) return fail(issues);
  if (isAbsent(record.name)) reportRequired(issues, ['name']);
  const name = isAbsent(record.name) ? undefined : readWebhookName(record.name, ['name'], issues);
  const avatar = record.avatar === undefined ? null : readAvatar(record.avatar, ['avatar'], issues);
  if (issues.length > 0 || name === undefined || avatar === undefined) return fail(issues);
  return ok({ name, avatar });
}

/** `PATCH /webhooks/{id}` (`channel_id` too) or `PATCH /webhooks/{id}/{token}` (no channel: v10 ignores it there). */
export function readWebhookEdit(body: unknown, withChannel: boolean): Result<WebhookEdit> {
  const issues: Issues = [];
  const record = readBody(body ?? {}, issues);
  if (!record) return fail(issues);
  const edit: { name?: string; avatar?: AvatarChange; channelId?: string } = {};
  if (!isAbsent(record.name)) {
    const name = readWebhookName(record.name, ['name'], issues);
    if (name !== undefined) edit.name = name;
  }
  if (record.avatar !== undefined) {
    const avatar = readAvatar(record.avatar, ['avatar'], issues);
    if (avatar !== undefined) edit.avatar = avatar;
  }
  if (withChannel && !isAbsent(record.channel_id)) {
    const channelId = readSnowflake(record.channel_id, ['channel_id'], issues);
    if (channelId !== undefined) edit.channelId = channelId;
  }
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** What an execute's query asks: the message back (`wait`), a thread of the channel (`thread_id`). */
export interface ExecuteQuery {
  readonly wait: boolean;
  readonly threadId?: string;
}

/**
 * `?wait=` (read by the route as v10 reads query booleans: `strictQueryFlag`, null when it is none)
 * and `?thread_id=`.
 */
export function readExecuteQuery(wait: boolean | null, threadId: unknown): Result<ExecuteQuery> {
  const issues: Issues = [];
  if (wait === null) report(issues, ['wait'], BOOLEAN_TYPE_CONVERT, 'Must be either true or false.');
  const thread = isAbsent(threadId) || threadId === '' ? undefined : readSnowflake(threadId, ['thread_id'], issues);
  if (issues.length > 0 || wait === null) return fail(issues);
  return ok(thread === undefined ? { wait } : { wait, threadId: thread });
}

/** What an execute's body says besides the message: the name and avatar to show, a forum post's name. */
export interface ExecuteSender {
  readonly username?: string;
  /** In a forum or media channel: the post (thread) the message starts. */
  readonly threadName?: string;
  /** Kept as the request gave it: slashd fetches no URL (docs/decisions.md, "Webhooks"). */
  readonly avatarUrl?: string;
}

/** The execute body's own fields (`username`, `avatar_url`), read and taken out of the message body. */
export function readExecuteSender(body: unknown): Result<{ sender: ExecuteSender; message: unknown }> {
  if (!isRecord(body)) return ok({ sender: {}, message: body });
  const issues: Issues = [];
  // A webhook replies to nothing: `message_reference` is not read (nor `applied_tags`, not served).
  const {
    username,
    avatar_url: avatarUrl,
    thread_name: threadName,
    applied_tags: _tags,
    message_reference: _reference,
    ...message
  } = body;
  const sender: { username?: string; avatarUrl?: string; threadName?: string } = {};
  if (!isAbsent(threadName)) {
    const name = readString(threadName, ['thread_name'], issues);
    if (name !== undefined && (name.length < 1 || name.length > THREAD_NAME_MAX)) {
      reportBadLength(issues, ['thread_name'], 1, THREAD_NAME_MAX);
    } else if (name !== undefined) sender.threadName = name;
  }
  if (!isAbsent(username)) {
    const name = readWebhookName(username, ['username'], issues);
    if (name !== undefined) sender.username = name;
  }
  if (!isAbsent(avatarUrl)) {
    const url = readString(avatarUrl, ['avatar_url'], issues);
    if (url !== undefined) sender.avatarUrl = url;
  }
  return issues.length > 0 ? fail(issues) : ok({ sender, message });
}

/** What a follower webhook shows of the announcement channel it follows, as the world names it now. */
export interface WebhookSource {
  readonly guild: { id: string; name: string; icon: string | null };
  readonly channel: { id: string; name: string };
}

/** What a webhook object shows besides the row: its creator, (on create only) its token and URL, a follower's source. */
export interface WebhookView {
  readonly user: WirePayload<APIUser> | null;
  readonly secret?: { token: string; url: string };
  readonly source?: WebhookSource | null;
}

/**
 * The v10 webhook object: type 1 (incoming, the app's), or type 2 (a channel follower: no
 * application, its source guild and channel).
 */
export function toWireWebhook(webhook: StoredWebhook, view: WebhookView): WirePayload<APIWebhook> {
  const follower = webhook.type === WebhookType.ChannelFollower;
  const wire: WirePayload<APIWebhook> = {
    id: webhook.id,
    type: webhook.type,
    guild_id: webhook.guild_id,
    channel_id: webhook.channel_id,
    name: webhook.name,
    avatar: webhook.avatar,
    application_id: follower ? null : webhook.application_id,
  } satisfies APIWebhook;
  if (view.user) wire.user = view.user;
  if (follower && view.source) {
    wire.source_guild = { ...view.source.guild };
    wire.source_channel = { ...view.source.channel };
  }
  if (view.secret) {
    wire.token = view.secret.token;
    wire.url = view.secret.url;
  }
  return wire;
}

/** Channels a follower webhook may post crossposts in: text and announcement channels (v10). */
export const FOLLOWER_TARGET_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
]);
/** A follower webhook's name: its source's guild and channel, as v10 names it. */
export function followerWebhookName(guildName: string, channelName: string): string {
  return [...`${guildName} #${channelName}`].slice(0, WEBHOOK_NAME_MAX).join('');
}

/** `POST /channels/{c}/followers`: `webhook_channel_id`, the channel the follower webhook posts in. */
export function readFollowBody(body: unknown): Result<{ webhookChannelId: string }> {
  const issues: Issues = [];
  const record = readBody(body, issues);
  if (!record) return fail(issues);
  if (isAbsent(record.webhook_channel_id)) {
    reportRequired(issues, ['webhook_channel_id']);
    return fail(issues);
  }
  const id = readSnowflake(record.webhook_channel_id, ['webhook_channel_id'], issues);
  return id === undefined || issues.length > 0 ? fail(issues) : ok({ webhookChannelId: id });
}
