/**
 * Application emojis (v10's application emoji endpoints): an app lists, reads, creates, renames and
 * deletes its own emojis, 2,000 at most, each name once; their images are served at `/emojis/{id}.{ext}`
 * beside guild emojis'. Only the caller's own app reaches them (the routes' `requireOwnApp`); its
 * bot uses them in any guild (reactions read them through `usableBy`).
 */
import type { APIEmoji } from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { WorldStore } from '../../store/store.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';
import {
  APPLICATION_EMOJIS_MAX,
  isAnimatedImage,
  nameTaken,
  readApplicationEmojiCreate,
  readApplicationEmojiEdit,
  toWireApplicationEmoji,
  type ApplicationEmoji,
} from './rules.js';
import type { ApplicationEmojiFile, ApplicationEmojiStore } from './store.js';

export interface ApplicationEmojisDeps {
  emojis: ApplicationEmojiStore;
  world: Pick<WorldStore, 'getUser' | 'getApplication'>;
  ids: Pick<SnowflakeGenerator, 'next'>;
}

export class ApplicationEmojisService {
  constructor(private readonly deps: ApplicationEmojisDeps) {}

  /** `GET /applications/{id}/emojis`: `{items}`, oldest first. */
  async list(applicationId: string): Promise<{ items: WirePayload<APIEmoji>[] }> {
    const emojis = await this.deps.emojis.list(applicationId);
    const bot = await this.bot(applicationId);
    return { items: emojis.map((emoji) => toWireApplicationEmoji(emoji, bot)) };
  }

  async get(applicationId: string, emojiId: string): Promise<WirePayload<APIEmoji>> {
    return this.wire(await this.find(applicationId, emojiId));
  }

  /** `POST /applications/{id}/emojis`: 50035 for a bad body or a name taken, 30008 at 2,000. */
  async create(applicationId: string, body: unknown): Promise<WirePayload<APIEmoji>> {
    const fields = orThrow(readApplicationEmojiCreate(body));
    const emoji: ApplicationEmoji = {
      id: this.deps.ids.next(),
      application_id: applicationId,
      name: fields.name,
      animated: isAnimatedImage(fields.image),
    };
    const file = { content_type: fields.image.contentType, bytes: fields.image.bytes };
    const created = await this.deps.emojis.create(emoji, file, APPLICATION_EMOJIS_MAX);
    if (created === 'full') throw apiError('MaxEmojis', { params: { limit: APPLICATION_EMOJIS_MAX } });
    if (created === 'name_taken') throw nameTaken();
    return this.wire(emoji);
  }

  /** `PATCH /applications/{id}/emojis/{eid}`: its name (the body is read before the emoji is looked up). */
  async edit(applicationId: string, emojiId: string, body: unknown): Promise<WirePayload<APIEmoji>> {
    const edit = orThrow(readApplicationEmojiEdit(body));
    const emoji = await this.find(applicationId, emojiId);
    if (edit.name === undefined || edit.name === emoji.name) return this.wire(emoji);
    const renamed = await this.deps.emojis.rename(applicationId, emoji.id, edit.name);
    if (renamed === 'unknown') throw apiError('UnknownEmoji');
    if (renamed === 'name_taken') throw nameTaken();
    return this.wire({ ...emoji, name: edit.name });
  }

  async delete(applicationId: string, emojiId: string): Promise<void> {
    if (!isSnowflake(emojiId) || !(await this.deps.emojis.delete(applicationId, emojiId))) {
      throw apiError('UnknownEmoji');
    }
  }

  /** The image of an application emoji at the CDN-like path, or null when no app has that emoji. */
  async file(emojiId: string): Promise<ApplicationEmojiFile | null> {
    return isSnowflake(emojiId) ? this.deps.emojis.getFile(emojiId) : null;
  }

  private async find(applicationId: string, emojiId: string): Promise<ApplicationEmoji> {
    const emoji = isSnowflake(emojiId) ? await this.deps.emojis.get(applicationId, emojiId) : null;
    if (!emoji) throw apiError('UnknownEmoji');
    return emoji;
  }

  private async bot(applicationId: string) {
    return wirePublicUserOrBot(this.deps.world, applicationId);
  }

  private async wire(emoji: ApplicationEmoji): Promise<WirePayload<APIEmoji>> {
    return toWireApplicationEmoji(emoji, await this.bot(emoji.application_id));
  }
}
