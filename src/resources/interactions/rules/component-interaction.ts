/**
 * The interaction an app receives for a click (type 3, v10 APIMessageComponentInteraction) or a
 * modal submission (type 5, APIModalSubmitInteraction): the fields every interaction carries, a
 * click's `data.custom_id`, `data.component_type`, `data.values` and `data.resolved`, a
 * submission's `data.custom_id` and `data.components`, and `message`: the message holding the
 * component (for a submission, only when the modal was opened from a component).
 */
import type { APIEntitlement, ComponentType } from 'discord-api-types/v10';
import { wireLocale, type WirePayload } from '../../../core/wire-payload.js';
import type { Application, Channel, Guild, Member, User } from '../../../core/world/types.js';
import { addGuild, addInvoker, type WireInteraction } from './build-interaction.js';
import type { CheckedClick } from './component-click.js';
import { ATTACHMENT_SIZE_LIMIT, INTERACTION_VERSION } from '../../messages/rules/limits.js';
import type { WireMessage } from '../../messages/rules/messages.js';
import type { WireSubmittedComponent } from './modal-submit.js';
import { buildResolved, type WireResolved } from './resolved.js';
import { toWirePartialChannel, type WireObject } from '../../messages/rules/wire-objects.js';

/**
 * A click's `data`: one shape for every component type, where discord-api-types has one per type
 * (buttons without `values`, each select with its own).
 */
export interface WireClickData {
  custom_id: string;
  component_type: ComponentType;
  values?: string[];
  resolved?: WireResolved;
}

/** A modal submission's `data`: the modal's layout with the values (`modal-submit.ts`). */
export interface WireModalSubmitData {
  custom_id: string;
  components: readonly WireSubmittedComponent[];
}

export interface ComponentInteractionInput {
  id: string;
  token: string;
  app: Application;
  user: User;
  guild: Guild | null;
  member: Member | null;
  channel: Channel;
  locale: string;
  /**
   * The message holding the component, as `toWireMessage` renders it (through the services' message
   * renderer, which hands it on as a record); null for a modal opened by a command.
   */
  message: WireObject | null;
  authorizingIntegrationOwners: Record<string, string>;
  context: 0 | 1 | 2;
  appPermissions: string;
  memberPermissions: string | null;
  /** The active entitlements of the user, and of the guild when clicked in one. */
  entitlements?: APIEntitlement[];
}

function baseInteraction<Data>(
  input: ComponentInteractionInput,
  type: 3 | 5,
  data: Data,
): WirePayload<WireInteraction<Data>> {
  const interaction: WirePayload<WireInteraction<Data>> = {
    id: input.id,
    application_id: input.app.id,
    type,
    token: input.token,
    version: INTERACTION_VERSION,
    data,
    channel_id: input.channel.id,
    channel: toWirePartialChannel(input.channel, input.guild, input.memberPermissions),
    app_permissions: input.appPermissions,
    locale: wireLocale(input.locale),
    entitlements: input.entitlements ?? [],
    authorizing_integration_owners: input.authorizingIntegrationOwners,
    context: input.context,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
  } satisfies WireInteraction<Data>;
  if (input.message) interaction.message = input.message as unknown as WireMessage;
  addGuild(interaction, input.guild);
  addInvoker(interaction, input);
  return interaction;
}

/** A click; `users` are the users its values name (for `data.resolved`). */
export function buildClickInteraction(
  input: ComponentInteractionInput,
  click: CheckedClick,
  users: readonly User[],
): WirePayload<WireInteraction<WireClickData>> {
  const data: WireClickData = { custom_id: click.custom_id, component_type: click.component_type };
  if (click.values !== undefined) data.values = click.values;
  const resolved = buildResolved(click.referenced, { ...input, users, messages: [] });
  if (resolved) data.resolved = resolved;
  return baseInteraction(input, 3, data);
}

/** A modal submission with its `data.components` (see `modal-submit.ts`). */
export function buildModalSubmitInteraction(
  input: ComponentInteractionInput,
  customId: string,
  components: readonly WireSubmittedComponent[],
): WirePayload<WireInteraction<WireModalSubmitData>> {
  return baseInteraction(input, 5, { custom_id: customId, components } satisfies WireModalSubmitData);
}
