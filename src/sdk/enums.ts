/**
 * The client library's enums (v10 facts §9), as frozen objects of numbers so that the values are
 * the ones the C++ library uses and a TypeScript union checks them.
 */

/** How a PKCE code challenge is derived from its verifier. Only S256 exists (RFC 7636 §4.2). */
export const AuthenticationCodeChallengeMethod = Object.freeze({ S256: 0 } as const);
export type AuthenticationCodeChallengeMethod =
  (typeof AuthenticationCodeChallengeMethod)[keyof typeof AuthenticationCodeChallengeMethod];

/** Where an app is installed: to a guild, or to the user's account (the `integration_type` query). */
export const IntegrationType = Object.freeze({ GuildInstall: 0, UserInstall: 1 } as const);
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

/** What kind of token `getToken` and `refreshToken` hand back. */
export const AuthorizationTokenType = Object.freeze({ User: 0, Bearer: 1 } as const);
export type AuthorizationTokenType = (typeof AuthorizationTokenType)[keyof typeof AuthorizationTokenType];

/** Why a `ClientResult` failed; `None` when it succeeded. */
export const ErrorType = Object.freeze({
  None: 0,
  /** The server could not be reached, or it did not answer in time. */
  NetworkError: 1,
  /** The server answered with an HTTP error status. */
  HTTPError: 2,
  /** The authorization server sent the user back with an OAuth2 `error` (e.g. `access_denied`). */
  AuthorizationFailed: 3,
  /** The arguments were refused before anything was sent (e.g. no scopes). */
  ValidationError: 4,
  /** The answer could not be trusted (a state that does not match) or read. */
  InvalidResponse: 5,
  /** The user closed the sign-in window, or the flow timed out. */
  Aborted: 6,
} as const);
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];
