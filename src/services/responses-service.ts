/**
 * The app's side of an interaction: the first answer (inline, or through the callback endpoint),
 * the original response and follow-ups through the interaction webhook, and what they leave in
 * the channel as messages.
 */
import { APPLICATION_FLAG_EMBEDDED } from '../core/commands/model.js';
import { ApiError, invalidFormBody, JsonCode, type Issue } from '../core/errors.js';
import {
  CallbackType,
  checkCanAcknowledge,
  currentState,
  readInteractionToken,
  stateAfterCallback,
  tokenAlive,
  unknownInteraction,
  alreadyAcknowledged,
  type InteractionRecord,
} from '../core/interactions/lifecycle.js';
import {
  checkCallback,
  checkMessageData,
  emptyMessageError,
  isEmptyMessageFailure,
} from '../core/interactions/responses.js';
import type { StoredMessage } from '../core/interactions/messages.js';
import type { SnowflakeGenerator } from '../core/snowflake.js';
import type { Store, StoredApplication } from '../store/store.js';
import { sameSecret } from '../store/tokens.js';
import type { MessageRenderer } from './message-renderer.js';
import type { WorldEvents } from './world-events.js';

/** Message flags (v10). */
const EPHEMERAL = 64;
const LOADING = 128;
/** The flags an app may set on a message it sends; EPHEMERAL is tracked apart, as visibility. */
const SUPPRESS_EMBEDS = 4;
const SUPPRESS_NOTIFICATIONS = 4096;
const SENDABLE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS;

/** An empty message is a JSON error of its own (50006), not a form error. */
function formError(issues: Issue[]): ApiError {
  return isEmptyMessageFailure(issues) ? emptyMessageError() : invalidFormBody(issues);
}

export const unknownWebhook = () => new ApiError(404, JsonCode.UnknownWebhook, 'Unknown Webhook');
export const invalidWebhookToken = () => new ApiError(401, JsonCode.InvalidWebhookToken, 'Invalid Webhook Token');
export const unknownMessage = () => new ApiError(404, JsonCode.UnknownMessage, 'Unknown Message');

export interface ResponsesServiceDeps {
  store: Store;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  /** Tells bots of the messages answers leave in channels (MESSAGE_CREATE/UPDATE/DELETE). */
  events?: WorldEvents;
}

export interface CallbackResult {
  /** The `with_response` body. */
  callbackResponse: Record<string, unknown>;
  message: StoredMessage | null;
}

function hasActivities(app: StoredApplication): boolean {
  return (app.flags & APPLICATION_FLAG_EMBEDDED) !== 0;
}

export class ResponsesService {
  constructor(private readonly deps: ResponsesServiceDeps) {}

  /** The interaction a token names, if the token is exactly its token. */
  private async findByToken(token: string, interactionId?: string): Promise<InteractionRecord | null> {
    const named = readInteractionToken(token);
    if (!named || (interactionId !== undefined && named.interactionId !== interactionId)) return null;
    const record = await this.deps.store.getInteraction(named.applicationId, named.interactionId);
    if (!record || !sameSecret(record.token, token)) return null;
    return record;
  }

  // ---- the first answer ---------------------------------------------------------------------------

  async callback(interactionId: string, token: string, body: unknown): Promise<CallbackResult> {
    const record = await this.findByToken(token, interactionId);
    if (!record) throw unknownInteraction();
    const app = await this.deps.store.getApplication(record.application_id);
    if (!app) throw unknownInteraction();
    return this.acknowledge(app, record, body);
  }

  /** An answer the app gave in the body of its HTTP response to the delivery. */
  async acceptInlineResponse(app: StoredApplication, record: InteractionRecord, body: unknown): Promise<void> {
    try {
      await this.acknowledge(app, record, body);
    } catch (error) {
      // Only a refused answer fails the interaction as invalid; anything else is slashd's own fault.
      if (!(error instanceof ApiError)) throw error;
      await this.deps.store.updateInteraction(record.application_id, record.id, ['pending'], {
        state: 'failed',
        failure_reason: 'invalid_response',
      });
    }
  }

  private async acknowledge(app: StoredApplication, record: InteractionRecord, body: unknown): Promise<CallbackResult> {
    const now = this.deps.now();
    if (currentState(record, now).state === 'failed' && record.state === 'pending') {
      // Past the deadline: record the timeout now, the token is dead.
      await this.deps.store.updateInteraction(record.application_id, record.id, ['pending'], {
        state: 'failed',
        failure_reason: 'timeout',
      });
    }
    checkCanAcknowledge(record, now);
    const checked = checkCallback(body, {
      interactionType: record.type,
      appHasActivities: hasActivities(app),
      focusedOption: record.focused_option,
    });
    if (!checked.ok) throw formError(checked.issues);
    const response = checked.value;
    const state = stateAfterCallback(response.type);

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

    const won = await this.deps.store.updateInteraction(
      record.application_id,
      record.id,
      ['pending'],
      { state, response, original_message_id: message?.id ?? null, activity_instance_id: activityInstanceId },
      message ?? undefined,
    );
    if (!won) throw alreadyAcknowledged();
    if (message) await this.deps.events?.messageCreated(message);
    if (activityInstanceId) await this.recordActivity(record, activityInstanceId);
    return {
      message,
      callbackResponse: await this.callbackResponse(record, response.type, message, activityInstanceId),
    };
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
      interaction.response_message_loading = (message.flags & LOADING) !== 0;
      interaction.response_message_ephemeral = (message.flags & EPHEMERAL) !== 0;
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
    await this.deps.store.updateInteraction(
      record.application_id,
      record.id,
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
    await this.deps.store.putActivityInstance({
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
    const ephemeral = (flags & EPHEMERAL) !== 0;
    return {
      id: this.deps.ids.next(),
      channel_id: record.channel_id,
      guild_id: record.guild_id,
      author: { kind: 'app', id: record.application_id },
      content: loading ? '' : typeof data.content === 'string' ? data.content : '',
      embeds: loading || !Array.isArray(data.embeds) ? [] : data.embeds,
      components: loading || !Array.isArray(data.components) ? [] : data.components,
      flags: (flags & SENDABLE_FLAGS) | (loading ? LOADING : 0),
      tts: data.tts === true,
      timestamp: new Date(this.deps.now()).toISOString(),
      edited_timestamp: null,
      interaction_metadata: {
        id: record.id,
        type: record.type,
        user_id: record.user_id,
        authorizing_integration_owners: record.guild_id ? { '0': record.guild_id } : { '0': '0' },
        name: record.command_name,
        command_type: record.command_type,
      },
      ephemeral_for_user_id: ephemeral ? record.user_id : null,
      webhook_id: record.application_id,
      application_id: record.application_id,
    };
  }

  // ---- the interaction webhook --------------------------------------------------------------------

  /** The interaction behind a webhook token; its token must be alive (15 minutes). */
  async webhookInteraction(applicationId: string, token: string): Promise<InteractionRecord> {
    const record = await this.findByToken(token);
    if (!record || record.application_id !== applicationId) throw unknownWebhook();
    if (!tokenAlive(record, this.deps.now())) throw invalidWebhookToken();
    return record;
  }

  async followUp(applicationId: string, token: string, body: unknown): Promise<StoredMessage> {
    const record = await this.webhookInteraction(applicationId, token);
    if (record.state === 'pending') throw unknownWebhook();
    const checked = checkMessageData(body, {});
    if (!checked.ok) throw formError(checked.issues);
    const message = this.newMessage(record, checked.value, false);
    message.interaction_metadata = {
      ...message.interaction_metadata!,
      original_response_message_id: record.original_message_id ?? undefined,
    };
    await this.deps.store.putMessage(message);
    await this.deps.events?.messageCreated(message);
    return message;
  }

  async getMessage(applicationId: string, token: string, messageId: string): Promise<StoredMessage> {
    const record = await this.webhookInteraction(applicationId, token);
    return this.ownMessage(record, messageId);
  }

  async editMessage(applicationId: string, token: string, messageId: string, body: unknown): Promise<StoredMessage> {
    const record = await this.webhookInteraction(applicationId, token);
    const message = await this.ownMessage(record, messageId);
    const checked = checkMessageData(body, { partial: true });
    if (!checked.ok) throw formError(checked.issues);
    const data = checked.value;
    const edited: StoredMessage = {
      ...message,
      content: typeof data.content === 'string' ? data.content : data.content === null ? '' : message.content,
      embeds: Array.isArray(data.embeds) ? data.embeds : message.embeds,
      components: Array.isArray(data.components) ? data.components : message.components,
      flags: message.flags & ~LOADING,
      edited_timestamp: (message.flags & LOADING) !== 0 ? null : new Date(this.deps.now()).toISOString(),
    };
    if (!(await this.deps.store.editMessage(edited))) throw unknownMessage();
    await this.deps.events?.messageUpdated(edited);
    if (record.original_message_id === message.id && record.state === 'acknowledged') {
      // The deferred answer is given by editing the original: the interaction has its response now.
      await this.deps.store.updateInteraction(record.application_id, record.id, ['acknowledged'], {
        state: 'responded',
      });
    }
    return edited;
  }

  async deleteMessage(applicationId: string, token: string, messageId: string): Promise<void> {
    const record = await this.webhookInteraction(applicationId, token);
    const message = await this.ownMessage(record, messageId);
    if (await this.deps.store.deleteMessage(message.channel_id, message.id))
      await this.deps.events?.messageDeleted(message);
  }

  /** `@original` or a follow-up of this interaction; nothing else is reachable through its token. */
  private async ownMessage(record: InteractionRecord, messageId: string): Promise<StoredMessage> {
    const id = messageId === '@original' ? record.original_message_id : messageId;
    if (!id) throw unknownMessage();
    const message = await this.deps.store.getMessage(record.channel_id, id);
    if (!message || message.interaction_metadata?.id !== record.id) throw unknownMessage();
    return message;
  }
}
