/**
 * Waiting for what an interaction came to, as the user's client sees it: its state is read until
 * the app has answered (`responded`: a message, an update, a modal, or a deferred answer since
 * edited) or it has failed, within a bound; then the messages it produced are read from the channel.
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import { setTimeout as pause } from 'node:timers/promises';
import { expectStatus, type Json, type Requester } from './http.js';

/** Between two reads of the state, in ms: the sandbox is in this process, on loopback. */
export const OUTCOME_POLL_MS = 2;
/** The longest wait for an outcome by default, in ms: beyond v10's 3 s answer deadline. */
export const DEFAULT_OUTCOME_WAIT_MS = 5_000;
/** The channel messages read to find an interaction's. */
const MESSAGES_READ = 100;

/** A message as the v10 API returns it (the fields the kit reads, and the rest). */
export interface WireMessage {
  id: string;
  channel_id: string;
  content: string;
  components?: Json[];
  [field: string]: any;
}

/** What one interaction came to. */
export interface InteractionOutcome {
  /** The interaction's id. */
  id: string;
  /** Where it happened, and the app it went to. */
  channel_id: string;
  guild_id: string | null;
  application_id: string | null;
  /** `responded` or `failed` once decided; `pending` or `acknowledged` if the wait ran out first. */
  state: 'pending' | 'acknowledged' | 'responded' | 'failed';
  /** The app's callback (`{type, data}`), null before it answered. */
  response: Json | null;
  /** Why it failed (`timeout`, `delivery_failure`, `invalid_response`), else null. */
  failureReason: string | null;
  /** The messages this interaction produced in the channel, as the user sees them, oldest first. */
  messages: WireMessage[];
  /** The answer: its first message, or for an update of the clicked message that message as it is now; null if none. */
  message: WireMessage | null;
  /** The modal the app opened (`response.data` of a type 9 answer), else null. */
  modal: Json | null;
}

export interface OutcomeQuery {
  request: Requester;
  userToken: string;
  channelId: string;
  guildId: string | null;
  applicationId: string | null;
  interactionId: string;
  /** For a click: the message clicked, which an update (6, 7) changes. */
  clickedMessageId?: string | undefined;
  waitMs: number;
}

/** Callbacks that change the clicked message rather than posting one. */
const UPDATE_CALLBACKS: ReadonlySet<number> = new Set([
  InteractionResponseType.DeferredMessageUpdate,
  InteractionResponseType.UpdateMessage,
]);

export async function awaitInteraction(query: OutcomeQuery): Promise<InteractionOutcome> {
  const deadline = performance.now() + query.waitMs;
  let status: Json;
  for (;;) {
    status = expectStatus(
      await query.request('GET', `/api/v10/interactions/${query.interactionId}`, { auth: query.userToken }),
      'reading the interaction',
      200,
    );
    if (status.state === 'responded' || status.state === 'failed' || performance.now() >= deadline) break;
    await pause(OUTCOME_POLL_MS);
  }
  const listed = expectStatus(
    await query.request('GET', `/api/v10/channels/${query.channelId}/messages?limit=${MESSAGES_READ}`, {
      auth: query.userToken,
    }),
    'reading the channel',
    200,
  ) as WireMessage[];
  const messages = listed.filter((m) => m.interaction_metadata?.id === query.interactionId).reverse();
  const response = (status.response as Json | null) ?? null;
  const updated =
    query.clickedMessageId !== undefined && response && UPDATE_CALLBACKS.has(Number(response.type))
      ? (listed.find((m) => m.id === query.clickedMessageId) ?? null)
      : null;
  return {
    id: query.interactionId,
    channel_id: query.channelId,
    guild_id: query.guildId,
    application_id: query.applicationId ?? (status.application_id as string | undefined) ?? null,
    state: status.state,
    response,
    failureReason: (status.failure_reason as string | null) ?? null,
    messages,
    message: updated ?? messages[0] ?? null,
    modal:
      response && Number(response.type) === InteractionResponseType.Modal ? ((response.data as Json) ?? null) : null,
  };
}
