/**
 * A guild emoji's bodies (`POST`, `PATCH /guilds/{g}/emojis`) and the planned change of the guild's
 * emojis, decided on the guild as stored: the name's rules are the world file's
 * (core/world/emojis.ts), the image a data URI of at most 256 KiB (a GIF makes it animated), the
 * roles the guild's, and each kind (static, animated) holds the slots of the guild's boost level.
 */
import { AuditLogEvent } from 'discord-api-types/v10';
import type { ImageData } from '../../../core/image-data.js';
import { apiError } from '../../../core/io/errors.js';
import {
  isAbsent,
  isRecord,
  readList,
  readRequired,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import { reportNotObject, reportTooLong, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { checkEmojiName, findGuildEmoji, guildEmojis } from '../../../core/world/emojis.js';
import type { Emoji, Guild } from '../../../core/world/types.js';
import type { AuditEntryInput } from '../../audit-log/rules.js';
import type { StructureActor } from '../../guild-structure/rules/actor.js';
import { auditChanges } from './audit.js';
import { readEmojiImage } from './emoji-image.js';
import { EMOJI_ROLES_MAX, emojiSlotsOf } from './limits.js';
import { requireCreate, requireManage } from './permissions.js';

/** What a create body holds. */
export interface EmojiCreate {
  name: string;
  image: ImageData;
  roles: string[];
}

/** What an edit body changes (absent: kept). */
export interface EmojiEdit {
  name?: string;
  roles?: string[];
}

function readName(value: unknown, issues: Issues): string | undefined {
  const name = readString(value, ['name'], issues);
  if (name !== undefined) checkEmojiName(name, ['name'], issues);
  return name;
}

/** `roles`: a list of role ids, each once (null: none). */
function readRoles(value: unknown, issues: Issues): string[] | undefined {
  if (value === null) return [];
  const list = readList(value, ['roles'], issues);
  if (!list) return undefined;
  if (list.length > EMOJI_ROLES_MAX) reportTooLong(issues, ['roles'], EMOJI_ROLES_MAX);
  const ids = list.map((item, index) => readSnowflake(item, ['roles', index], issues));
  return [...new Set(ids.filter((id) => id !== undefined))];
}

function bodyRecord(body: unknown, issues: Issues): JsonRecord | undefined {
  if (isRecord(body)) return body;
  reportNotObject(issues, []);
  return undefined;
}

export function readEmojiCreate(body: unknown): Result<EmojiCreate> {
  const issues: Issues = [];
  const record = bodyRecord(body, issues);
  if (!record) return fail(issues);
  const name = readRequired(record.name, ['name'], issues, (value) => readName(value, issues));
  const image = readRequired(record.image, ['image'], issues, (value, path) => readEmojiImage(value, path, issues));
  const roles = record.roles === undefined ? [] : readRoles(record.roles, issues);
  if (issues.length > 0 || name === undefined || image === undefined || roles === undefined) return fail(issues);
  return ok({ name, image, roles });
}

export function readEmojiEdit(body: unknown): Result<EmojiEdit> {
  const issues: Issues = [];
  const record = bodyRecord(body ?? {}, issues);
  if (!record) return fail(issues);
  const edit: EmojiEdit = {};
  if (!isAbsent(record.name)) {
    const name = readName(record.name, issues);
    if (name !== undefined) edit.name = name;
  }
  if (record.roles !== undefined) {
    const roles = readRoles(record.roles, issues);
    if (roles !== undefined) edit.roles = roles;
  }
  return issues.length > 0 ? fail(issues) : ok(edit);
}

/** 50028 when a role of `roles` is not the guild's. */
function requireGuildRoles(guild: Guild, roles: readonly string[]): void {
  const known = new Set(guild.roles.map((role) => role.id));
  if (!roles.every((id) => known.has(id))) throw apiError('InvalidRole');
}

/** The fields of an emoji an audit entry names, as v10 names them. */
function emojiFields(emoji: Emoji): Record<string, unknown> {
  return { name: emoji.name, roles: emoji.roles };
}

/** A change of the guild's emojis: the list after it, the emoji it concerns, its audit entry. */
export interface EmojiPlan {
  emojis: Emoji[];
  emoji: Emoji;
  audit: AuditEntryInput;
}

function entry(
  guild: Guild,
  actor: StructureActor,
  reason: string | null,
  target: string,
): Omit<AuditEntryInput, 'action_type' | 'changes'> {
  return { guild_id: guild.id, user_id: actor.id, reason, target_id: target };
}

/** A new emoji of `id`: CREATE_GUILD_EXPRESSIONS, the guild's roles, a free slot of its kind (30008). */
export function planEmojiCreate(
  guild: Guild,
  actor: StructureActor,
  id: string,
  fields: EmojiCreate,
  reason: string | null,
): EmojiPlan {
  requireCreate(actor);
  requireGuildRoles(guild, fields.roles);
  const animated = fields.image.contentType === 'image/gif';
  const slots = emojiSlotsOf(guild);
  if (guildEmojis(guild).filter((emoji) => emoji.animated === animated).length >= slots) {
    throw apiError('MaxEmojis', { params: { limit: slots } });
  }
  const emoji: Emoji = { id, name: fields.name, animated, roles: fields.roles, available: true, user_id: actor.id };
  return {
    emojis: [...guildEmojis(guild), emoji],
    emoji,
    audit: {
      ...entry(guild, actor, reason, id),
      action_type: AuditLogEvent.EmojiCreate,
      changes: auditChanges(null, emojiFields(emoji)),
    },
  };
}

/** The emoji of `id` (10014), which the actor may change (50013). */
function ownEmoji(guild: Guild, actor: StructureActor, id: string): Emoji {
  const emoji = findGuildEmoji(guild, id);
  if (!emoji) throw apiError('UnknownEmoji');
  requireManage(actor, emoji.user_id);
  return emoji;
}

export function planEmojiEdit(
  guild: Guild,
  actor: StructureActor,
  id: string,
  edit: EmojiEdit,
  reason: string | null,
): EmojiPlan {
  const before = ownEmoji(guild, actor, id);
  if (edit.roles) requireGuildRoles(guild, edit.roles);
  const emoji: Emoji = { ...before, ...edit };
  return {
    emojis: guildEmojis(guild).map((e) => (e.id === id ? emoji : e)),
    emoji,
    audit: {
      ...entry(guild, actor, reason, id),
      action_type: AuditLogEvent.EmojiUpdate,
      changes: auditChanges(emojiFields(before), emojiFields(emoji)),
    },
  };
}

export function planEmojiDelete(guild: Guild, actor: StructureActor, id: string, reason: string | null): EmojiPlan {
  const emoji = ownEmoji(guild, actor, id);
  return {
    emojis: guildEmojis(guild).filter((e) => e.id !== id),
    emoji,
    audit: {
      ...entry(guild, actor, reason, id),
      action_type: AuditLogEvent.EmojiDelete,
      changes: auditChanges(emojiFields(emoji), null),
    },
  };
}
