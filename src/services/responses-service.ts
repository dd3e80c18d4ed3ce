/**
 * The app's side of an interaction: the first answer (inline, or through the callback endpoint),
 * the original response and follow-ups through the interaction webhook, and what they leave in
 * the channel as messages.
 */
import { hasActivities } from '../core/commands/model.js';
import { apiError, ApiError } from '../core/io/errors.js';
import {
  CallbackType,
  checkCanAcknowledge,
  currentState,
  readInteractionToken,
  stateAfterCallback,
  tokenAlive,
  type InteractionRecord,
  type InteractionState,
} from '../core/interactions/lifecycle.js';
import { checkCallback, checkMessageData, type CheckedCallback } from '../core/interactions/responses.js';
import { MESSAGE_FLAGS_ALLOWED, messageFormError } from '../core/interactions/message-data.js';
import {
  EPHEMERAL_FLAG,
  hasFlag,
  interactionMetadataOf,
  LOADING_FLAG,
  type StoredMessage,
} from '../core/interactions/messages.js';
import type { SnowflakeGenerator } from '../core/snowflake.js';
import { normalizeComponents } from '../core/interactions/component-tree.js';
import { NO_METRICS, type InteractionMetrics } from '../metrics/metrics.js';
import type { Store, StoredApplication } from '../store/store.js';
import { sameSecret } from '../store/tokens.js';
import type { MessageRenderer } from './message-renderer.js';
import { appendStep } from './interaction-transcript.js';
import type { WorldEvents } from './world-events.js';
import { attachFiles, type AttachmentsService, type IncomingFile } from './attachments-service.js';

export interface ResponsesServiceDeps {
  store: Pick<Store, 'world' | 'interactions'>;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  /** Tells bots of the messages answers leave in channels (MESSAGE_CREATE/UPDATE/DELETE). */
  events?: WorldEvents;
  metrics?: InteractionMetrics;
  /** Files of answers sent as multipart bodies; without it, answers carry no files. */
  attachments?: AttachmentsService;
}

export interface CallbackResult {
  /** The `with_response` body. */
  callbackResponse: Record<string, unknown>;
  message: StoredMessage | null;
}

export class ResponsesService {
  private readonly metrics: InteractionMetrics;

  constructor(private readonly deps: ResponsesServiceDeps) {
    this.metrics = deps.metrics ?? NO_METRICS;
  }

  /** A transition of `record` from `from` that is counted when it is the one stored. */
  private async transition(
    record: InteractionRecord,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    message?: StoredMessage,
  ): Promise<boolean> {
    const won = await this.deps.store.interactions.updateInteraction(
      record.application_id,
      record.id,
      from,
      patch,
      message,
    );
    if (won && patch.state && patch.state !== 'pending') this.metrics.interaction(patch.state, patch.failure_reason);
    return won;
  }

  /** The interaction a token names, if the token is exactly its token. */
  private async findByToken(token: string, interactionId?: string): Promise<InteractionRecord | null> {
    const named = readInteractionToken(token);
    if (!named || (interactionId !== undefined && named.interactionId !== interactionId)) return null;
    const record = await this.deps.store.interactions.getInteraction(named.applicationId, named.interactionId);
    if (!record || !sameSecret(record.token, token)) return null;
    return record;
  }

  // ---- the first answer ---------------------------------------------------------------------------

  async callback(
    interactionId: string,
    token: string,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<CallbackResult> {
    const record = await this.findByToken(token, interactionId);
    if (!record) throw apiError('UnknownInteraction');
    const app = await this.deps.store.world.getApplication(record.application_id);
    if (!app) throw apiError('UnknownInteraction');
    try {
      const result = await this.acknowledge(app, record, body, files);
      await this.step(record, 'answer', {
        via: 'callback',
        type: callbackTypeOf(body),
        message_id: result.message?.id ?? null,
      });
      return result;
    } catch (error) {
      if (error instanceof ApiError) {
        await this.step(record, 'answer_refused', {
          via: 'callback',
          status: error.status,
          code: error.code,
          message: error.message,
        });
      }
      throw error;
    }
  }

  /** Refuses a token naming no interaction, as `callback` would: checked before an upload is read. */
  async checkCallbackToken(interactionId: string, token: string): Promise<void> {
    if (!(await this.findByToken(token, interactionId))) throw apiError('UnknownInteraction');
  }

  /** A step of the interaction's transcript (GET /admin/interactions/{id}/transcript). */
  private async step(record: InteractionRecord, kind: string, detail: Record<string, unknown>): Promise<void> {
    await appendStep(this.deps, record, kind, detail);
  }

  /** An answer the app gave in the body of its HTTP response to the delivery. */
  async acceptInlineResponse(app: StoredApplication, record: InteractionRecord, body: unknown): Promise<void> {
    try {
      const result = await this.acknowledge(app, record, body);
      await this.step(record, 'answer', {
        via: 'inline',
        type: callbackTypeOf(body),
        message_id: result.message?.id ?? null,
      });
    } catch (error) {
      // Only a refused answer fails the interaction as invalid; anything else is slashd's own fault.
      if (!(error instanceof ApiError)) throw error;
      await this.step(record, 'answer_refused', {
        via: 'inline',
        status: error.status,
        code: error.code,
        message: error.message,
      });
      await this.transition(record, ['pending'], { state: 'failed', failure_reason: 'invalid_response' });
    }
  }

  private async acknowledge(
    app: StoredApplication,
    record: InteractionRecord,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<CallbackResult> {
    const now = this.deps.now();
    if (currentState(record, now).state === 'failed' && record.state === 'pending') {
      // Past the deadline: record the timeout now, the token is dead.
      await this.transition(record, ['pending'], { state: 'failed', failure_reason: 'timeout' });
    }
    checkCanAcknowledge(record, now);
    const checked = checkCallback(body, {
      interactionType: record.type,
      hasMessage: Boolean(record.message_id),
      appHasActivities: hasActivities(app),
      focusedOption: record.focused_option,
    });
    if (!checked.ok) throw messageFormError(checked.issues);
    const response = checked.value;
    const state = stateAfterCallback(response.type);
    if (response.type === CallbackType.DeferredUpdateMessage || response.type === CallbackType.UpdateMessage) {
      return this.acknowledgeByUpdate(record, response, files);
    }

    let message: StoredMessage | null = null;
    let activityInstanceId: string | null = null;
    if (
      response.type === CallbackType.ChannelMessageWithSource ||
      response.type === CallbackType.DeferredChannelMessageWithSource
    ) {
      message = this.newMessage(
        record,
        response.data ?? {},
        response.type === CallbackType.DeferredChannelMessageWithSource,
      );
    }
    if (response.type === CallbackType.LaunchActivity) activityInstanceId = this.deps.ids.next();
    const attached =
      message && response.type === CallbackType.ChannelMessageWithSource
        ? await attachFiles(this.deps.attachments, message, response.data?.attachments, files, ['data', 'attachments'])
        : null;

    const won = await this.transition(
      record,
      ['pending'],
      { state, response, original_message_id: message?.id ?? null, activity_instance_id: activityInstanceId },
      message ?? undefined,
    );
    if (!won) {
      await attached?.discard();
      throw apiError('InteractionAlreadyAcknowledged');
    }
    if (message) await this.deps.events?.messageCreated(message);
    if (activityInstanceId) await this.recordActivity(record, activityInstanceId);
    return {
      message,
      callbackResponse: await this.callbackResponse(record, response.type, message, activityInstanceId),
    };
  }

  /**
   * 6 and 7: the answer is the message holding the component, which `@original` names from now on;
   * 7 edits it at once (the fields it gives replace the message's, as an edit does).
   */
  private async acknowledgeByUpdate(
    record: InteractionRecord,
    response: CheckedCallback,
    files: readonly IncomingFile[],
  ): Promise<CallbackResult> {
    const messageId = record.message_id;
    const current = messageId ? await this.deps.store.interactions.getMessage(record.channel_id, messageId) : null;
    if (!current) throw apiError('UnknownMessage');
    const won = await this.transition(record, ['pending'], {
      state: stateAfterCallback(response.type),
      response,
      original_message_id: current.id,
    });
    if (!won) throw apiError('InteractionAlreadyAcknowledged');
    let message = current;
    if (response.type === CallbackType.UpdateMessage) {
      message = this.applyEdit(current, response.data ?? {});
      const attached = await attachFiles(
        this.deps.attachments,
        message,
        response.data?.attachments,
        files,
        ['data', 'attachments'],
        current,
      );
      if (await this.deps.store.interactions.editMessage(message)) {
        await attached?.commit();
        await this.deps.events?.messageUpdated(message);
      } else {
        await attached?.discard();
      }
    }
    const interaction: Record<string, unknown> = { id: record.id, type: record.type };
    const out: Record<string, unknown> = { interaction };
    if (response.type === CallbackType.UpdateMessage) {
      interaction.response_message_id = message.id;
      interaction.response_message_loading = false;
      interaction.response_message_ephemeral = message.ephemeral_for_user_id !== null;
      out.resource = { type: response.type, message: await this.deps.renderer.render(message) };
    }
    return { message, callbackResponse: out };
  }

  private async callbackResponse(
    record: InteractionRecord,
    type: number,
    message: StoredMessage | null,
    activityInstanceId: string | null,
  ): Promise<Record<string, unknown>> {
    const interaction: Record<string, unknown> = { id: record.id, type: record.type };
    const out: Record<string, unknown> = { interaction };
    if (message) {
      interaction.response_message_id = message.id;
      interaction.response_message_loading = hasFlag(message.flags, LOADING_FLAG);
      interaction.response_message_ephemeral = hasFlag(message.flags, EPHEMERAL_FLAG);
      out.resource = { type, message: await this.deps.renderer.render(message) };
    } else if (activityInstanceId) {
      interaction.activity_instance_id = activityInstanceId;
      out.resource = { type, activity_instance: { id: activityInstanceId } };
    }
    // An autocomplete result or a modal creates no resource: `resource` is optional, and the v10
    // document's resource shapes are a message (4, 7) or an activity instance (12) only.
    return out;
  }

  // ---- entry points -------------------------------------------------------------------------------

  /** Handler DISCORD_LAUNCH_ACTIVITY: slashd launches the Activity and posts a notice itself. */
  async launchActivityForUser(app: StoredApplication, record: InteractionRecord): Promise<void> {
    const instanceId = this.deps.ids.next();
    const notice = this.newMessage(record, { content: `Started ${app.name}` }, false);
    await this.transition(
      record,
      ['pending'],
      {
        state: 'responded',
        response: { type: CallbackType.LaunchActivity },
        activity_instance_id: instanceId,
        original_message_id: notice.id,
      },
      notice,
    );
    await this.deps.events?.messageCreated(notice);
    await this.recordActivity(record, instanceId);
  }

  private async recordActivity(record: InteractionRecord, id: string): Promise<void> {
    await this.deps.store.interactions.putActivityInstance({
      id,
      application_id: record.application_id,
      channel_id: record.channel_id,
      guild_id: record.guild_id,
      user_id: record.user_id,
      interaction_id: record.id,
      created_at: this.deps.now(),
    });
  }

  // ---- messages -----------------------------------------------------------------------------------

  private newMessage(record: InteractionRecord, data: Record<string, unknown>, loading: boolean): StoredMessage {
    const flags = typeof data.flags === 'number' ? data.flags : 0;
    const ephemeral = hasFlag(flags, EPHEMERAL_FLAG);
    return {
      id: this.deps.ids.next(),
      channel_id: record.channel_id,
      guild_id: record.guild_id,
      author: { kind: 'app', id: record.application_id },
      content: loading ? '' : typeof data.content === 'string' ? data.content : '',
      embeds: loading || !Array.isArray(data.embeds) ? [] : (data.embeds as Record<string, unknown>[]),
      components: loading || !Array.isArray(data.components) ? [] : normalizeComponents(data.components as unknown[]),
      // What an app may set, and LOADING, which only slashd sets.
      flags: (flags & MESSAGE_FLAGS_ALLOWED) | (loading ? LOADING_FLAG : 0),
      tts: data.tts === true,
      timestamp: new Date(this.deps.now()).toISOString(),
      edited_timestamp: null,
      interaction_metadata: interactionMetadataOf(record),
      ephemeral_for_user_id: ephemeral ? record.user_id : null,
      webhook_id: record.application_id,
      application_id: record.application_id,
    };
  }

  // ---- the interaction webhook --------------------------------------------------------------------

  /** The interaction behind a webhook token; its token must be alive (15 minutes). */
  async webhookInteraction(applicationId: string, token: string): Promise<InteractionRecord> {
    const record = await this.findByToken(token);
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
    const message = this.newMessage(record, checked.value, false);
    message.interaction_metadata = { ...message.interaction_metadata! };
    if (record.original_message_id !== null) {
      message.interaction_metadata.original_response_message_id = record.original_message_id;
    }
    const attached = await attachFiles(this.deps.attachments, message, checked.value.attachments, files, [
      'attachments',
    ]);
    try {
      await this.deps.store.interactions.putMessage(message);
    } catch (error) {
      await attached?.discard();
      throw error;
    }
    await this.step(record, 'follow_up', { message_id: message.id });
    await this.deps.events?.messageCreated(message);
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
    const checked = checkMessageData(body, { partial: true });
    if (!checked.ok) throw messageFormError(checked.issues);
    const edited = this.applyEdit(message, checked.value);
    const attached = await attachFiles(
      this.deps.attachments,
      edited,
      checked.value.attachments,
      files,
      ['attachments'],
      message,
    );
    if (!(await this.deps.store.interactions.editMessage(edited))) {
      await attached?.discard();
      throw apiError('UnknownMessage');
    }
    await attached?.commit();
    await this.step(record, 'edit', { message_id: edited.id });
    await this.deps.events?.messageUpdated(edited);
    if (record.original_message_id === message.id && record.state === 'acknowledged') {
      // The deferred answer is given by editing the original: the interaction has its response now.
      await this.transition(record, ['acknowledged'], { state: 'responded' });
    }
    return edited;
  }

  /** An edit's fields replace the message's (null clears); EPHEMERAL stays as it was; a loading message is filled in. */
  private applyEdit(message: StoredMessage, data: Record<string, unknown>): StoredMessage {
    return {
      ...message,
      content: typeof data.content === 'string' ? data.content : data.content === null ? '' : message.content,
      embeds: Array.isArray(data.embeds)
        ? (data.embeds as Record<string, unknown>[])
        : data.embeds === null
          ? []
          : message.embeds,
      components: Array.isArray(data.components)
        ? normalizeComponents(data.components as unknown[])
        : data.components === null
          ? []
          : message.components,
      flags: message.flags & ~LOADING_FLAG,
      edited_timestamp: hasFlag(message.flags, LOADING_FLAG) ? null : new Date(this.deps.now()).toISOString(),
    };
  }

  async deleteMessage(applicationId: string, token: string, messageId: string): Promise<void> {
    const record = await this.webhookInteraction(applicationId, token);
    const message = await this.ownMessage(record, messageId);
    if (await this.deps.store.interactions.deleteMessage(message.channel_id, message.id)) {
      await this.step(record, 'delete', { message_id: message.id });
      await this.deps.events?.messageDeleted(message);
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

/** The callback type an answer names (for its transcript step), or null. */
function callbackTypeOf(body: unknown): number | null {
  const type = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).type : undefined;
  return typeof type === 'number' ? type : null;
}
