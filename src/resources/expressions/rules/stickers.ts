/**
 * A guild sticker's fields (`POST` as a form, `PATCH` as JSON, `/guilds/{g}/stickers`) and the
 * planned change of the guild's stickers, decided on the guild as stored: name 2-30, description
 * empty or 2-100, tags 1-200, and the slots of the guild's boost level (30039).
 */
import { AuditLogEvent } from 'discord-api-types/v10';
import { apiError } from '../../../core/io/errors.js';
import { isAbsent, isRecord, readRequired, readString, type JsonRecord } from '../../../core/io/read.js';
import { reportBadLength, reportNotObject, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { findGuildSticker, guildStickers } from '../../../core/world/stickers.js';
import type { Guild, Sticker } from '../../../core/world/types.js';
import type { AuditEntryInput } from '../../audit-log/rules.js';
import type { StructureActor } from '../../guild-structure/rules/actor.js';
import { auditChanges } from './audit.js';
import {
  STICKER_DESCRIPTION_MAX,
  STICKER_DESCRIPTION_MIN,
  STICKER_NAME_MAX,
  STICKER_NAME_MIN,
  STICKER_TAGS_MAX,
  STICKER_TAGS_MIN,
  stickerSlotsOf,
} from './limits.js';
import { requireCreate, requireManage } from './permissions.js';

/** The fields a sticker's body sets (absent: kept, on an edit). */
export interface StickerFields {
  name?: string;
  description?: string | null;
  tags?: string;
}

function readBounded(value: unknown, key: string, min: number, max: number, issues: Issues): string | undefined {
  const text = readString(value, [key], issues);
  if (text !== undefined && (text.length < min || text.length > max)) reportBadLength(issues, [key], min, max);
  return text;
}

/** A description: empty (none) or 2-100 characters. */
function readDescription(value: unknown, issues: Issues): string | null | undefined {
  if (value === null || value === '') return null;
  return readBounded(value, 'description', STICKER_DESCRIPTION_MIN, STICKER_DESCRIPTION_MAX, issues);
}

function readFields(record: JsonRecord, issues: Issues, required: boolean): StickerFields {
  const fields: StickerFields = {};
  const name = (value: unknown) => readBounded(value, 'name', STICKER_NAME_MIN, STICKER_NAME_MAX, issues);
  const tags = (value: unknown) => readBounded(value, 'tags', STICKER_TAGS_MIN, STICKER_TAGS_MAX, issues);
  const readName = required
    ? readRequired(record.name, ['name'], issues, name)
    : isAbsent(record.name)
      ? undefined
      : name(record.name);
  const readTags = required
    ? readRequired(record.tags, ['tags'], issues, tags)
    : isAbsent(record.tags)
      ? undefined
      : tags(record.tags);
  if (readName !== undefined) fields.name = readName;
  if (readTags !== undefined) fields.tags = readTags;
  if (record.description !== undefined) {
    const description = readDescription(record.description, issues);
    if (description !== undefined) fields.description = description;
  }
  return fields;
}

/** The fields of a create (its form's text fields) or an edit (its JSON body). */
export function readStickerFields(body: unknown, required: boolean): Result<StickerFields> {
  const issues: Issues = [];
  const record = body ?? {};
  if (!isRecord(record)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const fields = readFields(record, issues, required);
  return issues.length > 0 ? fail(issues) : ok(fields);
}

/** A change of the guild's stickers: the list after it, the sticker it concerns, its audit entry. */
export interface StickerPlan {
  stickers: Sticker[];
  sticker: Sticker;
  audit: AuditEntryInput;
}

/** The fields of a sticker an audit entry names, as v10 names them. */
function stickerFields(sticker: Sticker): Record<string, unknown> {
  return {
    name: sticker.name,
    tags: sticker.tags,
    description: sticker.description ?? '',
    format_type: sticker.format_type,
  };
}

function entry(guild: Guild, actor: StructureActor, reason: string | null, target: string) {
  return { guild_id: guild.id, user_id: actor.id, reason, target_id: target };
}

/** A new sticker: CREATE_GUILD_EXPRESSIONS and a free slot (30039). */
export function planStickerCreate(
  guild: Guild,
  actor: StructureActor,
  sticker: Omit<Sticker, 'user_id' | 'available'>,
  reason: string | null,
): StickerPlan {
  requireCreate(actor);
  const slots = stickerSlotsOf(guild);
  if (guildStickers(guild).length >= slots) throw apiError('MaxStickers', { params: { limit: slots } });
  const made: Sticker = { ...sticker, available: true, user_id: actor.id };
  return {
    stickers: [...guildStickers(guild), made],
    sticker: made,
    audit: {
      ...entry(guild, actor, reason, made.id),
      action_type: AuditLogEvent.StickerCreate,
      changes: auditChanges(null, stickerFields(made)),
    },
  };
}

/** The sticker of `id` (10060), which the actor may change (50013). */
function ownSticker(guild: Guild, actor: StructureActor, id: string): Sticker {
  const sticker = findGuildSticker(guild, id);
  if (!sticker) throw apiError('UnknownSticker');
  requireManage(actor, sticker.user_id);
  return sticker;
}

export function planStickerEdit(
  guild: Guild,
  actor: StructureActor,
  id: string,
  fields: StickerFields,
  reason: string | null,
): StickerPlan {
  const before = ownSticker(guild, actor, id);
  const sticker: Sticker = { ...before, ...fields };
  return {
    stickers: guildStickers(guild).map((s) => (s.id === id ? sticker : s)),
    sticker,
    audit: {
      ...entry(guild, actor, reason, id),
      action_type: AuditLogEvent.StickerUpdate,
      changes: auditChanges(stickerFields(before), stickerFields(sticker)),
    },
  };
}

export function planStickerDelete(guild: Guild, actor: StructureActor, id: string, reason: string | null): StickerPlan {
  const sticker = ownSticker(guild, actor, id);
  return {
    stickers: guildStickers(guild).filter((s) => s.id !== id),
    sticker,
    audit: {
      ...entry(guild, actor, reason, id),
      action_type: AuditLogEvent.StickerDelete,
      changes: auditChanges(stickerFields(sticker), null),
    },
  };
}
