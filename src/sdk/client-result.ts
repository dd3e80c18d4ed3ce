/** ClientResult: what every callback of the client library gets first, success or why not. */
import { ErrorType } from './enums.js';

interface ResultFields {
  type: ErrorType;
  error: string;
  errorDescription: string;
  status: number;
  state: string | undefined;
}

export class ClientResult {
  readonly #fields: ResultFields;

  private constructor(fields: ResultFields) {
    this.#fields = fields;
  }

  static success(state?: string): ClientResult {
    return new ClientResult({ type: ErrorType.None, error: '', errorDescription: '', status: 0, state });
  }

  /** A failure; `error` is a short code (an OAuth2 error such as `access_denied`, or the library's own). */
  static failure(
    type: Exclude<ErrorType, 0>,
    error: string,
    errorDescription: string,
    extra: { status?: number; state?: string | undefined } = {},
  ): ClientResult {
    return new ClientResult({ type, error, errorDescription, status: extra.status ?? 0, state: extra.state });
  }

  successful(): boolean {
    return this.#fields.type === ErrorType.None;
  }

  type(): ErrorType {
    return this.#fields.type;
  }

  /** The error code: OAuth2's (`access_denied`, `invalid_grant`, ...) or the library's (`state_mismatch`, ...); '' on success. */
  error(): string {
    return this.#fields.error;
  }

  /** Words for a person. */
  errorDescription(): string {
    return this.#fields.errorDescription;
  }

  /** The HTTP status of a failed request; 0 when no HTTP answer is involved. */
  status(): number {
    return this.#fields.status;
  }

  /** For `authorize`: the `state` the answer came back with, once it matched the one sent. */
  state(): string | undefined {
    return this.#fields.state;
  }

  toString(): string {
    return this.successful() ? 'success' : `${this.#fields.error}: ${this.#fields.errorDescription}`;
  }
}

/** The library's own error codes (OAuth2's come from the server as they are). */
export const SdkError = Object.freeze({
  /** An argument of the call was missing or malformed. */
  InvalidArgument: 'invalid_argument',
  /** The authorization answer carried another state than the one sent: possibly forged. */
  StateMismatch: 'state_mismatch',
  /** The authorization answer had neither a code nor an error. */
  InvalidResponse: 'invalid_response',
  /** The user closed the window, or the flow ran out of time. */
  Cancelled: 'cancelled',
  /** The server could not be reached or did not answer in time. */
  Network: 'network_error',
} as const);
