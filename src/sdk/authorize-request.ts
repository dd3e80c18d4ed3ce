/**
 * The pure part of `Client.authorize`: checking the arguments, building the authorize URL and
 * reading the redirect that comes back (RFC 6749 §4.1, RFC 7636, OpenID Connect's nonce).
 */
import { AuthorizationArgs, isUriScheme } from './authorization-args.js';
import { ClientResult, SdkError } from './client-result.js';
import { constantTimeEqual } from './code-challenge.js';
import type { AuthenticationCodeChallengeMethod } from './enums.js';
import { ErrorType } from './enums.js';

/** A snowflake: the decimal form of a 64-bit unsigned integer. */
const SNOWFLAKE = /^(0|[1-9][0-9]{0,19})$/;

/** The arguments `authorize` sends, once checked. */
export interface CheckedAuthorization {
  clientId: string;
  scopes: string;
}

export type ArgsCheck = { ok: true; value: CheckedAuthorization } | { ok: false; result: ClientResult };

function refuse(description: string): ArgsCheck {
  return { ok: false, result: ClientResult.failure(ErrorType.ValidationError, SdkError.InvalidArgument, description) };
}

/** Every reason to refuse `authorize` before anything is shown to the user. */
export function checkAuthorizationArgs(args: AuthorizationArgs, applicationId: string | undefined): ArgsCheck {
  if (!(args instanceof AuthorizationArgs) || !args.isValid()) {
    return refuse('AuthorizationArgs is not valid (nullobj): pass new AuthorizationArgs()');
  }
  const clientId = args.clientId() ?? applicationId;
  if (clientId === undefined) return refuse('No client id: call setApplicationId() or AuthorizationArgs.setClientId()');
  if (!SNOWFLAKE.test(clientId) || BigInt(clientId) > 0xffff_ffff_ffff_ffffn) {
    return refuse(`ClientId is not a 64-bit application id: ${clientId}`);
  }
  const scopes = args.scopes().trim().split(/\s+/).filter(Boolean).join(' ');
  if (scopes === '') {
    return refuse('Scopes is required: call setScopes(), e.g. with Client.getDefaultCommunicationScopes()');
  }
  const scheme = args.customSchemeParam();
  if (scheme !== undefined && !isUriScheme(scheme)) return refuse(`CustomSchemeParam is not a URI scheme: ${scheme}`);
  const challenge = args.codeChallenge();
  if (challenge !== undefined && challenge.challenge() === '') {
    return refuse('CodeChallenge is empty: pass createAuthorizationCodeVerifier().challenge()');
  }
  return { ok: true, value: { clientId, scopes } };
}

const CHALLENGE_METHOD_NAMES: Readonly<Record<AuthenticationCodeChallengeMethod, string>> = { 0: 'S256' };

/** The URL of the authorization page for these arguments. */
export function buildAuthorizeUrl(
  authorizeEndpoint: string,
  args: AuthorizationArgs,
  checked: CheckedAuthorization,
  state: string,
  redirectUri: string,
): string {
  const url = new URL(authorizeEndpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', checked.clientId);
  query.set('redirect_uri', redirectUri);
  query.set('scope', checked.scopes);
  query.set('state', state);
  const nonce = args.nonce();
  if (nonce !== undefined) query.set('nonce', nonce);
  const challenge = args.codeChallenge();
  if (challenge !== undefined) {
    query.set('code_challenge', challenge.challenge());
    query.set('code_challenge_method', CHALLENGE_METHOD_NAMES[challenge.method()]);
  }
  const integrationType = args.integrationType();
  if (integrationType !== undefined) query.set('integration_type', String(integrationType));
  return url.toString();
}

/** What the redirect back says: a code, or why not. */
export type CallbackReading = { ok: true; code: string; state: string } | { ok: false; result: ClientResult };

/**
 * Reads the URL the user was sent back to. The state is checked first: an answer that does not
 * carry the state this flow sent is refused whatever else it says, since it may be forged
 * (RFC 6749 §10.12), and its code is never handed out.
 */
export function readAuthorizeCallback(callbackUrl: URL, expectedState: string): CallbackReading {
  const query = callbackUrl.searchParams;
  const state = query.get('state');
  if (state === null || !constantTimeEqual(state, expectedState)) {
    return {
      ok: false,
      result: ClientResult.failure(
        ErrorType.InvalidResponse,
        SdkError.StateMismatch,
        'The authorization answer does not carry the state this flow sent; it was refused',
      ),
    };
  }
  const error = query.get('error');
  if (error !== null) {
    const description = query.get('error_description') ?? error;
    return { ok: false, result: ClientResult.failure(ErrorType.AuthorizationFailed, error, description, { state }) };
  }
  const code = query.get('code');
  if (code === null || code === '') {
    return {
      ok: false,
      result: ClientResult.failure(ErrorType.InvalidResponse, SdkError.InvalidResponse, 'The answer has no code', {
        state,
      }),
    };
  }
  return { ok: true, code, state };
}
