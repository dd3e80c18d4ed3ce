/**
 * Requests as a v10 client makes them: a 429 is waited out for its `retry_after` (seconds, in the
 * body, or the Retry-After header's) and the request is sent again, as discord.js and discord.py
 * do, within the time `invoke` was given (`--wait`). Past that, the 429 is the answer.
 */
import { requestJson, type JsonAnswer } from '../client.js';

/** Retries of one request after 429s, at most: a bound on a server that keeps refusing. */
export const MOST_RATE_LIMIT_RETRIES = 5;

export interface WaitBudget {
  /** Epoch ms after which a 429 is no longer waited out. */
  until: number;
  /** Told of each wait, so the user knows why nothing happens for a while. */
  onWait?: (seconds: number, what: string) => void;
}

/** The seconds a 429 asks to wait; null when it names none. */
export function retryAfterSeconds(answer: JsonAnswer): number | null {
  const value: unknown = typeof answer.body === 'object' && answer.body !== null ? answer.body.retry_after : undefined;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

export async function requestWithinLimits(
  url: string,
  init: { method?: string; auth?: string; body?: unknown; form?: FormData },
  budget: WaitBudget,
): Promise<JsonAnswer> {
  for (let retry = 0; ; retry++) {
    const answer = await requestJson(url, init);
    if (answer.status !== 429 || retry >= MOST_RATE_LIMIT_RETRIES) return answer;
    const seconds = retryAfterSeconds(answer);
    if (seconds === null || Date.now() + seconds * 1000 > budget.until) return answer;
    budget.onWait?.(seconds, `${init.method ?? 'GET'} ${new URL(url).pathname}`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}
