/**
 * The interaction object an app receives for an invocation that passed `checkInvocation`: every
 * field of the v10 API ("Interactions received by the app") and of the docs/v10-behaviour.md#interactions. Names are the
 * command's default names, never localized ones.
 */
import type { StoredCommand } from '../commands/model.js';
import type { Application, Channel, Guild, Member, User } from '../world/types.js';
import { toWirePublicUser } from '../world/wire.js';
import type { CheckedInvocation, InvocationKind } from './invocation-types.js';
import type { ChannelMessage } from './messages.js';
import { ATTACHMENT_SIZE_LIMIT, INTERACTION_VERSION } from './limits.js';
import { buildResolved } from './resolved.js';
import { toWireInteractionMember, toWirePartialChannel, toWirePartialGuild, type WireObject } from './wire-objects.js';

/** Interaction types of invocations (docs/v10-behaviour.md#interactions). */
export const InteractionType = {
  ApplicationCommand: 2,
  MessageComponent: 3,
  ApplicationCommandAutocomplete: 4,
  ModalSubmit: 5,
} as const;

export interface InteractionInput {
  id: string;
  token: string;
  kind: InvocationKind;
  app: Application;
  command: StoredCommand;
  checked: CheckedInvocation;
  user: User;
  guild: Guild | null;
  member: Member | null;
  channel: Channel;
  /** The invoking user's locale. */
  locale: string;
  /** World data to resolve from: messages may be world messages or stored ones. */
  messages: ChannelMessage[];
  users: User[];
  /** Other applications, for messages their bots wrote; the invoked app is always known. */
  applications?: Application[];
  authorizingIntegrationOwners: Record<string, string>;
  context: 0 | 1 | 2;
  appPermissions: string;
  /** The member's permissions in the channel; null outside guilds. */
  memberPermissions: string | null;
  /** Attachments the client uploaded, as attachment objects by id; others resolve to a placeholder. */
  attachments?: Record<string, Record<string, unknown>>;
}

function interactionType(kind: InvocationKind): number {
  return kind === 'autocomplete' ? InteractionType.ApplicationCommandAutocomplete : InteractionType.ApplicationCommand;
}

function buildData(input: InteractionInput): WireObject {
  const { command, checked } = input;
  const data: WireObject = { id: command.id, name: command.definition.name, type: command.definition.type };
  if (command.guild_id !== null) data.guild_id = command.guild_id;
  if (checked.options) data.options = checked.options;
  if (checked.target_id !== null) data.target_id = checked.target_id;
  const resolved = buildResolved(checked.referenced, input);
  if (resolved) data.resolved = resolved;
  return data;
}

/** In a guild the invoker is a member (with its user inside); elsewhere a bare user. */
export function addInvoker(
  interaction: WireObject,
  input: Pick<InteractionInput, 'guild' | 'member' | 'user' | 'memberPermissions'>,
): void {
  const { guild, member, user } = input;
  if (guild && member) {
    interaction.member = toWireInteractionMember(guild, member, user, input.memberPermissions ?? '0');
  } else {
    interaction.user = toWirePublicUser(user);
  }
}

export function addGuild(interaction: WireObject, guild: Guild | null): void {
  if (!guild) return;
  interaction.guild_id = guild.id;
  interaction.guild = toWirePartialGuild(guild);
  interaction.guild_locale = guild.preferred_locale;
}

/** The interaction object, ready to be serialized and signed. */
export function buildInteraction(input: InteractionInput): Record<string, unknown> {
  const interaction: WireObject = {
    id: input.id,
    application_id: input.app.id,
    type: interactionType(input.kind),
    token: input.token,
    version: INTERACTION_VERSION,
    data: buildData(input),
    channel_id: input.channel.id,
    channel: toWirePartialChannel(input.channel, input.guild, input.memberPermissions),
    app_permissions: input.appPermissions,
    locale: input.locale,
    entitlements: [],
    authorizing_integration_owners: input.authorizingIntegrationOwners,
    context: input.context,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
  };
  addGuild(interaction, input.guild);
  addInvoker(interaction, input);
  return interaction;
}
