/**
 * The token endpoint from the client: `authorization_code` with the PKCE verifier, and
 * `refresh_token` (v10 facts §9). Form-encoded, as the endpoint requires; public clients name
 * themselves with `client_id` and no secret (auth method `none`).
 */
import { ClientResult, SdkError } from './client-result.js';
import { AuthorizationTokenType, ErrorType } from './enums.js';

/** Longest token answer read (bytes): a token answer is a few hundred bytes; an ID token a few KiB. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** How long a token request may take before it fails as a network error (ms). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** What `getToken` and `refreshToken` hand their callback after the result. */
export interface TokenAnswer {
  accessToken: string;
  refreshToken: string;
  tokenType: AuthorizationTokenType;
  expiresIn: number;
  scopes: string;
  /** The OpenID Connect ID token, when `openid` was granted. */
  idToken: string | undefined;
}

export type TokenOutcome = { ok: true; value: TokenAnswer } | { ok: false; result: ClientResult };

function failure(type: Exclude<ErrorType, 0>, error: string, description: string, status = 0): TokenOutcome {
  return { ok: false, result: ClientResult.failure(type, error, description, { status }) };
}

/** The body as text, refusing one longer than the limit (read as a stream, so a huge answer is not buffered). */
async function boundedText(response: Response): Promise<string | null> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_TOKEN_RESPONSE_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function readTokenAnswer(body: Record<string, unknown>): TokenAnswer | null {
  const { access_token, token_type, expires_in, refresh_token, scope, id_token } = body;
  if (typeof access_token !== 'string' || access_token === '') return null;
  if (typeof token_type !== 'string' || token_type.toLowerCase() !== 'bearer') return null;
  if (typeof expires_in !== 'number' || !Number.isFinite(expires_in)) return null;
  return {
    accessToken: access_token,
    refreshToken: typeof refresh_token === 'string' ? refresh_token : '',
    tokenType: AuthorizationTokenType.Bearer,
    expiresIn: expires_in,
    scopes: typeof scope === 'string' ? scope : '',
    idToken: typeof id_token === 'string' ? id_token : undefined,
  };
}

/** POSTs the form to the token endpoint and reads its answer; never throws. */
export async function requestToken(
  tokenEndpoint: string,
  form: Record<string, string>,
  timeoutMs: number,
): Promise<TokenOutcome> {
  let response: Response;
  try {
    response = await fetch(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
      // The endpoint answers; following a redirect would send the code somewhere else.
      redirect: 'error',
    });
  } catch (error) {
    return failure(
      ErrorType.NetworkError,
      SdkError.Network,
      `The token endpoint could not be reached: ${String(error)}`,
    );
  }
  let text: string | null;
  try {
    text = await boundedText(response);
  } catch (error) {
    return failure(ErrorType.NetworkError, SdkError.Network, `The token answer was cut off: ${String(error)}`);
  }
  if (text === null) {
    return failure(
      ErrorType.InvalidResponse,
      SdkError.InvalidResponse,
      'The token answer is too large',
      response.status,
    );
  }
  const body = parseJsonObject(text);
  if (!response.ok) {
    const error = typeof body?.error === 'string' ? body.error : `http_${response.status}`;
    const description = typeof body?.error_description === 'string' ? body.error_description : text.slice(0, 200);
    return failure(ErrorType.HTTPError, error, description, response.status);
  }
  const answer = body === null ? null : readTokenAnswer(body);
  if (answer === null) {
    return failure(
      ErrorType.InvalidResponse,
      SdkError.InvalidResponse,
      'The token answer is not a Bearer token',
      response.status,
    );
  }
  return { ok: true, value: answer };
}
