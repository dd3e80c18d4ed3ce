/**
 * The first answer to an interaction: the app's, through the callback endpoint or inline in its
 * HTTP response to the delivery, or slashd's own when an entry point launches an Activity. Later
 * answers go through the interaction webhook (webhook-messages-service.ts).
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import { hasActivities } from '../../core/commands/model.js';
import { apiError, ApiError } from '../../core/io/errors.js';
import { checkCanAcknowledge, currentState, stateAfterCallback, type InteractionRecord } from './rules/lifecycle.js';
import { checkCallback, type CheckedCallback } from './rules/responses.js';
import { messageFormError } from '../messages/rules/message-data.js';
import { EPHEMERAL_FLAG, hasFlag, LOADING_FLAG, type StoredMessage } from '../messages/rules/messages.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { InteractionMetrics } from '../../metrics/metrics.js';
import type { Store, StoredApplication, TranscriptEntry } from '../../store/store.js';
import { InteractionRecords } from './records.js';
import type { MessageRenderer } from '../messages/renderer.js';
import { editedMessageState } from '../messages/rules/components-v2.js';
import { editedMessage, newResponseMessage } from './response-messages.js';
import type { WorldEvents } from '../../events/world-events.js';
import {
  attachFiles,
  checkComponentMedia,
  type AttachedFiles,
  type AttachmentsService,
  type IncomingFile,
} from '../attachments/service.js';
import { checkPremiumButtons } from '../entitlements/premium-buttons.js';

export interface CallbacksServiceDeps {
  store: Pick<Store, 'world' | 'members' | 'interactions' | 'polls' | 'entitlements'>;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  /** Tells bots of the messages answers leave in channels (MESSAGE_CREATE/UPDATE). */
  events: WorldEvents;
  metrics: InteractionMetrics;
  /** Files of answers sent as multipart bodies. */
  attachments: AttachmentsService;
}

export interface CallbackResult {
  /** The `with_response` body. */
  callbackResponse: Record<string, unknown>;
  message: StoredMessage | null;
}

export class CallbacksService {
  private readonly records: InteractionRecords;

  constructor(private readonly deps: CallbacksServiceDeps) {
    this.records = new InteractionRecords(deps);
  }

  async callback(
    interactionId: string,
    token: string,
    body: unknown,
    files: readonly IncomingFile[] = [],
  ): Promise<CallbackResult> {
    const record = await this.records.findByToken(token, interactionId);
    if (!record) throw apiError('UnknownInteraction');
    const app = await this.deps.store.world.getApplication(record.application_id);
    if (!app) throw apiError('UnknownInteraction');
    try {
      return await this.acknowledge(app, record, body, 'callback', [], files);
    } catch (error) {
      if (error instanceof ApiError) {
        await this.records.step(record, 'answer_refused', {
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
    if (!(await this.records.findByToken(token, interactionId))) throw apiError('UnknownInteraction');
  }

  /**
   * An answer the app gave in the body of its HTTP response to the delivery; `held` are the steps
   * before it (the delivery's), written in the answer's transaction, or before its refusal.
   */
  async acceptInlineResponse(
    app: StoredApplication,
    record: InteractionRecord,
    body: unknown,
    held: TranscriptEntry[] = [],
  ): Promise<void> {
    try {
      await this.acknowledge(app, record, body, 'inline', held);
    } catch (error) {
      // Only a refused answer fails the interaction as invalid; anything else is slashd's own fault.
      if (!(error instanceof ApiError)) {
        await this.records.writeHeld(record, held).catch(() => undefined);
        throw error;
      }
      await this.records.writeHeld(record, held);
      await this.records.step(record, 'answer_refused', {
        via: 'inline',
        status: error.status,
        code: error.code,
        message: error.message,
      });
      await this.records.transition(record, ['pending'], { state: 'failed', failure_reason: 'invalid_response' });
    }
  }

  /**
   * The answer checked and recorded: its state change, its message and its transcript step (after
   * `held`, which is emptied once they are written) in one transaction.
   */
  private async acknowledge(
    app: StoredApplication,
    record: InteractionRecord,
    body: unknown,
    via: 'callback' | 'inline',
    held: TranscriptEntry[],
    files: readonly IncomingFile[] = [],
  ): Promise<CallbackResult> {
    const now = this.deps.now();
    if (currentState(record, now).state === 'failed' && record.state === 'pending') {
      // Past the deadline: record the timeout now, the token is dead.
      await this.records.transition(record, ['pending'], { state: 'failed', failure_reason: 'timeout' });
    }
    checkCanAcknowledge(record, now);
    const updated = await this.messageToUpdate(record, body);
    const checked = checkCallback(body, {
      updating: updated ? editedMessageState(updated) : undefined,
      interactionType: record.type,
      hasMessage: Boolean(record.message_id),
      appHasActivities: hasActivities(app),
      focusedOption: record.focused_option,
    });
    if (!checked.ok) throw messageFormError(checked.issues);
    const response = checked.value;
    const state = stateAfterCallback(response.type);
    if (
      response.type === InteractionResponseType.DeferredMessageUpdate ||
      response.type === InteractionResponseType.UpdateMessage
    ) {
      return this.acknowledgeByUpdate(record, response, files, held, (messageId) =>
        this.answerSteps(held, via, body, messageId),
      );
    }

    let message: StoredMessage | null = null;
    let activityInstanceId: string | null = null;
    if (
      response.type === InteractionResponseType.ChannelMessageWithSource ||
      response.type === InteractionResponseType.DeferredChannelMessageWithSource
    ) {
      const loading = response.type === InteractionResponseType.DeferredChannelMessageWithSource;
      message = newResponseMessage(record, response.data ?? {}, loading, this.made());
    }
    if (response.type === InteractionResponseType.LaunchActivity) activityInstanceId = this.deps.ids.next();
    const attached =
      message && response.type === InteractionResponseType.ChannelMessageWithSource
        ? await attachFiles(this.deps.attachments, message, response.data?.attachments, files, ['data', 'attachments'])
        : null;
    if (message) await checkComponentMedia(message, ['data', 'components'], attached);
    if (message) await checkPremiumButtons(this.deps.store.entitlements, message, ['data', 'components'], attached);
    // The poll's row first, as a channel message's: a poll whose message never came is dropped at its end.
    if (message?.poll) {
      await this.deps.store.polls.createPoll(message.channel_id, message.id, Date.parse(message.poll.expiry));
    }

    const won = await this.records.transition(
      record,
      ['pending'],
      { state, response, original_message_id: message?.id ?? null, activity_instance_id: activityInstanceId },
      message ?? undefined,
      this.answerSteps(held, via, body, message?.id ?? null),
    );
    if (won) held.length = 0;
    else {
      await attached?.discard();
      if (message?.poll) await this.deps.store.polls.deletePoll(message.channel_id, message.id);
      throw apiError('InteractionAlreadyAcknowledged');
    }
    if (message) await this.deps.events.messageCreated(message);
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
    held: TranscriptEntry[],
    steps: (messageId: string) => TranscriptEntry[],
  ): Promise<CallbackResult> {
    const messageId = record.message_id;
    const current = messageId ? await this.deps.store.interactions.getMessage(record.channel_id, messageId) : null;
    if (!current) throw apiError('UnknownMessage');
    let message = current;
    let attached: AttachedFiles | null = null;
    if (response.type === InteractionResponseType.UpdateMessage) {
      message = editedMessage(current, response.data ?? {}, this.deps.now());
      attached = await attachFiles(
        this.deps.attachments,
        message,
        response.data?.attachments,
        files,
        ['data', 'attachments'],
        current,
      );
      // Before the answer is recorded: a refused update leaves the interaction unanswered.
      await checkComponentMedia(message, ['data', 'components'], attached);
      await checkPremiumButtons(this.deps.store.entitlements, message, ['data', 'components'], attached);
    }
    const won = await this.records.transition(
      record,
      ['pending'],
      { state: stateAfterCallback(response.type), response, original_message_id: current.id },
      undefined,
      steps(current.id),
    );
    if (won) held.length = 0;
    else {
      await attached?.discard();
      throw apiError('InteractionAlreadyAcknowledged');
    }
    if (response.type === InteractionResponseType.UpdateMessage) {
      if (await this.deps.store.interactions.editMessage(message)) {
        await attached?.commit();
        await this.deps.events.messageUpdated(message);
      } else {
        await attached?.discard();
      }
    }
    const interaction: Record<string, unknown> = { id: record.id, type: record.type };
    const out: Record<string, unknown> = { interaction };
    if (response.type === InteractionResponseType.UpdateMessage) {
      interaction.response_message_id = message.id;
      interaction.response_message_loading = false;
      interaction.response_message_ephemeral = message.ephemeral_for_user_id !== null;
      out.resource = { type: response.type, message: await this.deps.renderer.render(message) };
    }
    return { message, callbackResponse: out };
  }

  /** `held`, then the answer's own step: what its transaction writes. */
  private answerSteps(
    held: readonly TranscriptEntry[],
    via: 'callback' | 'inline',
    body: unknown,
    messageId: string | null,
  ): TranscriptEntry[] {
    return [...held, this.records.entry('answer', { via, type: callbackTypeOf(body), message_id: messageId })];
  }

  /** The message a 7 updates, read before its data is checked: a components v2 message has its own rules. */
  private async messageToUpdate(record: InteractionRecord, body: unknown): Promise<StoredMessage | null> {
    if (callbackTypeOf(body) !== InteractionResponseType.UpdateMessage || !record.message_id) return null;
    return this.deps.store.interactions.getMessage(record.channel_id, record.message_id);
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
    const notice = newResponseMessage(record, { content: `Started ${app.name}` }, false, this.made());
    await this.records.transition(
      record,
      ['pending'],
      {
        state: 'responded',
        response: { type: InteractionResponseType.LaunchActivity },
        activity_instance_id: instanceId,
        original_message_id: notice.id,
      },
      notice,
    );
    await this.deps.events.messageCreated(notice);
    await this.recordActivity(record, instanceId);
  }

  /** A new message's id and time. */
  private made(): { id: string; at: number } {
    return { id: this.deps.ids.next(), at: this.deps.now() };
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
}

/** The callback type an answer names (for its transcript step), or null. */
function callbackTypeOf(body: unknown): number | null {
  const type = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).type : undefined;
  return typeof type === 'number' ? type : null;
}
