/** The kit's requests to its own sandbox: JSON over loopback, and a refusal as an error naming the v10 body. */
import { requestJson, type JsonAnswer } from '../cli/client.js';

export type Json = Record<string, any>;

/** A request the sandbox refused: its status and v10 error body. */
export class SandboxRequestError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${what} was refused (${status}): ${JSON.stringify(body)}`);
    this.name = 'SandboxRequestError';
  }
}

export interface Requester {
  (method: string, path: string, options?: { auth?: string; body?: unknown; form?: FormData }): Promise<JsonAnswer>;
}

/** Requests to `url` (paths start with `/`). */
export function requester(url: string): Requester {
  return (method, path, options = {}) => requestJson(`${url}${path}`, { method, ...options });
}

/** The body of an answer with one of the expected statuses, or a SandboxRequestError. */
export function expectStatus(answer: JsonAnswer, what: string, ...statuses: number[]): any {
  if (!statuses.includes(answer.status)) throw new SandboxRequestError(what, answer.status, answer.body);
  return answer.body;
}
