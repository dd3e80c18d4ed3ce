/**
 * The messages an app's answers leave in the channel, shared by the callbacks (4, 5, 7) and the
 * interaction webhook (follow-ups, edits): made from the answer's checked data, and edited.
 */
import { MESSAGE_FLAGS_ALLOWED } from '../messages/rules/message-data.js';
import {
  EPHEMERAL_FLAG,
  hasFlag,
  interactionMetadataOf,
  IS_COMPONENTS_V2_FLAG,
  LOADING_FLAG,
  type StoredMessage,
} from '../messages/rules/messages.js';
import type { InteractionRecord } from './rules/lifecycle.js';
import { normalizeComponents } from '../messages/rules/component-tree.js';
import { isRecord } from '../../core/io/read.js';
import { parsePermissions } from '../../core/permissions/bits.js';
import { storedPollOf, type PollRequest } from '../polls/rules.js';
import { userInstallResponsesForcedEphemeral } from '../../core/permissions/user-install.js';

function flagsOf(data: Record<string, unknown>): number {
  return typeof data.flags === 'number' ? data.flags : 0;
}

/**
 * A guild where only the user's install authorized the interaction, and the member may not let
 * such apps answer in public there (USE_EXTERNAL_APPS): the app's answers are the member's alone.
 * Read from what the app was sent, so responses, follow-ups and clicks decide alike.
 */
function forcedEphemeral(record: InteractionRecord): boolean {
  if (record.guild_id === null) return false;
  if ('0' in interactionMetadataOf(record).authorizing_integration_owners) return false;
  const member: unknown = record.payload.member;
  const bits = isRecord(member) && typeof member.permissions === 'string' ? member.permissions : null;
  return userInstallResponsesForcedEphemeral(parsePermissions(bits));
}

/** A new message of the app in the interaction's channel; `loading`: the "thinking…" of a deferred answer. */
export function newResponseMessage(
  record: InteractionRecord,
  data: Record<string, unknown>,
  loading: boolean,
  made: { id: string; at: number },
): StoredMessage {
  const flags = flagsOf(data) | (forcedEphemeral(record) ? EPHEMERAL_FLAG : 0);
  const ephemeral = hasFlag(flags, EPHEMERAL_FLAG);
  return {
    id: made.id,
    channel_id: record.channel_id,
    guild_id: record.guild_id,
    author: { kind: 'app', id: record.application_id },
    content: loading ? '' : typeof data.content === 'string' ? data.content : '',
    embeds: loading || !Array.isArray(data.embeds) ? [] : (data.embeds as Record<string, unknown>[]),
    components: loading || !Array.isArray(data.components) ? [] : normalizeComponents(data.components as unknown[]),
    // What an app may set, and LOADING, which only slashd sets.
    flags: (flags & MESSAGE_FLAGS_ALLOWED) | (loading ? LOADING_FLAG : 0),
    tts: data.tts === true,
    timestamp: new Date(made.at).toISOString(),
    edited_timestamp: null,
    interaction_metadata: interactionMetadataOf(record),
    ephemeral_for_user_id: ephemeral ? record.user_id : null,
    webhook_id: record.application_id,
    application_id: record.application_id,
    // Its poll ends `duration` hours after the answer (docs/v10-behaviour.md#polls); the votes are the polls store's.
    ...(!loading && data.poll ? { poll: storedPollOf(data.poll as PollRequest, made.at) } : {}),
  };
}

/**
 * An edit's fields replace the message's (null clears); EPHEMERAL stays as it was; a loading
 * message is filled in; IS_COMPONENTS_V2 is set when the edit sets it (the rules keep it once set).
 */
export function editedMessage(message: StoredMessage, data: Record<string, unknown>, at: number): StoredMessage {
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
    flags: (message.flags & ~LOADING_FLAG) | (flagsOf(data) & IS_COMPONENTS_V2_FLAG),
    edited_timestamp: hasFlag(message.flags, LOADING_FLAG) ? null : new Date(at).toISOString(),
  };
}
