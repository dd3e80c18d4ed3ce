/**
 * `PATCH /guilds/{id}` (v10 Modify Guild): what the body may hold, the guild after it (the
 * channels it names must be the guild's), and the audit entry's changes. Pure: the service checks
 * MANAGE_GUILD and the store writes the guild's document.
 */
import { ChannelType } from 'discord-api-types/v10';
import type { AuditChange } from '../../audit-log/rules.js';
import { BASE_TYPE_CHOICES, GUILD_CHANNEL_INVALID } from '../../../core/io/codes.js';
import { readImageDataUri } from '../../../core/image-data.js';
import { isSupportedLocale } from '../../../core/locales.js';
import {
  fieldOf,
  isAbsent,
  isRecord,
  readBoolean,
  readInteger,
  readList,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import {
  report,
  reportAboveMax,
  reportBadLength,
  reportNotObject,
  reportNotOneOf,
  reportTooLong,
  type Issues,
} from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { toWireGuildSettingsFields } from '../../../core/world/guild-settings.js';
import type { Guild, GuildSettings } from '../../../core/world/types.js';

/** A guild's name: 2 to 100 characters (v10). */
export const GUILD_NAME_MIN = 2;
export const GUILD_NAME_MAX = 100;
/** A guild's description: at most 120 characters (v10). */
export const GUILD_DESCRIPTION_MAX = 120;
/** The largest icon image, decoded: 10 MiB (v10's upload cap for guild icons). */
export const GUILD_ICON_MAX_BYTES = 10 * 1024 * 1024;
/** The body of a guild edit: an icon's data URI (base64: 4/3 of the image) and a few fields. */
export const GUILD_EDIT_BODY_LIMIT_BYTES = Math.ceil((GUILD_ICON_MAX_BYTES * 4) / 3) + 64 * 1024;
/** The AFK timeouts v10 offers, in seconds. */
export const AFK_TIMEOUTS: readonly number[] = [60, 300, 900, 1800, 3600];
/** The features a bot may turn on and off (v10's mutable features that need MANAGE_GUILD alone). */
export const MUTABLE_FEATURES: readonly string[] = ['INVITES_DISABLED', 'RAID_ALERTS_DISABLED'];
/** v10's verification levels 0-4, notification levels 0-1, explicit content filters 0-2. */
const VERIFICATION_LEVELS = [0, 1, 2, 3, 4];
const NOTIFICATION_LEVELS = [0, 1];
const CONTENT_FILTERS = [0, 1, 2];
/** System channel flags v10 defines (bits 0-7). */
const SYSTEM_CHANNEL_FLAGS_MAX = 0xff;

/** The channel settings and the channel types each may name. */
const CHANNEL_SETTINGS = {
  system_channel_id: [ChannelType.GuildText],
  rules_channel_id: [ChannelType.GuildText],
  public_updates_channel_id: [ChannelType.GuildText],
  safety_alerts_channel_id: [ChannelType.GuildText],
  afk_channel_id: [ChannelType.GuildVoice],
} as const satisfies Record<string, readonly number[]>;

type ChannelSetting = keyof typeof CHANNEL_SETTINGS;

/** What an edit changes: the guild's own fields, and its settings (each absent: unchanged). */
export interface GuildEdit {
  name?: string;
  preferred_locale?: string;
  settings: GuildSettings;
}

function readNullableString(body: JsonRecord, key: string, max: number, issues: Issues): string | null | undefined {
  const value = fieldOf(body, key);
  if (value === undefined) return undefined;
  if (value === null) return null;
  const text = readString(value, [key], issues);
  if (text !== undefined && text.length > max) reportTooLong(issues, [key], max);
  return text;
}

function readChoice(body: JsonRecord, key: string, choices: readonly number[], issues: Issues): number | undefined {
  const value = fieldOf(body, key);
  if (isAbsent(value)) return undefined;
  const read = readInteger(value, [key], issues);
  if (read !== undefined && !choices.includes(read)) reportNotOneOf(issues, [key], choices);
  return read;
}

/** The icon's hash (`a_` first for an animated GIF, as v10's), or null to remove it. */
function readIcon(body: JsonRecord, issues: Issues): string | null | undefined {
  const value = fieldOf(body, 'icon');
  if (value === undefined) return undefined;
  if (value === null) return null;
  return readImageDataUri(value, ['icon'], issues, GUILD_ICON_MAX_BYTES)?.hash;
}

function readFeatures(body: JsonRecord, issues: Issues): string[] | undefined {
  const value = fieldOf(body, 'features');
  if (isAbsent(value)) return undefined;
  const list = readList(value, ['features'], issues);
  if (!list) return undefined;
  const features: string[] = [];
  list.forEach((item, i) => {
    const feature = readString(item, ['features', i], issues);
    // Features a bot may not toggle (a guild's earned or paid ones) are not changed by a list naming them.
    if (feature !== undefined && MUTABLE_FEATURES.includes(feature) && !features.includes(feature)) {
      features.push(feature);
    }
  });
  return features;
}

function readChannelSetting(body: JsonRecord, key: ChannelSetting, issues: Issues): string | null | undefined {
  const value = fieldOf(body, key);
  if (value === undefined) return undefined;
  if (value === null) return null;
  return readSnowflake(value, [key], issues);
}

function readName(body: JsonRecord, issues: Issues): string | undefined {
  const value = fieldOf(body, 'name');
  if (isAbsent(value)) return undefined;
  const name = readString(value, ['name'], issues);
  const length = name?.trim().length ?? 0;
  if (name !== undefined && (length < GUILD_NAME_MIN || name.length > GUILD_NAME_MAX)) {
    reportBadLength(issues, ['name'], GUILD_NAME_MIN, GUILD_NAME_MAX);
  }
  return name?.trim();
}

function readLocale(body: JsonRecord, issues: Issues): string | undefined {
  const value = fieldOf(body, 'preferred_locale');
  if (isAbsent(value)) return undefined;
  const locale = readString(value, ['preferred_locale'], issues);
  if (locale !== undefined && !isSupportedLocale(locale))
    report(issues, ['preferred_locale'], BASE_TYPE_CHOICES, 'Invalid locale');
  return locale;
}

/** Sets `key` of `settings` when the body gave it. */
function put<K extends keyof GuildSettings>(
  settings: GuildSettings,
  key: K,
  value: GuildSettings[K] | undefined,
): void {
  if (value !== undefined) settings[key] = value;
}

/** The body of `PATCH /guilds/{id}`: each field optional; unknown fields are ignored, as v10 ignores them. */
export function readGuildEdit(body: unknown): Result<GuildEdit> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const settings: GuildSettings = {};
  put(settings, 'icon', readIcon(body, issues));
  put(settings, 'description', readNullableString(body, 'description', GUILD_DESCRIPTION_MAX, issues));
  for (const key of Object.keys(CHANNEL_SETTINGS) as ChannelSetting[])
    put(settings, key, readChannelSetting(body, key, issues));
  put(settings, 'verification_level', readChoice(body, 'verification_level', VERIFICATION_LEVELS, issues));
  put(
    settings,
    'default_message_notifications',
    readChoice(body, 'default_message_notifications', NOTIFICATION_LEVELS, issues),
  );
  put(settings, 'explicit_content_filter', readChoice(body, 'explicit_content_filter', CONTENT_FILTERS, issues));
  put(settings, 'afk_timeout', readChoice(body, 'afk_timeout', AFK_TIMEOUTS, issues));
  put(settings, 'features', readFeatures(body, issues));
  const flags = fieldOf(body, 'system_channel_flags');
  if (!isAbsent(flags)) {
    const read = readInteger(flags, ['system_channel_flags'], issues);
    if (read !== undefined && (read < 0 || read > SYSTEM_CHANNEL_FLAGS_MAX)) {
      reportAboveMax(issues, ['system_channel_flags'], SYSTEM_CHANNEL_FLAGS_MAX);
    }
    put(settings, 'system_channel_flags', read);
  }
  const bar = fieldOf(body, 'premium_progress_bar_enabled');
  if (!isAbsent(bar))
    put(settings, 'premium_progress_bar_enabled', readBoolean(bar, ['premium_progress_bar_enabled'], issues));
  const edit: GuildEdit = { settings };
  const name = readName(body, issues);
  if (name !== undefined) edit.name = name;
  const locale = readLocale(body, issues);
  if (locale !== undefined) edit.preferred_locale = locale;
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** The guild after the edit, or the issues of channels it names that the guild lacks (or of the wrong type). */
export function editedGuild(guild: Guild, edit: GuildEdit): Result<Guild> {
  const issues: Issues = [];
  for (const key of Object.keys(CHANNEL_SETTINGS) as ChannelSetting[]) {
    const id = edit.settings[key];
    if (id === undefined || id === null) continue;
    const channel = guild.channels.find((c) => c.id === id);
    const types: readonly number[] = CHANNEL_SETTINGS[key];
    if (!channel || !types.includes(channel.type)) {
      report(issues, [key], GUILD_CHANNEL_INVALID, `Not a channel of this guild of type ${types.join(' or ')}`);
    }
  }
  if (issues.length > 0) return fail(issues);
  return ok({
    ...guild,
    name: edit.name ?? guild.name,
    preferred_locale: edit.preferred_locale ?? guild.preferred_locale,
    settings: { ...guild.settings, ...edit.settings },
  });
}

/** The fields of a guild an audit entry compares, as v10 names them. */
function auditedFields(guild: Guild): Record<string, unknown> {
  return { name: guild.name, preferred_locale: guild.preferred_locale, ...toWireGuildSettingsFields(guild) };
}

/** GUILD_UPDATE's audit changes: each field whose value the edit changed. */
export function guildEditChanges(before: Guild, after: Guild): AuditChange[] {
  const old = auditedFields(before);
  const now = auditedFields(after);
  return Object.keys(now)
    .filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]))
    .map((key) => ({ key, old_value: old[key], new_value: now[key] }) as AuditChange);
}
