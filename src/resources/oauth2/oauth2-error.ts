/**
 * A refusal in OAuth2's own terms, not v10's: the token endpoint's (RFC 6749 §5.2) and a protected
 * resource's (RFC 6750 §3.1). The services throw it; the token routes turn it into the wire in
 * one place (`sendOAuth2Error`, src/http/routes/oauth2.ts).
 */

/** The `error` codes slashd answers with. */
export type OAuth2ErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unsupported_grant_type'
  | 'insufficient_scope';

export class OAuth2Error extends Error {
  constructor(
    readonly status: number,
    readonly error: OAuth2ErrorCode,
    readonly description: string,
    /** A protected resource's refusal names the scope the token lacks (RFC 6750 §3). */
    readonly requiredScope?: string,
  ) {
    super(description);
    this.name = 'OAuth2Error';
  }
}

export const invalidRequest = (description: string) => new OAuth2Error(400, 'invalid_request', description);
export const invalidGrant = (description: string) => new OAuth2Error(400, 'invalid_grant', description);
export const invalidScope = (description: string) => new OAuth2Error(400, 'invalid_scope', description);
/** One answer for every failed client authentication: it never says which part was wrong. */
export const invalidClient = () => new OAuth2Error(401, 'invalid_client', 'Client authentication failed');
export const unsupportedGrantType = (grantType: string | undefined) =>
  new OAuth2Error(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType ?? ''}`);
export const insufficientScope = (scope: string, description: string) =>
  new OAuth2Error(403, 'insufficient_scope', description, scope);
