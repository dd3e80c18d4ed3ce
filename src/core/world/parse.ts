/**
 * Reads a world file (docs/world.md) into the normalized World, filling defaults.
 * Problems come back as Issues with their JSON path; the admin API uses the same readers.
 */
import type { IssuePath } from '../io/issue.js';
import {
  isAbsent,
  readBoolean,
  readInteger,
  readList,
  readOptional,
  readRecord,
  readRequired,
  readSnowflake,
  readString,
} from '../io/read.js';
import {
  reportAboveMax,
  reportBadLength,
  reportBelowMin,
  reportNotInteger,
  reportNotOneOf,
  report,
  reportDuplicateValue,
  reportTooLong,
  type Issues,
} from '../io/report.js';
import { fail, resultOf, type Result } from '../io/result.js';
import { checkWorldConsistency } from './consistency.js';
import { checkEmojiName, GUILD_EMOJIS_MAX } from './emojis.js';
import { BASE_TYPE_MAX_LENGTH, WORLD_UNKNOWN_REFERENCE } from '../io/codes.js';
import { THREAD_CHANNEL_TYPES } from './types.js';
import { MAX_ACTIVE_THREADS } from '../../resources/threads/rules/limits.js';
import { readSkuDefinition, SKUS_PER_APPLICATION_MAX } from '../../resources/entitlements/rules.js';
import type {
  Application,
  Channel,
  Emoji,
  Sticker,
  GroupDm,
  Guild,
  GuildSettings,
  Install,
  Member,
  Message,
  OAuth2Token,
  PermissionOverwrite,
  Role,
  User,
  World,
  WorldSku,
} from './types.js';

type Json = Readonly<Record<string, unknown>>;

/** For integers that count or flag something: 0 up to the largest safe integer. */
function readCount(value: unknown, path: IssuePath, issues: Issues): number | undefined {
  const count = readInteger(value, path, issues);
  if (count === undefined) return undefined;
  if (count < 0) reportBelowMin(issues, path, 0);
  else if (!Number.isSafeInteger(count)) reportAboveMax(issues, path, Number.MAX_SAFE_INTEGER);
  else return count;
  return undefined;
}

/** A permission bit set: a decimal string (any width, normalized) or a safe non-negative integer. */
function readBitSet(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  if (typeof value === 'string' && /^\d{1,40}$/.test(value)) return BigInt(value).toString();
  if (typeof value === 'string') {
    reportNotInteger(issues, path, value);
    return undefined;
  }
  return readCount(value, path, issues)?.toString();
}

/**
 * The world file's readers: ../io/read.ts with the defaults a world file leaves out filled in, so
 * a world reads to a complete value even while it collects issues.
 */
class Reader {
  readonly issues: Issues = [];

  object(value: unknown, path: IssuePath): Json {
    return readRecord(value, path, this.issues) ?? {};
  }

  list(value: unknown, path: IssuePath): readonly unknown[] {
    return value === undefined ? [] : (readList(value, path, this.issues) ?? []);
  }

  snowflake(value: unknown, path: IssuePath): string {
    return readRequired(value, path, this.issues, readSnowflake) ?? '0';
  }

  optionalSnowflake(value: unknown, path: IssuePath): string | null {
    return readOptional<string | null>(value, path, this.issues, readSnowflake, null);
  }

  /** A required string, or with a fallback an optional one. */
  string(value: unknown, path: IssuePath, fallback?: string): string {
    if (fallback !== undefined) return readOptional(value, path, this.issues, readString, fallback);
    return readRequired(value, path, this.issues, readString) ?? '';
  }

  nullableString(value: unknown, path: IssuePath): string | null {
    return readOptional<string | null>(value, path, this.issues, readString, null);
  }

  boolean(value: unknown, path: IssuePath, fallback: boolean): boolean {
    return readOptional(value, path, this.issues, readBoolean, fallback);
  }

  integer(value: unknown, path: IssuePath, fallback: number): number {
    return readOptional(value, path, this.issues, readCount, fallback);
  }

  bitSet(value: unknown, path: IssuePath, fallback: string): string {
    return readOptional(value, path, this.issues, readBitSet, fallback);
  }

  /** One of `allowed` (an enumeration such as integration types). */
  choice<T extends number>(value: unknown, path: IssuePath, allowed: readonly T[], fallback: T): T {
    if (allowed.includes(value as T)) return value as T;
    reportNotOneOf(this.issues, path, allowed);
    return fallback;
  }

  stringList(value: unknown, path: IssuePath): string[] {
    return this.list(value, path).map((v, i) => this.string(v, [...path, i]));
  }

  snowflakeList(value: unknown, path: IssuePath): string[] {
    return this.list(value, path).map((v, i) => this.snowflake(v, [...path, i]));
  }
}

/** An application's `skus`: at most 50, each as the admin API's SKU list reads one, their ids unique. */
function readWorldSkus(r: Reader, value: unknown, path: IssuePath, applicationId: string): WorldSku[] {
  const list = r.list(value, path);
  if (list.length > SKUS_PER_APPLICATION_MAX) reportTooLong(r.issues, path, SKUS_PER_APPLICATION_MAX);
  const skus: WorldSku[] = [];
  list.forEach((item, index) => {
    const sku = readSkuDefinition(item, [...path, index], applicationId, r.issues);
    if (!sku) return;
    if (skus.some((other) => other.id === sku.id)) reportDuplicateValue(r.issues, [...path, index, 'id'], sku.id);
    else skus.push({ id: sku.id, type: sku.type, name: sku.name, slug: sku.slug, flags: sku.flags });
  });
  return skus;
}

function readApplication(r: Reader, value: unknown, path: IssuePath): Application {
  const o = r.object(value, path);
  const id = r.snowflake(o.id, [...path, 'id']);
  const integrationTypes =
    o.integration_types === undefined
      ? [0]
      : r
          .list(o.integration_types, [...path, 'integration_types'])
          .map((v, i) => r.choice(v, [...path, 'integration_types', i], [0, 1] as const, 0));
  return {
    id,
    name: r.string(o.name, [...path, 'name']),
    owner_id: r.snowflake(o.owner_id, [...path, 'owner_id']),
    bot_token: r.string(o.bot_token, [...path, 'bot_token']),
    client_secret: r.string(o.client_secret, [...path, 'client_secret'], ''),
    public_client: r.boolean(o.public_client, [...path, 'public_client'], false),
    redirect_uris: r.stringList(o.redirect_uris, [...path, 'redirect_uris']),
    flags: r.integer(o.flags, [...path, 'flags'], 0),
    integration_types: [...new Set(integrationTypes)],
    discoverable: r.boolean(o.discoverable, [...path, 'discoverable'], false),
    interactions_endpoint_url: r.nullableString(o.interactions_endpoint_url, [...path, 'interactions_endpoint_url']),
    ...given('skus', o.skus, (v) => readWorldSkus(r, v, [...path, 'skus'], id)),
  };
}

function readUser(r: Reader, value: unknown, path: IssuePath): User {
  const o = r.object(value, path);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    username: r.string(o.username, [...path, 'username']),
    token: r.string(o.token, [...path, 'token']),
    locale: r.string(o.locale, [...path, 'locale'], 'en-US'),
    age_verified: r.boolean(o.age_verified, [...path, 'age_verified'], false),
  };
}

/** `{[key]: read(value)}` when the value is given, `{}` otherwise: optional fields keep a world's exact shape. */
function given<K extends string, T>(key: K, value: unknown, read: (value: unknown) => T): { [P in K]?: T } {
  return value === undefined || value === null ? {} : ({ [key]: read(value) } as { [P in K]?: T });
}

function readRole(r: Reader, value: unknown, path: IssuePath): Role {
  const o = r.object(value, path);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    name: r.string(o.name, [...path, 'name']),
    permissions: r.bitSet(o.permissions, [...path, 'permissions'], '0'),
    ...given('color', o.color, (v) => r.integer(v, [...path, 'color'], 0)),
    ...given('hoist', o.hoist, (v) => r.boolean(v, [...path, 'hoist'], false)),
    ...given('mentionable', o.mentionable, (v) => r.boolean(v, [...path, 'mentionable'], false)),
    ...given('bot_id', o.bot_id, (v) => r.snowflake(v, [...path, 'bot_id'])),
  };
}

function readOverwrite(r: Reader, value: unknown, path: IssuePath): PermissionOverwrite {
  const o = r.object(value, path);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    type: r.choice(o.type, [...path, 'type'], [0, 1] as const, 0),
    allow: r.bitSet(o.allow, [...path, 'allow'], '0'),
    deny: r.bitSet(o.deny, [...path, 'deny'], '0'),
  };
}

function readChannel(r: Reader, value: unknown, path: IssuePath): Channel {
  const o = r.object(value, path);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    type: r.integer(o.type, [...path, 'type'], 0),
    name: r.string(o.name, [...path, 'name']),
    nsfw: r.boolean(o.nsfw, [...path, 'nsfw'], false),
    parent_id: r.optionalSnowflake(o.parent_id, [...path, 'parent_id']),
    permission_overwrites: r
      .list(o.permission_overwrites, [...path, 'permission_overwrites'])
      .map((v, i) => readOverwrite(r, v, [...path, 'permission_overwrites', i])),
    // Only when given, so that worlds without private threads keep their exact shape.
    ...(o.thread_member_ids === undefined
      ? {}
      : { thread_member_ids: r.snowflakeList(o.thread_member_ids, [...path, 'thread_member_ids']) }),
    ...given('topic', o.topic, (v) => r.string(v, [...path, 'topic'])),
    ...given('rate_limit_per_user', o.rate_limit_per_user, (v) => r.integer(v, [...path, 'rate_limit_per_user'], 0)),
  };
}

/** Members without a join date joined at the v10 epoch: a fixed value keeps fixtures stable. */
const DEFAULT_JOINED_AT = '2015-01-01T00:00:00.000Z';

function readMember(r: Reader, value: unknown, path: IssuePath): Member {
  const o = r.object(value, path);
  return {
    user_id: r.snowflake(o.user_id, [...path, 'user_id']),
    roles: r.snowflakeList(o.roles, [...path, 'roles']),
    nick: r.nullableString(o.nick, [...path, 'nick']),
    joined_at: r.string(o.joined_at ?? undefined, [...path, 'joined_at'], DEFAULT_JOINED_AT),
    // Kept only when given, so a world file without them reads back exactly as written.
    ...(isAbsent(o.communication_disabled_until)
      ? {}
      : {
          communication_disabled_until: r.nullableString(o.communication_disabled_until, [
            ...path,
            'communication_disabled_until',
          ]),
        }),
    ...(o.mute === undefined ? {} : { mute: r.boolean(o.mute, [...path, 'mute'], false) }),
    ...(o.deaf === undefined ? {} : { deaf: r.boolean(o.deaf, [...path, 'deaf'], false) }),
  };
}

function readInstall(r: Reader, value: unknown, path: IssuePath): Install {
  const o = r.object(value, path);
  return {
    application_id: r.snowflake(o.application_id, [...path, 'application_id']),
    scopes: r.stringList(o.scopes, [...path, 'scopes']),
    permissions:
      o.permissions === undefined || o.permissions === null
        ? null
        : r.bitSet(o.permissions, [...path, 'permissions'], '0'),
    ...(isAbsent(o.nick) ? {} : { nick: r.nullableString(o.nick, [...path, 'nick']) }),
  };
}

function readMessage(r: Reader, value: unknown, path: IssuePath): Message {
  const o = r.object(value, path);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    channel_id: r.snowflake(o.channel_id, [...path, 'channel_id']),
    author_id: r.snowflake(o.author_id, [...path, 'author_id']),
    content: r.string(o.content, [...path, 'content'], ''),
  };
}

function readEmoji(r: Reader, value: unknown, path: IssuePath): Emoji {
  const o = r.object(value, path);
  const name = r.string(o.name, [...path, 'name']);
  if (o.name !== undefined) checkEmojiName(name, [...path, 'name'], r.issues);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    name,
    animated: r.boolean(o.animated, [...path, 'animated'], false),
    roles: r.snowflakeList(o.roles, [...path, 'roles']),
    available: r.boolean(o.available, [...path, 'available'], true),
    ...(o.user_id !== undefined ? { user_id: r.snowflake(o.user_id, [...path, 'user_id']) } : {}),
  };
}

/** A sticker the API made, as an export writes it (its file is the expressions store's). */
function readSticker(r: Reader, value: unknown, path: IssuePath): Sticker {
  const o = r.object(value, path);
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    name: r.string(o.name, [...path, 'name']),
    description: r.nullableString(o.description, [...path, 'description']),
    tags: r.string(o.tags, [...path, 'tags'], ''),
    format_type: r.integer(o.format_type, [...path, 'format_type'], 1),
    available: r.boolean(o.available, [...path, 'available'], true),
    ...(o.user_id !== undefined ? { user_id: r.snowflake(o.user_id, [...path, 'user_id']) } : {}),
  };
}

/** A guild's stickers, bounded as its emojis are; only when given. */
function readGuildStickers(r: Reader, value: unknown, path: IssuePath): { stickers?: Sticker[] } {
  if (value === undefined) return {};
  const list = r.list(value, path);
  if (list.length > GUILD_EMOJIS_MAX) reportBadLength(r.issues, path, 0, GUILD_EMOJIS_MAX);
  return { stickers: list.map((v, i) => readSticker(r, v, [...path, i])) };
}

/** A guild's emojis, bounded; only when given, so that worlds without emojis keep their exact shape. */
function readGuildEmojis(r: Reader, value: unknown, path: IssuePath): { emojis?: Emoji[] } {
  if (value === undefined) return {};
  const list = r.list(value, path);
  if (list.length > GUILD_EMOJIS_MAX) reportBadLength(r.issues, path, 0, GUILD_EMOJIS_MAX);
  return { emojis: list.map((v, i) => readEmoji(r, v, [...path, i])) };
}

/**
 * A world file's threads are active (they have no archived state), so a guild holds at most the
 * cap of them: every GUILD_CREATE stays bounded, and the API's creates count them too. A thread
 * the API stored (read back with its `thread` state, as a guild's GET shows it) is the store's,
 * counted there.
 */
function checkWorldThreads(issues: Issues, raw: unknown, channels: readonly Channel[], path: IssuePath): void {
  const given = Array.isArray(raw) ? (raw as unknown[]) : [];
  let threads = 0;
  channels.forEach((channel, index) => {
    const item = given[index];
    const stored = typeof item === 'object' && item !== null && 'thread' in item;
    if (!THREAD_CHANNEL_TYPES.has(channel.type) || stored || ++threads !== MAX_ACTIVE_THREADS + 1) return;
    report(
      issues,
      [...path, index],
      BASE_TYPE_MAX_LENGTH,
      `A guild holds at most ${MAX_ACTIVE_THREADS} active threads.`,
    );
  });
}

/** The settings' fields by kind, as `GuildSettings` holds them. */
const SETTING_STRINGS = [
  'icon',
  'description',
  'system_channel_id',
  'rules_channel_id',
  'public_updates_channel_id',
  'safety_alerts_channel_id',
  'afk_channel_id',
] as const;
const SETTING_INTEGERS = [
  'system_channel_flags',
  'afk_timeout',
  'verification_level',
  'default_message_notifications',
  'explicit_content_filter',
] as const;

/**
 * A guild's settings (what `PATCH /guilds/{id}` set, as an export writes them); only when given,
 * so that worlds without settings keep their exact shape. Each field only when given.
 */
function readGuildSettings(r: Reader, value: unknown, path: IssuePath): { settings?: GuildSettings } {
  if (value === undefined) return {};
  const o = r.object(value, path);
  const settings: GuildSettings = {};
  for (const key of SETTING_STRINGS) if (o[key] !== undefined) settings[key] = r.nullableString(o[key], [...path, key]);
  for (const key of SETTING_INTEGERS) if (o[key] !== undefined) settings[key] = r.integer(o[key], [...path, key], 0);
  if (o.features !== undefined) {
    settings.features = r.list(o.features, [...path, 'features']).map((v, i) => r.string(v, [...path, 'features', i]));
  }
  if (o.premium_progress_bar_enabled !== undefined) {
    settings.premium_progress_bar_enabled = r.boolean(
      o.premium_progress_bar_enabled,
      [...path, 'premium_progress_bar_enabled'],
      false,
    );
  }
  return { settings };
}

function readGuild(r: Reader, value: unknown, path: IssuePath): Guild {
  const o = r.object(value, path);
  const each = <T>(field: string, read: (r: Reader, v: unknown, p: IssuePath) => T): T[] =>
    r.list(o[field], [...path, field]).map((v, i) => read(r, v, [...path, field, i]));
  const guild: Guild = {
    id: r.snowflake(o.id, [...path, 'id']),
    name: r.string(o.name, [...path, 'name']),
    owner_id: r.snowflake(o.owner_id, [...path, 'owner_id']),
    preferred_locale: r.string(o.preferred_locale, [...path, 'preferred_locale'], 'en-US'),
    roles: each('roles', readRole),
    channels: each('channels', readChannel),
    members: each('members', readMember),
    installs: each('installs', readInstall),
    messages: each('messages', readMessage),
    ...readGuildEmojis(r, o.emojis, [...path, 'emojis']),
    ...readGuildStickers(r, o.stickers, [...path, 'stickers']),
    ...readGuildSettings(r, o.settings, [...path, 'settings']),
  };
  checkWorldThreads(r.issues, o.channels, guild.channels, [...path, 'channels']);
  if (!guild.roles.some((role) => role.id === guild.id)) {
    // Every guild has an @everyone role; a world that leaves it out gets one with no permissions.
    guild.roles.unshift({ id: guild.id, name: '@everyone', permissions: '0' });
  }
  return guild;
}

function readToken(r: Reader, value: unknown, path: IssuePath): OAuth2Token {
  const o = r.object(value, path);
  return {
    access_token: r.string(o.access_token, [...path, 'access_token']),
    user_id: r.optionalSnowflake(o.user_id, [...path, 'user_id']),
    application_id: r.snowflake(o.application_id, [...path, 'application_id']),
    scopes: r.stringList(o.scopes, [...path, 'scopes']),
  };
}

/** v10: a group DM holds at most 10 users. */
export const GROUP_DM_RECIPIENTS_MAX = 10;

function readGroupDm(r: Reader, value: unknown, path: IssuePath): GroupDm {
  const o = r.object(value, path);
  const recipientsPath = [...path, 'recipients'];
  const recipients = r.snowflakeList(o.recipients, recipientsPath);
  if (recipients.length < 1 || recipients.length > GROUP_DM_RECIPIENTS_MAX) {
    reportBadLength(r.issues, recipientsPath, 1, GROUP_DM_RECIPIENTS_MAX);
  }
  const owner = r.optionalSnowflake(o.owner_id, [...path, 'owner_id']);
  if (owner !== null && !recipients.includes(owner)) {
    report(r.issues, [...path, 'owner_id'], WORLD_UNKNOWN_REFERENCE, `The owner must be a recipient: ${owner}`);
  }
  return {
    id: r.snowflake(o.id, [...path, 'id']),
    name: r.nullableString(o.name, [...path, 'name']),
    owner_id: owner,
    recipients: [...new Set(recipients)],
  };
}

function parseWith<T>(read: (r: Reader, value: unknown, path: IssuePath) => T, value: unknown): Result<T> {
  const reader = new Reader();
  const result = read(reader, value, []);
  return resultOf(result, reader.issues);
}

export const parseApplication = (value: unknown) => parseWith(readApplication, value);
export const parseUser = (value: unknown) => parseWith(readUser, value);
export const parseGuild = (value: unknown) => parseWith(readGuild, value);
export const parseMember = (value: unknown) => parseWith(readMember, value);
export const parseOAuth2Token = (value: unknown) => parseWith(readToken, value);
export const parseGroupDm = (value: unknown) => parseWith(readGroupDm, value);

/** A whole world: its shape, then the rules across it (see consistency.ts). */
export function parseWorld(value: unknown): Result<World> {
  const parsed = parseWorldShape(value);
  if (!parsed.ok) return parsed;
  const issues = checkWorldConsistency(parsed.value);
  return issues.length > 0 ? fail(issues) : parsed;
}

/**
 * A world's shape only: for an addition to the stored world, whose references may point at what
 * is stored already; the merged result is checked as a whole.
 */
export function parseWorldShape(value: unknown): Result<World> {
  return parseWith((r, v, path) => {
    const o = r.object(v, path);
    const each = <T>(field: string, read: (r: Reader, v: unknown, p: IssuePath) => T): T[] =>
      r.list(o[field], [field]).map((item, i) => read(r, item, [field, i]));
    return {
      applications: each('applications', readApplication),
      users: each('users', readUser),
      guilds: each('guilds', readGuild),
      oauth2_tokens: each('oauth2_tokens', readToken),
      // Only when given, so that worlds without group DMs keep their exact shape.
      ...(o.group_dms === undefined ? {} : { group_dms: each('group_dms', readGroupDm) }),
    };
  }, value);
}
