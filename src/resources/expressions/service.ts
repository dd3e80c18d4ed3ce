/**
 * A guild's emojis and stickers for bots (v10's Emoji and Sticker endpoints): read, created, edited
 * and deleted through the guild's document (one change, its GUILD_EMOJIS_UPDATE or
 * GUILD_STICKERS_UPDATE and audit entry: GuildStructureWrites), their files in the expressions
 * store, served at CDN-like paths. A create is decided on the guild read first (nothing is stored
 * for a refusal), then its file is stored and the change made, which decides again on the guild as
 * stored: a refusal then removes the file again (docs/decisions.md, "Emojis and stickers").
 */
import type { APIEmoji, APISticker, APIStickerPack, APIUser } from 'discord-api-types/v10';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import type { Issues } from '../../core/io/report.js';
import { orThrow } from '../../core/io/result.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { findGuildEmoji, guildEmojis, toWireGuildEmoji } from '../../core/world/emojis.js';
import { findGuildSticker, guildStickers, toWireGuildSticker } from '../../core/world/stickers.js';
import type { Emoji, Guild, Sticker } from '../../core/world/types.js';
import { viewerGuildPermissions, type Viewer } from '../../core/world/viewer.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { IncomingFile } from '../attachments/service.js';
import { botActor } from '../guild-structure/rules/actor.js';
import type { GuildStructureWrites } from '../guild-structure/writes.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';
import { visibleGuild, type WorldReadStore } from '../world/reads.js';
import { planEmojiCreate, planEmojiDelete, planEmojiEdit, readEmojiCreate, readEmojiEdit } from './rules/emojis.js';
import { EMOJI_FILES_PER_GUILD_MAX, STICKER_FILE_BYTES_MAX, STICKER_FILES_PER_GUILD_MAX } from './rules/limits.js';
import { requireCreate, seesCreators } from './rules/permissions.js';
import { checkStickerFile, STICKER_CONTENT_TYPES } from './rules/sticker-file.js';
import {
  findStandardPack,
  findStandardSticker,
  STANDARD_STICKER_PNG,
  standardStickerPacks,
} from './rules/standard-stickers.js';
import {
  planStickerCreate,
  planStickerDelete,
  planStickerEdit,
  readStickerFields,
  type StickerFields,
} from './rules/stickers.js';
import type { ExpressionAssetStore, ExpressionKind } from './store.js';
import type { ApplicationEmojiStore } from '../application-emojis/store.js';

export interface ExpressionsDeps extends WorldReadStore {
  writes: GuildStructureWrites;
  assets: ExpressionAssetStore;
  /** Application emojis' images, served at the same path as guild emojis'. */
  applicationEmojiFiles: Pick<ApplicationEmojiStore, 'getFile'>;
  ids: Pick<SnowflakeGenerator, 'next'>;
}

/** A file served at a CDN-like path. */
export interface ExpressionFile {
  contentType: string;
  bytes: Uint8Array;
}

/** `{id}.{ext}`: the file's id (its extension asks for a format; the stored one is served). */
const FILE_NAME = /^(\d{1,20})\.(png|jpe?g|webp|gif|avif|json)$/;

export class ExpressionsService {
  constructor(private readonly deps: ExpressionsDeps) {}

  // --- emojis

  async listEmojis(viewer: Viewer, guildId: string): Promise<WirePayload<APIEmoji>[]> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    const withUser = seesCreators(viewerGuildPermissions(guild, viewer));
    return Promise.all(guildEmojis(guild).map((emoji) => this.wireEmoji(emoji, withUser)));
  }

  async getEmoji(viewer: Viewer, guildId: string, emojiId: string): Promise<WirePayload<APIEmoji>> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    const emoji = findGuildEmoji(guild, emojiId);
    if (!emoji) throw apiError('UnknownEmoji');
    return this.wireEmoji(emoji, seesCreators(viewerGuildPermissions(guild, viewer)));
  }

  async createEmoji(
    applicationId: string,
    guildId: string,
    body: unknown,
    reason: string | null,
  ): Promise<WirePayload<APIEmoji>> {
    const fields = orThrow(readEmojiCreate(body));
    const id = this.deps.ids.next();
    const guild = await this.botGuild(applicationId, guildId);
    planEmojiCreate(guild, botActor(guild, applicationId), id, fields, reason);
    const { contentType, bytes } = fields.image;
    const asset = { id, guild_id: guildId, kind: 'emoji' as const, content_type: contentType, bytes };
    const { result } = await this.storeFile(asset, () =>
      this.deps.writes.change(applicationId, guildId, reason, (stored, actor) => {
        const plan = planEmojiCreate(stored, actor, id, fields, reason);
        return { structure: { ...structureOf(stored), emojis: plan.emojis }, result: plan.emoji, audit: [plan.audit] };
      }),
    );
    return this.wireEmoji(result, true);
  }

  async editEmoji(
    applicationId: string,
    guildId: string,
    emojiId: string,
    body: unknown,
    reason: string | null,
  ): Promise<WirePayload<APIEmoji>> {
    const edit = orThrow(readEmojiEdit(body));
    const { result } = await this.deps.writes.change(applicationId, guildId, reason, (stored, actor) => {
      const plan = planEmojiEdit(stored, actor, emojiId, edit, reason);
      return { structure: { ...structureOf(stored), emojis: plan.emojis }, result: plan.emoji, audit: [plan.audit] };
    });
    return this.wireEmoji(result, true);
  }

  async deleteEmoji(applicationId: string, guildId: string, emojiId: string, reason: string | null): Promise<void> {
    await this.deps.writes.change(applicationId, guildId, reason, (stored, actor) => {
      const plan = planEmojiDelete(stored, actor, emojiId, reason);
      return { structure: { ...structureOf(stored), emojis: plan.emojis }, result: null, audit: [plan.audit] };
    });
    await this.deps.assets.deleteAsset(guildId, emojiId);
  }

  /** `GET /emojis/{id}.{ext}`: an emoji's image (an application's or a guild's), to anyone (v10's CDN serves them so). */
  async emojiFile(file: string): Promise<ExpressionFile> {
    const id = FILE_NAME.exec(file)?.[1];
    const own = id === undefined ? null : await this.deps.applicationEmojiFiles.getFile(id);
    return own ? { contentType: own.content_type, bytes: own.bytes } : this.file('emoji', file);
  }

  // --- stickers

  async listStickers(viewer: Viewer, guildId: string): Promise<WirePayload<APISticker>[]> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    const withUser = seesCreators(viewerGuildPermissions(guild, viewer));
    return Promise.all(guildStickers(guild).map((sticker) => this.wireSticker(guildId, sticker, withUser)));
  }

  async getGuildSticker(viewer: Viewer, guildId: string, stickerId: string): Promise<WirePayload<APISticker>> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    const sticker = findGuildSticker(guild, stickerId);
    if (!sticker) throw apiError('UnknownSticker');
    return this.wireSticker(guildId, sticker, seesCreators(viewerGuildPermissions(guild, viewer)));
  }

  /** The refusal of a sticker upload, before its file is read: the guild, the bot in it, CREATE_GUILD_EXPRESSIONS. */
  async createAccess(applicationId: string, guildId: string): Promise<void> {
    const guild = await this.botGuild(applicationId, guildId);
    requireCreate(botActor(guild, applicationId));
  }

  async createSticker(
    applicationId: string,
    guildId: string,
    payload: unknown,
    files: readonly IncomingFile[],
    reason: string | null,
  ): Promise<WirePayload<APISticker>> {
    const issues: Issues = [];
    const fields = readStickerFields(payload, true);
    if (!fields.ok) issues.push(...fields.issues);
    const file = checkStickerFile(await readStickerUpload(files), issues);
    if (!fields.ok || !file || issues.length > 0) throw invalidFormBody(issues);
    const id = this.deps.ids.next();
    const sticker = {
      id,
      name: fields.value.name!,
      tags: fields.value.tags!,
      description: fields.value.description ?? null,
      format_type: file.format,
    };
    const guild = await this.botGuild(applicationId, guildId);
    planStickerCreate(guild, botActor(guild, applicationId), sticker, reason);
    const asset = {
      id,
      guild_id: guildId,
      kind: 'sticker' as const,
      content_type: STICKER_CONTENT_TYPES[file.format]!,
      bytes: file.bytes,
    };
    const { result } = await this.storeFile(asset, () =>
      this.deps.writes.change(applicationId, guildId, reason, (stored, actor) => {
        const plan = planStickerCreate(stored, actor, sticker, reason);
        return {
          structure: { ...structureOf(stored), stickers: plan.stickers },
          result: plan.sticker,
          audit: [plan.audit],
        };
      }),
    );
    return this.wireSticker(guildId, result, true);
  }

  async editSticker(
    applicationId: string,
    guildId: string,
    stickerId: string,
    body: unknown,
    reason: string | null,
  ): Promise<WirePayload<APISticker>> {
    const fields: StickerFields = orThrow(readStickerFields(body, false));
    const { result } = await this.deps.writes.change(applicationId, guildId, reason, (stored, actor) => {
      const plan = planStickerEdit(stored, actor, stickerId, fields, reason);
      return {
        structure: { ...structureOf(stored), stickers: plan.stickers },
        result: plan.sticker,
        audit: [plan.audit],
      };
    });
    return this.wireSticker(guildId, result, true);
  }

  async deleteSticker(applicationId: string, guildId: string, stickerId: string, reason: string | null): Promise<void> {
    await this.deps.writes.change(applicationId, guildId, reason, (stored, actor) => {
      const plan = planStickerDelete(stored, actor, stickerId, reason);
      return { structure: { ...structureOf(stored), stickers: plan.stickers }, result: null, audit: [plan.audit] };
    });
    await this.deps.assets.deleteAsset(guildId, stickerId);
  }

  /** `GET /stickers/{id}`: a standard sticker, or a guild's (without its creator), to any caller. */
  async getSticker(stickerId: string): Promise<WirePayload<APISticker>> {
    const standard = findStandardSticker(stickerId);
    if (standard) return standard;
    const asset = await this.deps.assets.getAsset('sticker', stickerId);
    const guild = asset ? await this.deps.members.getGuildWithMembers(asset.guild_id, []) : null;
    const sticker = guild ? findGuildSticker(guild, stickerId) : undefined;
    if (!guild || !sticker) throw apiError('UnknownSticker');
    return toWireGuildSticker(guild.id, sticker);
  }

  stickerPacks(): { sticker_packs: WirePayload<APIStickerPack>[] } {
    return { sticker_packs: standardStickerPacks() };
  }

  stickerPack(packId: string): WirePayload<APIStickerPack> {
    const pack = findStandardPack(packId);
    if (!pack) throw apiError('UnknownStickerPack');
    return pack;
  }

  /** `GET /stickers/{id}.{ext}`: a sticker's file, to anyone (a standard one's is built in). */
  async stickerFile(file: string): Promise<ExpressionFile> {
    const id = FILE_NAME.exec(file)?.[1];
    if (id !== undefined && findStandardSticker(id)) return { contentType: 'image/png', bytes: STANDARD_STICKER_PNG };
    return this.file('sticker', file);
  }

  // --- shared

  /** The guild of a change by the app's bot, read: 10004, or 50001 when the bot is not in it. */
  private async botGuild(applicationId: string, guildId: string): Promise<Guild> {
    return visibleGuild(this.deps, { kind: 'bot', applicationId }, guildId);
  }

  /** Stores the file, then runs `change`; the file goes again when the change is refused. */
  private async storeFile<T>(
    asset: Parameters<ExpressionAssetStore['putAsset']>[0],
    change: () => Promise<T>,
  ): Promise<T> {
    const max = asset.kind === 'emoji' ? EMOJI_FILES_PER_GUILD_MAX : STICKER_FILES_PER_GUILD_MAX;
    if ((await this.deps.assets.putAsset(asset, max)) === 'full') {
      throw asset.kind === 'emoji'
        ? apiError('MaxEmojis', { params: { limit: max } })
        : apiError('MaxStickers', { params: { limit: max } });
    }
    try {
      return await change();
    } catch (error) {
      await this.deps.assets.deleteAsset(asset.guild_id, asset.id);
      throw error;
    }
  }

  private async file(kind: ExpressionKind, file: string): Promise<ExpressionFile> {
    const id = FILE_NAME.exec(file)?.[1];
    const asset = id === undefined ? null : await this.deps.assets.getAsset(kind, id);
    if (!asset) throw apiError('NotFound');
    return { contentType: asset.content_type, bytes: asset.bytes };
  }

  private async creator(userId: string | undefined): Promise<WirePayload<APIUser> | null> {
    return userId === undefined ? null : wirePublicUserOrBot(this.deps.world, userId);
  }

  private async wireEmoji(emoji: Emoji, withUser: boolean): Promise<WirePayload<APIEmoji>> {
    const wire: WirePayload<APIEmoji> = toWireGuildEmoji(emoji);
    const user = withUser ? await this.creator(emoji.user_id) : null;
    return user ? { ...wire, user } : wire;
  }

  private async wireSticker(guildId: string, sticker: Sticker, withUser: boolean): Promise<WirePayload<APISticker>> {
    const wire = toWireGuildSticker(guildId, sticker);
    const user = withUser ? await this.creator(sticker.user_id) : null;
    return user ? { ...wire, user } : wire;
  }
}

/** The guild's roles and channels, kept as they are by an expression's change. */
function structureOf(guild: Guild): { roles: Guild['roles']; channels: Guild['channels'] } {
  return { roles: guild.roles, channels: guild.channels };
}

/** The form's `file` part's bytes (its only file), read up to one byte past the bound; undefined when none came. */
async function readStickerUpload(files: readonly IncomingFile[]): Promise<Buffer | undefined> {
  const file = files[0];
  if (!file) return undefined;
  if (file.size > STICKER_FILE_BYTES_MAX) return Buffer.alloc(STICKER_FILE_BYTES_MAX + 1);
  const pieces: Uint8Array[] = [];
  for await (const piece of file.chunks()) pieces.push(piece);
  return Buffer.concat(pieces);
}
