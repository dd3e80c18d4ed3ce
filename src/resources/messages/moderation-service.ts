/**
 * Moderating a channel's messages (v10): `POST /channels/{id}/messages/bulk-delete` deletes 2 to
 * 100 messages at once with MANAGE_MESSAGES, none older than 14 days (50034), told to bots as one
 * MESSAGE_DELETE_BULK. Deleting one message of another author is `ChannelMessagesService.delete`.
 */
import { readBulkDelete, tooOldToBulkDelete } from './rules/bulk-delete.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { hasAll, MANAGE_MESSAGES } from '../../core/permissions/bits.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { InteractionStore } from '../../store/store.js';
import type { WorldEvents } from '../../events/world-events.js';
import { visibleChannel, type WorldReadStore } from '../world/reads.js';

export interface MessageModerationDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  messages: Pick<InteractionStore, 'deleteMessages'>;
  now: () => number;
  events: Pick<WorldEvents, 'messagesBulkDeleted'>;
}

export class MessageModerationService {
  constructor(private readonly deps: MessageModerationDeps) {}

  /**
   * Ids naming no message of the channel count toward the bounds and are skipped (v10). World-file
   * messages among them are deleted with the rest, in the same transaction.
   */
  async bulkDelete(applicationId: string, channelId: string, body: unknown): Promise<void> {
    const ids = readBulkDelete(body);
    if (!ids.ok) throw invalidFormBody(ids.issues);
    const viewer: Viewer = { kind: 'bot', applicationId };
    const { guild, channel, permissions } = await visibleChannel(this.deps, viewer, channelId);
    if (!hasAll(permissions, MANAGE_MESSAGES)) throw apiError('MissingPermissions');
    const now = this.deps.now();
    if (ids.value.some((id) => tooOldToBulkDelete(id, now))) throw apiError('BulkDeleteTooOld');
    const named = new Set(ids.value);
    const seeded = guild.messages.filter((m) => m.channel_id === channel.id && named.has(m.id)).map((m) => m.id);
    const deleted = new Set(await this.deps.messages.deleteMessages(channel.id, ids.value, seeded));
    const inOrder = ids.value.filter((id) => deleted.has(id));
    this.deps.events.messagesBulkDeleted(guild.id, channel.id, inOrder);
  }
}
