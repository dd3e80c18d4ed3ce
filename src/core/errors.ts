/**
 * Errors as data. The core reports problems as `Issue`s (a path and a string code); the HTTP edge
 * turns them into the v10 wire format (`{code, message, errors}`) with `formErrorTree`.
 */

import { nullRecord } from './records.js';

export type IssuePath = readonly (string | number)[];

/** One violation found in a request body: where it is and what rule it breaks. */
export interface Issue {
  readonly path: IssuePath;
  /** String code in the v10 style, e.g. BASE_TYPE_REQUIRED. */
  readonly code: string;
  readonly message: string;
}

export function issue(path: IssuePath, code: string, message: string): Issue {
  return { path, code, message };
}

/** A failure that maps to one v10 error response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
    /** Extra top-level fields of the body (e.g. `retry_after`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message, code: this.code };
    if (this.errors) body.errors = this.errors;
    if (this.extra) Object.assign(body, this.extra);
    return body;
  }
}

/**
 * Builds the nested 50035 error tree: every path segment becomes a key (array indices as strings)
 * and every leaf holds `_errors`. An empty path puts `_errors` directly at the root.
 */
export function formErrorTree(issues: readonly Issue[]): Record<string, unknown> {
  // Segments are client-chosen keys: every node has no prototype, so "__proto__" is just a key.
  const root = nullRecord();
  for (const { path, code, message } of issues) {
    let node = root;
    for (const segment of path) {
      const key = String(segment);
      const child = node[key];
      if (child && typeof child === 'object') {
        node = child as Record<string, unknown>;
      } else {
        const created = nullRecord();
        node[key] = created;
        node = created;
      }
    }
    // A client's key "_errors" may already sit here as a subtree: the leaf list wins, never a crash.
    const list = Array.isArray(node._errors) ? (node._errors as { code: string; message: string }[]) : [];
    list.push({ code, message });
    node._errors = list;
  }
  return root;
}

export function invalidFormBody(issues: readonly Issue[]): ApiError {
  return new ApiError(400, JsonCode.InvalidFormBody, 'Invalid Form Body', formErrorTree(issues));
}

/** The numeric JSON error codes slashd uses (docs/v10-behaviour.md#errors). */
export const JsonCode = {
  General: 0,
  UnknownApplication: 10002,
  UnknownChannel: 10003,
  UnknownGuild: 10004,
  UnknownMember: 10007,
  UnknownMessage: 10008,
  UnknownRole: 10011,
  UnknownUser: 10013,
  UnknownWebhook: 10015,
  UnknownInteraction: 10062,
  UnknownApplicationCommand: 10063,
  UnknownApplicationCommandPermissions: 10066,
  BotsCannotUseEndpoint: 20001,
  NotAuthorizedForApplication: 20012,
  MaxApplicationCommands: 30032,
  MaxDailyApplicationCommandCreates: 30034,
  ApplicationCommandNameExists: 40041,
  InteractionAlreadyAcknowledged: 40060,
  MaxFollowUpMessages: 40094,
  MissingAccess: 50001,
  CannotEditOtherUsersMessage: 50005,
  CannotSendEmptyMessage: 50006,
  CannotSendInNonTextChannel: 50008,
  MissingPermissions: 50013,
  InvalidAuthenticationToken: 50014,
  InvalidOAuth2AccessToken: 50025,
  MissingOAuth2Scope: 50026,
  InvalidWebhookToken: 50027,
  InvalidFormBody: 50035,
  InvalidApiVersion: 50041,
  InvalidJson: 50109,
  CannotRemoveEntryPoint: 50240,
} as const;

export const unauthorized = () => new ApiError(401, 0, '401: Unauthorized');
export const notFound = () => new ApiError(404, 0, '404: Not Found');
export const methodNotAllowed = () => new ApiError(405, 0, '405: Method Not Allowed');
export const missingAccess = () => new ApiError(403, JsonCode.MissingAccess, 'Missing Access');
export const unknownCommand = () =>
  new ApiError(404, JsonCode.UnknownApplicationCommand, 'Unknown application command');
