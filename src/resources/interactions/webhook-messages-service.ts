/**
 * The interaction webhook (`/webhooks/{application.id}/{token}`): for 15 minutes after the
 * invocation the app sends follow-ups and reads, edits and deletes `@original` and its follow-ups,
 * the interaction token being the credential.
 */
import { apiError } from '../../core/io/errors.js';
import { tokenAlive, type InteractionRecord } from './rules/lifecycle.js';
import { messageFormError } from '../messages/rules/message-data.js';
import { editedMessageState } from '../messages/rules/components-v2.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import { checkMessageData } from './rules/responses.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { InteractionMetrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/store.js';
import { InteractionRecords } from './records.js';
import { editedMessage, newResponseMessage } from './response-messages.js';
import type { WorldEvents } from '../../events/world-events.js';
import {
  attachFiles,
  checkComponentMedia,
  type AttachmentsService,
  type IncomingFile,
} from '../attachments/service.js';
import { checkPremiumButtons } from '../entitlements/premium-buttons.js';

export interface WebhookMessagesServiceDeps {
  store: Pick<Store, 'interactions' | 'polls' | 'entitlements'>;
  ids: SnowflakeGenerator;
  now: () => number;
  /** Tells bots of the messages the webhook creates, edits and deletes (MESSAGE_CREATE/UPDATE/DELETE). */
  events: WorldEvents;
  metrics: InteractionMetrics;
  /** Files of messages sent as multipart bodies. */
  attachments: AttachmentsService;
}

export class WebhookMessagesService {
  private readonly records: InteractionRecords;

  constructor(private readonly deps: WebhookMessagesServiceDeps) {
    this.records = new InteractionRecords(deps);
  }

  /** The interaction behind a webhook token; its token must be alive (15 minutes). */
  async webhookInteraction(applicationId: string, token: string): Promise<InteractionRecord> {
    const record = await this.records.findByToken(token);
    if (!record || record.application_id !== applicationId) throw apiError('UnknownWebhook');
    if (!tokenAlive(record, this.deps.now())) throw apiError('InvalidWebhookToken');
    return record;
  }

  async followUp(
    applicationId: string,
    token: string,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<StoredMessage> {
    const record = await this.webhookInteraction(applicationId, token);
    if (record.state === 'pending') throw apiError('UnknownWebhook');
    const checked = checkMessageData(body, {});
    if (!checked.ok) throw messageFormError(checked.issues);
    const message = newResponseMessage(record, checked.value, false, { id: this.deps.ids.next(), at: this.deps.now() });
    message.interaction_metadata = { ...message.interaction_metadata! };
    if (record.original_message_id !== null) {
      message.interaction_metadata.original_response_message_id = record.original_message_id;
    }
    const attached = await attachFiles(this.deps.attachments, message, checked.value.attachments, files, [
      'attachments',
    ]);
    await checkComponentMedia(message, ['components'], attached);
    await checkPremiumButtons(this.deps.store.entitlements, message, ['components'], attached);
    try {
      // The poll's row first, as a channel message's (messages/service.ts, storeNewMessage).
      if (message.poll) {
        await this.deps.store.polls.createPoll(message.channel_id, message.id, Date.parse(message.poll.expiry));
      }
      await this.deps.store.interactions.putMessage(message);
    } catch (error) {
      await attached?.discard();
      if (message.poll) await this.deps.store.polls.deletePoll(message.channel_id, message.id).catch(() => undefined);
      throw error;
    }
    await this.records.step(record, 'follow_up', { message_id: message.id });
    await this.deps.events.messageCreated(message);
    return message;
  }

  async getMessage(applicationId: string, token: string, messageId: string): Promise<StoredMessage> {
    const record = await this.webhookInteraction(applicationId, token);
    return this.ownMessage(record, messageId);
  }

  async editMessage(
    applicationId: string,
    token: string,
    messageId: string,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<StoredMessage> {
    const record = await this.webhookInteraction(applicationId, token);
    const message = await this.ownMessage(record, messageId);
    const checked = checkMessageData(body, { partial: true, editing: editedMessageState(message) });
    if (!checked.ok) throw messageFormError(checked.issues);
    const edited = editedMessage(message, checked.value, this.deps.now());
    const attached = await attachFiles(
      this.deps.attachments,
      edited,
      checked.value.attachments,
      files,
      ['attachments'],
      message,
    );
    await checkComponentMedia(edited, ['components'], attached);
    await checkPremiumButtons(this.deps.store.entitlements, edited, ['components'], attached);
    if (!(await this.deps.store.interactions.editMessage(edited))) {
      await attached?.discard();
      throw apiError('UnknownMessage');
    }
    await attached?.commit();
    await this.records.step(record, 'edit', { message_id: edited.id });
    await this.deps.events.messageUpdated(edited);
    if (record.original_message_id === message.id && record.state === 'acknowledged') {
      // The deferred answer is given by editing the original: the interaction has its response now.
      await this.records.transition(record, ['acknowledged'], { state: 'responded' });
    }
    return edited;
  }

  async deleteMessage(applicationId: string, token: string, messageId: string): Promise<void> {
    const record = await this.webhookInteraction(applicationId, token);
    const message = await this.ownMessage(record, messageId);
    if (await this.deps.store.interactions.deleteMessage(message.channel_id, message.id)) {
      await this.records.step(record, 'delete', { message_id: message.id });
      await this.deps.events.messageDeleted(message);
    }
  }

  /** `@original` or a follow-up of this interaction; nothing else is reachable through its token. */
  private async ownMessage(record: InteractionRecord, messageId: string): Promise<StoredMessage> {
    const id = messageId === '@original' ? record.original_message_id : messageId;
    if (!id) throw apiError('UnknownMessage');
    const message = await this.deps.store.interactions.getMessage(record.channel_id, id);
    // After 6 or 7, `@original` is the message holding the component, whichever interaction made it.
    const updatedByThis =
      record.message_id !== undefined && id === record.message_id && id === record.original_message_id;
    if (!message || (message.interaction_metadata?.id !== record.id && !updatedByThis)) {
      throw apiError('UnknownMessage');
    }
    return message;
  }
}
