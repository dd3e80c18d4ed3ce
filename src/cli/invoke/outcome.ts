/**
 * Waiting for the app's answer as the client does: the interaction's state is polled until it is
 * answered or failed. A deferred answer ("thinking…") is awaited in the channel, where the app's
 * edit of `@original` replaces the loading message; follow-ups already sent come with it. The wait
 * is bounded.
 */
import { requestJson } from '../client.js';
import { requestWithinLimits, type WaitBudget } from './rate-limited.js';
import { hasFlag, LOADING_FLAG } from '../../resources/messages/rules/messages.js';

type Json = Record<string, any>;

/** Pause between two polls, in ms: short against the 3 s answer deadline, light on the server. */
export const POLL_INTERVAL_MS = 50;
/** Messages read per poll when looking for a deferred answer. */
export const MESSAGES_READ = 50;

/** Deferred callbacks (5, and 6 for components): the answer comes later as an edit of `@original`. */
const DEFERRED_CALLBACKS = new Set([5, 6]);

export type Outcome =
  | { kind: 'response'; response: Json }
  /** A deferred answer: the edited `@original`, then the follow-ups read with it, oldest first. */
  | { kind: 'message'; message: Json; followUps: Json[] }
  | { kind: 'failed'; reason: string };

export interface OutcomeQuery {
  url: string;
  userToken: string;
  channelId: string;
  interactionId: string;
  waitMs: number;
  /** 429s on the reads are waited out within it. */
  budget?: WaitBudget;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An interaction's messages among a channel's (newest first, as v10 lists them): its `@original`
 * and its follow-ups, oldest first. A follow-up names the message it follows
 * (`interaction_metadata.original_response_message_id`), `@original` names none: the newest
 * message may well be a follow-up sent after the edit.
 */
export function interactionMessages(
  messages: readonly Json[],
  interactionId: string,
): { original: Json | null; followUps: Json[] } {
  const own = messages.filter((m) => m.interaction_metadata?.id === interactionId);
  const isFollowUp = (m: Json) => typeof m.interaction_metadata.original_response_message_id === 'string';
  return { original: own.find((m) => !isFollowUp(m)) ?? null, followUps: own.filter(isFollowUp).reverse() };
}

/** The deferred answer once the app has replaced the loading message; null while it has not. */
async function deferredAnswer(query: OutcomeQuery): Promise<{ message: Json; followUps: Json[] } | null> {
  const answer = await requestJson(`${query.url}/api/v10/channels/${query.channelId}/messages?limit=${MESSAGES_READ}`, {
    auth: query.userToken,
  });
  if (answer.status !== 200 || !Array.isArray(answer.body)) return null;
  const { original, followUps } = interactionMessages(answer.body as Json[], query.interactionId);
  return original && !hasFlag(Number(original.flags ?? 0), LOADING_FLAG) ? { message: original, followUps } : null;
}

/** One look at the interaction: the outcome, or null while it is still pending. */
async function look(query: OutcomeQuery): Promise<Outcome | null> {
  const status = await requestWithinLimits(
    `${query.url}/api/v10/interactions/${query.interactionId}`,
    { auth: query.userToken },
    query.budget ?? { until: 0 },
  );
  if (status.status !== 200) return { kind: 'failed', reason: `the interaction could not be read (${status.status})` };
  const state = status.body.state as string;
  if (state === 'failed') {
    const detail = typeof status.body.failure_detail === 'string' ? status.body.failure_detail : undefined;
    return { kind: 'failed', reason: explainFailure(String(status.body.failure_reason), detail) };
  }
  const response = status.body.response as Json | null;
  // A deferred answer that the app has since edited is `responded` too; its text is in the channel.
  if (state === 'responded' && response && !DEFERRED_CALLBACKS.has(response.type))
    return { kind: 'response', response };
  if (state === 'acknowledged' || state === 'responded') {
    const answer = await deferredAnswer(query);
    return answer ? { kind: 'message', ...answer } : null;
  }
  return null;
}

/**
 * A failure in words: the stable code, then the cause slashd recorded (`failure_detail`, which
 * says what to do next), or, for an interaction without one, what the code means.
 */
export function explainFailure(reason: string, detail?: string): string {
  if (detail) return `${reason}: ${detail}`;
  switch (reason) {
    case 'timeout':
      return 'timeout: the app did not answer within 3 seconds ("The application did not respond")';
    case 'delivery_failure':
      return 'delivery_failure: the interaction could not be delivered to the app';
    case 'invalid_response':
      return "invalid_response: the app's answer was not a valid interaction response";
    case 'dependency_unavailable':
      return 'dependency_unavailable: slashd could not reach what delivering it needs (Redis); not the app';
    default:
      return reason;
  }
}

export async function awaitOutcome(query: OutcomeQuery): Promise<Outcome> {
  const deadline = Date.now() + query.waitMs;
  for (;;) {
    const outcome = await look(query);
    if (outcome) return outcome;
    if (Date.now() >= deadline) return { kind: 'failed', reason: `no answer within ${query.waitMs / 1000} s (--wait)` };
    await pause(POLL_INTERVAL_MS);
  }
}
