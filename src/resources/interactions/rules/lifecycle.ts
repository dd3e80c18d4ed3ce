/**
 * The life of one interaction, as pure decisions over its record and the time: the first answer
 * within 3 seconds or it fails; the token serves follow-ups for 15 minutes; one acknowledgement.
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import { apiError } from '../../../core/io/errors.js';
import type { OptionDefinition } from '../../../core/commands/model.js';
import type { StoredInteractionMetadata } from '../../messages/rules/messages.js';

/** How long an app has to send the first answer, in ms (docs/v10-behaviour.md#interactions). */
export const INITIAL_RESPONSE_DEADLINE_MS = 3_000;
/** How long an interaction token serves follow-ups, in ms (docs/v10-behaviour.md#interactions). */
export const TOKEN_LIFETIME_MS = 15 * 60_000;

export type InteractionState = 'pending' | 'acknowledged' | 'responded' | 'failed';
/**
 * Why an interaction failed. `dependency_unavailable`: slashd could not reach what delivering it
 * needs (Redis, for a gateway app on many nodes); the app is not at fault.
 */
export type FailureReason = 'timeout' | 'delivery_failure' | 'invalid_response' | 'dependency_unavailable';

export interface InteractionResponse {
  type: number;
  data?: Record<string, unknown>;
}

export interface InteractionRecord {
  id: string;
  application_id: string;
  /** 2 command, 3 component (a click), 4 autocomplete, 5 modal submission. */
  type: 2 | 3 | 4 | 5;
  token: string;
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  command_id: string;
  command_name: string;
  command_type: number;
  nonce: string | null;
  state: InteractionState;
  failure_reason: FailureReason | null;
  /** What went wrong, for the app's developer (ECONNREFUSED, the status, invalid JSON, ...). */
  failure_detail?: string | null;
  response: InteractionResponse | null;
  created_at: number;
  original_message_id: string | null;
  /** The option being autocompleted: an autocomplete result is checked against its type. */
  focused_option: OptionDefinition | null;
  activity_instance_id: string | null;
  /**
   * Clicks, and submissions of modals opened from a click: the message holding the component,
   * which answers 6 and 7 update (and which `@original` then names).
   */
  message_id?: string | null;
  /** A click's or a submitted modal's `custom_id`. */
  custom_id?: string | null;
  /** Modal submissions: the interaction the modal answered, as its responses' metadata names it. */
  triggering_metadata?: StoredInteractionMetadata;
  /** An interaction answered with a modal: the submission that used it (a modal is submitted once). */
  modal_submission_id?: string | null;
  /** The payload delivered to the app, kept for the gateway's replay and for debugging. */
  payload: Record<string, unknown>;
}

/** The state as of `now`: a pending interaction past its deadline has failed. */
export function currentState(
  record: Pick<InteractionRecord, 'state' | 'created_at' | 'failure_reason'>,
  now: number,
): { state: InteractionState; reason: FailureReason | null } {
  if (record.state === 'pending' && now >= record.created_at + INITIAL_RESPONSE_DEADLINE_MS) {
    return { state: 'failed', reason: 'timeout' };
  }
  return { state: record.state, reason: record.failure_reason };
}

/** Whether the first answer may be given now; throws the v10 error otherwise. */
export function checkCanAcknowledge(record: InteractionRecord, now: number): void {
  const { state } = currentState(record, now);
  if (state === 'failed') throw apiError('UnknownInteraction');
  if (state !== 'pending') throw apiError('InteractionAlreadyAcknowledged');
}

/** Whether the token still serves the original response and follow-ups. */
export function tokenAlive(record: InteractionRecord, now: number): boolean {
  if (now >= record.created_at + TOKEN_LIFETIME_MS) return false;
  return currentState(record, now).state !== 'failed';
}

/** The state an acknowledgement of this type leads to. */
export function stateAfterCallback(type: number): InteractionState {
  return type === InteractionResponseType.DeferredChannelMessageWithSource ||
    type === InteractionResponseType.DeferredMessageUpdate
    ? 'acknowledged'
    : 'responded';
}

/** Interaction tokens name their application, so every lookup can be keyed by application id. */
export function makeInteractionToken(applicationId: string, interactionId: string, secret: string): string {
  const prefix = Buffer.from(`interaction:${interactionId}:${applicationId}`).toString('base64url');
  return `${prefix}.${secret}`;
}

export function readInteractionToken(token: string): { applicationId: string; interactionId: string } | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const decoded = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
  const match = /^interaction:(\d{1,20}):(\d{1,20})$/.exec(decoded);
  return match ? { interactionId: match[1]!, applicationId: match[2]! } : null;
}
