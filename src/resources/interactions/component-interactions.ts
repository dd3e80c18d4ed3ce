/**
 * Clicks (type 3) and modal submissions (type 5) from a user: checked against what the app sent
 * (the message and its components; the modal it answered one of this user's interactions with)
 * before anything reaches the app, then recorded as an interaction the invocations service
 * delivers like a command's. Decisions: docs/decisions.md#components-and-modals.
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import { randomBytes } from 'node:crypto';
import { INTERACTION_MODAL_UNKNOWN, INTERACTION_UNKNOWN_MESSAGE } from '../../core/io/codes.js';
import { invalidFormBody, type ApiError } from '../../core/io/errors.js';
import { issue, type IssuePath } from '../../core/io/issue.js';
import { checkClick } from './rules/component-click.js';
import { ID_SELECT_TYPES } from '../messages/rules/component-tree.js';
import {
  buildClickInteraction,
  buildModalSubmitInteraction,
  type ComponentInteractionInput,
} from './rules/component-interaction.js';
import { makeInteractionToken, tokenAlive, type InteractionRecord } from './rules/lifecycle.js';
import { interactionMetadataOf, type StoredMessage } from '../messages/rules/messages.js';
import { MODAL_SEARCH_LIMIT } from '../messages/rules/limits.js';
import { checkModalSubmit } from './rules/modal-submit.js';
import type { ComponentRequest, ModalSubmitRequest } from './rules/component-request.js';
import { BOT_DM_APP_PERMISSIONS, GROUP_DM_APP_PERMISSIONS } from '../../core/permissions/user-install.js';
import { formatPermissions } from '../../core/permissions/bits.js';
import { appChannelPermissions, channelPermissions } from '../../core/permissions/channel-permissions.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import type { User } from '../../core/world/types.js';
import type { Store, StoredApplication } from '../../store/store.js';
import { loadPlace, messageReadableIn, viewableGuild, withNamedMembers, type Place } from './invocation-scene.js';
import type { MessageRenderer } from '../messages/renderer.js';
import { interactionEntitlements } from '../entitlements/rules.js';

export interface ComponentInteractionsDeps {
  store: Pick<Store, 'world' | 'members' | 'interactions' | 'dms' | 'entitlements'>;
  ids: SnowflakeGenerator;
  renderer: MessageRenderer;
  now: () => number;
}

/** A checked interaction, recorded and ready to be delivered to its app. */
export interface PreparedInteraction {
  app: StoredApplication;
  record: InteractionRecord;
}

function refused(path: IssuePath, code: string, message: string): ApiError {
  return invalidFormBody([issue(path, code, message)]);
}

function unknownMessage(message: string): ApiError {
  return refused(['message_id'], INTERACTION_UNKNOWN_MESSAGE, message);
}

function unknownModal(): ApiError {
  return refused(['data', 'custom_id'], INTERACTION_MODAL_UNKNOWN, 'No open modal of yours has this custom_id.');
}

export class ComponentInteractions {
  constructor(private readonly deps: ComponentInteractionsDeps) {}

  /** A click on a component of a message the user can see, sent by the app that gets the click. */
  async prepareClick(user: User, request: ComponentRequest): Promise<PreparedInteraction> {
    const entered = await loadPlace(this.deps.store, user, request);
    const message = await this.deps.store.interactions.getMessage(entered.channel.id, request.message_id);
    // Absent, hidden (another user's ephemeral message, a channel whose history they cannot read)
    // or written by a user: the same refusal, so that nothing hidden is revealed.
    const ownerId = message ? owningApplicationId(message) : null;
    if (!message || !messageReadableIn(entered, message) || ownerId === null) {
      throw unknownMessage('Unknown message.');
    }
    if (request.application_id !== null && request.application_id !== ownerId) {
      throw unknownMessage('The message was not sent by this application.');
    }
    const app = await this.deps.store.world.getApplication(ownerId);
    if (!app) throw unknownMessage('Unknown message.');
    const idValues = ID_SELECT_TYPES.includes(request.data.component_type) ? (request.data.values ?? []) : [];
    const users = await this.deps.store.world.getUsers(idValues.filter((value) => isSnowflake(value)));
    const place = await withNamedMembers(
      this.deps.store,
      entered,
      users.map((u) => u.id),
    );
    const checked = checkClick(message.components, request.data, {
      guild: viewableGuild(place),
      channel: place.channel,
      messages: [],
      users,
    });
    if (!checked.ok) throw invalidFormBody(checked.issues);
    const input = await this.input(app, place, message);
    const payload = buildClickInteraction(input, checked.value, users);
    const record = this.newRecord(input, app, place, request.nonce, 3, payload, {
      message_id: message.id,
      custom_id: request.data.custom_id,
      command_name: message.interaction_metadata?.name ?? '',
      command_type: message.interaction_metadata?.command_type ?? 0,
    });
    return { app, record };
  }

  /** A submission of the open modal the app answered one of this user's interactions with. */
  async prepareModalSubmit(user: User, request: ModalSubmitRequest): Promise<PreparedInteraction> {
    const place = await loadPlace(this.deps.store, user, request);
    const opening = await this.openModal(user, request);
    const modal = opening.response?.data ?? {};
    const components = Array.isArray(modal.components) ? (modal.components as unknown[]) : [];
    const checked = checkModalSubmit(components, request.data.fields);
    if (!checked.ok) throw invalidFormBody(checked.issues);
    const app = await this.deps.store.world.getApplication(opening.application_id);
    if (!app) throw unknownModal();
    // The modal opened from a click comes with that message, while the user can still see it.
    const fromClick = opening.message_id
      ? await this.deps.store.interactions.getMessage(place.channel.id, opening.message_id)
      : null;
    const message = fromClick && messageReadableIn(place, fromClick) ? fromClick : null;
    const input = await this.input(app, place, message);
    const payload = buildModalSubmitInteraction(input, request.data.custom_id, checked.value);
    const record = this.newRecord(input, app, place, request.nonce, 5, payload, {
      message_id: message?.id ?? null,
      custom_id: request.data.custom_id,
      command_name: opening.command_name,
      command_type: opening.command_type,
      triggering_metadata: interactionMetadataOf(opening),
    });
    // Last: a modal is submitted once, and only a submission that passed every check uses it up.
    if (!(await this.deps.store.interactions.claimModal(opening.application_id, opening.id, record.id))) {
      throw unknownModal();
    }
    return { app, record };
  }

  /**
   * The newest interaction of this user, in this channel, answered with a modal of this custom_id
   * (and of the named app, if any) that is not submitted yet and whose token still lives.
   */
  private async openModal(user: User, request: ModalSubmitRequest): Promise<InteractionRecord> {
    const now = this.deps.now();
    const recent = await this.deps.store.interactions.listUserInteractions(user.id, MODAL_SEARCH_LIMIT);
    const opening = recent.find(
      (record) =>
        record.response?.type === InteractionResponseType.Modal &&
        record.response.data?.custom_id === request.data.custom_id &&
        !record.modal_submission_id &&
        record.channel_id === request.channel_id &&
        record.guild_id === request.guild_id &&
        (request.application_id === null || record.application_id === request.application_id) &&
        tokenAlive(record, now),
    );
    if (!opening) throw unknownModal();
    return opening;
  }

  private async input(
    app: StoredApplication,
    place: Place,
    message: StoredMessage | null,
  ): Promise<ComponentInteractionInput> {
    const id = this.deps.ids.next();
    const guild = place.inGuild?.guild ?? null;
    const member = place.inGuild?.member ?? null;
    return {
      id,
      token: makeInteractionToken(app.id, id, randomBytes(32).toString('base64url')),
      app,
      user: place.user,
      guild,
      member,
      channel: place.channel,
      locale: place.user.locale,
      message: message ? await this.deps.renderer.render(message) : null,
      // A click answers the message's interaction: the integrations that authorized it (a user install's too).
      authorizingIntegrationOwners: message?.interaction_metadata?.authorizing_integration_owners ?? {
        '0': guild?.id ?? '0',
      },
      context: guild ? 0 : place.groupDm ? 2 : 1,
      appPermissions: formatPermissions(
        guild
          ? appChannelPermissions(guild, app.id, place.channel)
          : place.groupDm
            ? GROUP_DM_APP_PERMISSIONS
            : BOT_DM_APP_PERMISSIONS,
      ),
      memberPermissions: guild && member ? formatPermissions(channelPermissions(guild, member, place.channel)) : null,
      entitlements: interactionEntitlements(
        await this.deps.store.entitlements.listOwnedEntitlements(
          app.id,
          guild ? [place.user.id, guild.id] : [place.user.id],
        ),
        this.deps.now(),
      ),
    };
  }

  private newRecord(
    input: ComponentInteractionInput,
    app: StoredApplication,
    place: Place,
    nonce: string | null,
    type: 3 | 5,
    payload: Record<string, unknown>,
    fields: Pick<InteractionRecord, 'message_id' | 'custom_id' | 'command_name' | 'command_type'> &
      Partial<InteractionRecord>,
  ): InteractionRecord {
    return {
      id: input.id,
      application_id: app.id,
      type,
      token: input.token,
      user_id: place.user.id,
      guild_id: place.inGuild?.guild.id ?? null,
      channel_id: place.channel.id,
      command_id: '',
      nonce,
      state: 'pending',
      failure_reason: null,
      response: null,
      created_at: this.deps.now(),
      original_message_id: null,
      focused_option: null,
      activity_instance_id: null,
      payload,
      ...fields,
    };
  }
}

/**
 * The app a click on the message goes to: its bot's, or the app owning the webhook that sent it
 * (an application-owned webhook's message carries `application_id`); null for a user's message or
 * a webhook's of no app (a crosspost's copy).
 */
function owningApplicationId(message: StoredMessage): string | null {
  if (message.author.kind === 'app') return message.author.id;
  if (message.author.kind === 'webhook') return message.application_id ?? null;
  return null;
}
