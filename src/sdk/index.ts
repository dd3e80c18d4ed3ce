/**
 * slashd/sdk: the client library for browsers and Node (docs/sdk.md). Nothing here imports a Node
 * module; the Node loopback transport is `slashd/sdk/node`.
 */
export {
  AuthorizationArgs,
  customSchemeRedirectUri,
  defaultCustomScheme,
  CUSTOM_SCHEME_CALLBACK_PATH,
} from './authorization-args.js';
export { AuthorizationCodeChallenge, AuthorizationCodeVerifier } from './code-challenge.js';
export { Client, type AuthorizeCallback, type ClientOptions, type TokenCallback } from './client.js';
export { ClientResult, SdkError } from './client-result.js';
export { AuthenticationCodeChallengeMethod, AuthorizationTokenType, ErrorType, IntegrationType } from './enums.js';
export { browserPopup, browserRedirect, type BrowserTransportOptions, type PopupOptions } from './browser.js';
export {
  customSchemeTransport,
  type AuthorizationAnswer,
  type AuthorizationSession,
  type AuthorizationTransport,
  type CustomSchemeOptions,
  type CustomSchemeTransport,
  type PendingAuthorization,
} from './transport.js';
