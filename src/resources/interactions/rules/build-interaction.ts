/**
 * The interaction object an app receives for an invocation that passed `checkInvocation`: every
 * field of the v10 API ("Interactions received by the app") and of the docs/v10-behaviour.md#interactions. Names are the
 * command's default names, never localized ones.
 */
import {
  InteractionType,
  type APIAttachment,
  type APIEntitlement,
  type APIBaseInteraction,
  type ApplicationCommandType,
} from 'discord-api-types/v10';
import type { StoredCommand } from '../../../core/commands/model.js';
import { wireLocale, type WirePayload } from '../../../core/wire-payload.js';
import type { Application, Channel, Guild, Member, User } from '../../../core/world/types.js';
import { toWirePublicUser } from '../../../core/world/wire.js';
import type { CheckedInvocation, InvocationKind, WireDataOption } from './invocation-types.js';
import type { ChannelMessage, WireMessage } from '../../messages/rules/messages.js';
import { ATTACHMENT_SIZE_LIMIT, INTERACTION_VERSION } from '../../messages/rules/limits.js';
import { buildResolved, type WireResolved } from './resolved.js';
import {
  toWireInteractionMember,
  toWirePartialChannel,
  toWirePartialGuild,
  type WireInteractionMember,
  type WirePartialChannel,
} from '../../messages/rules/wire-objects.js';

/**
 * The interaction object as slashd sends it, of every type: discord-api-types' base interaction
 * with `data` given by each builder, and slashd's partial channel, invoking member and message
 * (`wire-objects.ts`, `messages.ts`: the fields v10 sends that its types lack). discord-api-types
 * has one interface per interaction and command type; slashd builds them from one input.
 */
export interface WireInteraction<Data> extends Omit<
  APIBaseInteraction<InteractionType, Data>,
  'data' | 'channel' | 'member' | 'message'
> {
  data: Data;
  channel_id: string;
  channel: WirePartialChannel;
  member?: WireInteractionMember;
  message?: WireMessage;
  attachment_size_limit: number;
}

/**
 * A command's or an autocomplete request's `data`: one shape for every command type (a USER or
 * MESSAGE command has `target_id`, a slash command `options`), where discord-api-types has one
 * per command type; the options are the core's own (`invocation-types.ts`).
 */
export interface WireCommandData {
  id: string;
  name: string;
  type: ApplicationCommandType;
  guild_id?: string;
  options?: WireDataOption[];
  target_id?: string;
  resolved?: WireResolved;
}

/** The invoker and guild fields that `addInvoker` and `addGuild` write. */
type InvokerFields = Pick<WireInteraction<unknown>, 'member' | 'user' | 'guild_id' | 'guild' | 'guild_locale'>;

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
  attachments?: Record<string, APIAttachment>;
  /** The active entitlements of the user, and of the guild when invoked in one. */
  entitlements?: APIEntitlement[];
}

function interactionType(kind: InvocationKind): number {
  return kind === 'autocomplete' ? InteractionType.ApplicationCommandAutocomplete : InteractionType.ApplicationCommand;
}

function buildData(input: InteractionInput): WireCommandData {
  const { command, checked } = input;
  const data: WireCommandData = { id: command.id, name: command.definition.name, type: command.definition.type };
  if (command.guild_id !== null) data.guild_id = command.guild_id;
  if (checked.options) data.options = checked.options;
  if (checked.target_id !== null) data.target_id = checked.target_id;
  const resolved = buildResolved(checked.referenced, input);
  if (resolved) data.resolved = resolved;
  return data;
}

/** In a guild the invoker is a member (with its user inside); elsewhere a bare user. */
export function addInvoker(
  interaction: InvokerFields,
  input: Pick<InteractionInput, 'guild' | 'member' | 'user' | 'memberPermissions'>,
): void {
  const { guild, member, user } = input;
  if (guild && member) {
    interaction.member = toWireInteractionMember(guild, member, user, input.memberPermissions ?? '0');
  } else {
    interaction.user = toWirePublicUser(user);
  }
}

export function addGuild(interaction: InvokerFields, guild: Guild | null): void {
  if (!guild) return;
  interaction.guild_id = guild.id;
  interaction.guild = toWirePartialGuild(guild);
  interaction.guild_locale = wireLocale(guild.preferred_locale);
}

/** The interaction object, ready to be serialized and signed. */
export function buildInteraction(input: InteractionInput): WirePayload<WireInteraction<WireCommandData>> {
  const interaction: WirePayload<WireInteraction<WireCommandData>> = {
    id: input.id,
    application_id: input.app.id,
    type: interactionType(input.kind),
    token: input.token,
    version: INTERACTION_VERSION,
    data: buildData(input),
    channel_id: input.channel.id,
    channel: toWirePartialChannel(input.channel, input.guild, input.memberPermissions),
    app_permissions: input.appPermissions,
    locale: wireLocale(input.locale),
    entitlements: input.entitlements ?? [],
    authorizing_integration_owners: input.authorizingIntegrationOwners,
    context: input.context,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
  } satisfies WireInteraction<WireCommandData>;
  addGuild(interaction, input.guild);
  addInvoker(interaction, input);
  return interaction;
}
