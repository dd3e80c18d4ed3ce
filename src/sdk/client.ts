/**
 * Client: the client library's entry point (spec, "Client library authorization arguments";
 * v10 facts §9). Callbacks as the C++ library has them: every call answers once, asynchronously,
 * with a ClientResult first.
 */
import type { AuthorizationArgs } from './authorization-args.js';
import { buildAuthorizeUrl, checkAuthorizationArgs, readAuthorizeCallback } from './authorize-request.js';
import { browserPopup, browserWindow } from './browser.js';
import { ClientResult, SdkError } from './client-result.js';
import {
  createCodeVerifier,
  secureRandomString,
  STATE_RANDOM_BYTES,
  type AuthorizationCodeVerifier,
} from './code-challenge.js';
import { AuthorizationTokenType, ErrorType } from './enums.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestToken, type TokenOutcome } from './token-request.js';
import type { AuthorizationTransport, PendingAuthorization } from './transport.js';

/** `authorize`'s callback: on success the code and the redirect URI to hand `getToken`. */
export type AuthorizeCallback = (result: ClientResult, code: string, redirectUri: string) => void;

/** `getToken`'s and `refreshToken`'s callback. `scopes` is space-separated, as granted. */
export type TokenCallback = (
  result: ClientResult,
  accessToken: string,
  refreshToken: string,
  tokenType: AuthorizationTokenType,
  expiresIn: number,
  scopes: string,
) => void;

export interface ClientOptions {
  /** The slashd server (scheme, host, port); its authorization page is `/oauth2/authorize` there. */
  baseUrl: string;
  /** The API, by default `${baseUrl}/api/v10`; the token endpoint is `/oauth2/token` under it. */
  apiBaseUrl?: string;
  /** How the user is shown the authorization page. Default in a browser: `browserPopup()`; in Node, pass `nodeLoopback()` from `slashd/sdk/node`. */
  transport?: AuthorizationTransport;
  /** How long a token request may take (ms). */
  requestTimeoutMs?: number;
}

const COMMUNICATION_SCOPES = 'openid sdk.social_layer';
const PRESENCE_SCOPES = 'openid sdk.social_layer_presence';

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export class Client {
  /** The scopes of the communication features: "openid sdk.social_layer". */
  static getDefaultCommunicationScopes(): string {
    return COMMUNICATION_SCOPES;
  }

  /** The scopes of presence alone: "openid sdk.social_layer_presence". */
  static getDefaultPresenceScopes(): string {
    return PRESENCE_SCOPES;
  }

  readonly #authorizeEndpoint: string;
  readonly #tokenEndpoint: string;
  readonly #transport: AuthorizationTransport | undefined;
  readonly #requestTimeoutMs: number;
  #applicationId: string | undefined;

  constructor(options: ClientOptions) {
    const base = withoutTrailingSlash(new URL(options.baseUrl).toString());
    const api = withoutTrailingSlash(options.apiBaseUrl ?? `${base}/api/v10`);
    this.#authorizeEndpoint = `${base}/oauth2/authorize`;
    this.#tokenEndpoint = `${api}/oauth2/token`;
    this.#transport = options.transport ?? (browserWindow() ? browserPopup() : undefined);
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  getDefaultCommunicationScopes(): string {
    return COMMUNICATION_SCOPES;
  }

  getDefaultPresenceScopes(): string {
    return PRESENCE_SCOPES;
  }

  /** The application id `authorize` uses when the arguments name none. */
  setApplicationId(applicationId: string | bigint): void {
    this.#applicationId = String(applicationId);
  }

  getApplicationId(): string | undefined {
    return this.#applicationId;
  }

  /** A fresh PKCE verifier and its S256 challenge (async: Web Crypto's digest is). */
  createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
    return createCodeVerifier();
  }

  /**
   * Shows the user the authorization page and calls back once with the code, or why not. The
   * arguments are copied: changing them afterwards changes nothing. Without a state one is made
   * (128 random bits); the answer must carry it back or it is refused (`state_mismatch`).
   */
  authorize(args: AuthorizationArgs, callback: AuthorizeCallback): void {
    void this.#authorize(args).then(({ result, code, redirectUri }) => callback(result, code, redirectUri));
  }

  /**
   * On the page a redirect flow (`browserRedirect`) comes back to: reads, checks and clears the
   * answer and calls back as `authorize` would. False when this page is no such answer.
   */
  handleAuthorizeRedirect(callback: AuthorizeCallback): boolean {
    const resumed = this.#transport?.resume?.();
    if (!resumed) return false;
    const outcome = this.#readAnswer(resumed.url, resumed.pending);
    queueMicrotask(() => callback(outcome.result, outcome.code, outcome.redirectUri));
    return true;
  }

  /** Exchanges an authorization code and its PKCE verifier for a token (public clients: no secret). */
  getToken(
    applicationId: string | bigint,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    callback: TokenCallback,
  ): void {
    const form = {
      grant_type: 'authorization_code',
      client_id: String(applicationId),
      code,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
    };
    void requestToken(this.#tokenEndpoint, form, this.#requestTimeoutMs).then((outcome) =>
      answerToken(outcome, callback),
    );
  }

  /** A new token for a refresh token; the old refresh token is spent. */
  refreshToken(applicationId: string | bigint, refreshToken: string, callback: TokenCallback): void {
    const form = { grant_type: 'refresh_token', client_id: String(applicationId), refresh_token: refreshToken };
    void requestToken(this.#tokenEndpoint, form, this.#requestTimeoutMs).then((outcome) =>
      answerToken(outcome, callback),
    );
  }

  async #authorize(args: AuthorizationArgs): Promise<{ result: ClientResult; code: string; redirectUri: string }> {
    const checked = checkAuthorizationArgs(args, this.#applicationId);
    if (!checked.ok) return { result: checked.result, code: '', redirectUri: '' };
    const transport = this.#transport;
    if (!transport) {
      const description =
        'No way to show the authorization page here: pass nodeLoopback() from slashd/sdk/node as transport';
      return {
        result: ClientResult.failure(ErrorType.ValidationError, SdkError.InvalidArgument, description),
        code: '',
        redirectUri: '',
      };
    }
    const copy = args.clone();
    const state = copy.state() ?? secureRandomString(STATE_RANDOM_BYTES);
    let session;
    try {
      session = await transport.begin(checked.value.clientId, copy);
    } catch (error) {
      const description = `The authorization flow could not start: ${String(error)}`;
      return {
        result: ClientResult.failure(ErrorType.Aborted, SdkError.Cancelled, description),
        code: '',
        redirectUri: '',
      };
    }
    try {
      const url = buildAuthorizeUrl(this.#authorizeEndpoint, copy, checked.value, state, session.redirectUri);
      const pending: PendingAuthorization = {
        clientId: checked.value.clientId,
        state,
        redirectUri: session.redirectUri,
      };
      const answer = await session.complete(url, pending);
      if (answer.kind === 'aborted') {
        const result = ClientResult.failure(ErrorType.Aborted, SdkError.Cancelled, answer.description);
        return { result, code: '', redirectUri: session.redirectUri };
      }
      return this.#readAnswer(answer.url, pending);
    } finally {
      session.close();
    }
  }

  #readAnswer(url: URL, pending: PendingAuthorization): { result: ClientResult; code: string; redirectUri: string } {
    const reading = readAuthorizeCallback(url, pending.state);
    if (!reading.ok) return { result: reading.result, code: '', redirectUri: pending.redirectUri };
    return { result: ClientResult.success(reading.state), code: reading.code, redirectUri: pending.redirectUri };
  }
}

function answerToken(outcome: TokenOutcome, callback: TokenCallback): void {
  if (!outcome.ok) return callback(outcome.result, '', '', AuthorizationTokenType.Bearer, 0, '');
  const token = outcome.value;
  callback(
    ClientResult.success(),
    token.accessToken,
    token.refreshToken,
    token.tokenType,
    token.expiresIn,
    token.scopes,
  );
}
