/**
 * AuthorizationArgs: the arguments of `Client.authorize`, exactly the spec's table (docs/sdk.md maps
 * each C++ name to the name here). Each property has a getter and a `set…` setter; unset optional
 * properties read as `undefined`.
 */
import type { AuthorizationCodeChallenge } from './code-challenge.js';
import type { IntegrationType } from './enums.js';

/** The path every custom-scheme redirect URI ends with: `X:/authorize/callback`. */
export const CUSTOM_SCHEME_CALLBACK_PATH = '/authorize/callback';

/** A URI scheme as RFC 3986 §3.1 spells it. */
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

interface Fields {
  clientId: string | undefined;
  scopes: string;
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: AuthorizationCodeChallenge | undefined;
  integrationType: IntegrationType | undefined;
  customSchemeParam: string | undefined;
}

function emptyFields(): Fields {
  return {
    clientId: undefined,
    scopes: '',
    state: undefined,
    nonce: undefined,
    codeChallenge: undefined,
    integrationType: undefined,
    customSchemeParam: undefined,
  };
}

/** Set only while `nullobj` is built, so that the public constructor takes no arguments. */
let buildingNullobj = false;

export class AuthorizationArgs {
  /**
   * The uninitialized instance: `isValid()` is false, every getter reads the default, and every
   * setter throws (the C++ object has no storage to write to).
   */
  static readonly nullobj: AuthorizationArgs = (() => {
    buildingNullobj = true;
    try {
      const nullobj = new AuthorizationArgs();
      Object.freeze(nullobj);
      return nullobj;
    } finally {
      buildingNullobj = false;
    }
  })();

  /** null only in `nullobj`. */
  #fields: Fields | null;

  constructor() {
    this.#fields = buildingNullobj ? null : emptyFields();
  }

  /** What the C++ object's conversion to bool says: true unless this is `nullobj` (JavaScript has no such conversion). */
  isValid(): boolean {
    return this.#fields !== null;
  }

  /** A copy that changes independently of this one (the C++ copy constructor). */
  clone(): AuthorizationArgs {
    if (this.#fields === null) return AuthorizationArgs.nullobj;
    const copy = new AuthorizationArgs();
    copy.#fields = { ...this.#fields, codeChallenge: this.#fields.codeChallenge?.clone() };
    return copy;
  }

  /** The application (client) id; unset, `Client.authorize` uses the id given to `setApplicationId`. */
  clientId(): string | undefined {
    return this.#fields?.clientId;
  }

  /** A snowflake, as a decimal string or a bigint (the C++ type is a 64-bit unsigned integer). */
  setClientId(clientId: string | bigint | undefined): void {
    this.#writable().clientId = clientId === undefined ? undefined : String(clientId);
  }

  /** Space-separated OAuth2 scopes; required: `authorize` fails while it is empty. */
  scopes(): string {
    return this.#fields?.scopes ?? '';
  }

  setScopes(scopes: string): void {
    this.#writable().scopes = scopes;
  }

  /** The OAuth2 `state`; unset, `authorize` generates a secure random one and checks it on the way back. */
  state(): string | undefined {
    return this.#fields?.state;
  }

  setState(state: string | undefined): void {
    this.#writable().state = state;
  }

  /** The OpenID Connect `nonce`, echoed in the ID token. */
  nonce(): string | undefined {
    return this.#fields?.nonce;
  }

  setNonce(nonce: string | undefined): void {
    this.#writable().nonce = nonce;
  }

  /** The PKCE challenge (from `Client.createAuthorizationCodeVerifier()`); a copy. */
  codeChallenge(): AuthorizationCodeChallenge | undefined {
    return this.#fields?.codeChallenge?.clone();
  }

  setCodeChallenge(codeChallenge: AuthorizationCodeChallenge | undefined): void {
    this.#writable().codeChallenge = codeChallenge?.clone();
  }

  /** Where the app is installed when the scopes install it (`integration_type`). */
  integrationType(): IntegrationType | undefined {
    return this.#fields?.integrationType;
  }

  setIntegrationType(integrationType: IntegrationType | undefined): void {
    this.#writable().integrationType = integrationType;
  }

  /** A custom URI scheme X for the redirect `X:/authorize/callback`. */
  customSchemeParam(): string | undefined {
    return this.#fields?.customSchemeParam;
  }

  setCustomSchemeParam(customSchemeParam: string | undefined): void {
    this.#writable().customSchemeParam = customSchemeParam;
  }

  #writable(): Fields {
    if (this.#fields === null)
      throw new TypeError('AuthorizationArgs.nullobj cannot be changed: use new AuthorizationArgs()');
    return this.#fields;
  }
}

/** The scheme derived from an application id when CustomSchemeParam is unset (v10 facts §9). */
export function defaultCustomScheme(applicationId: string): string {
  return `discord-${applicationId}`;
}

/** The custom-scheme redirect URI of these arguments: `X:/authorize/callback`. */
export function customSchemeRedirectUri(args: AuthorizationArgs, applicationId: string): string {
  return `${args.customSchemeParam() ?? defaultCustomScheme(applicationId)}:${CUSTOM_SCHEME_CALLBACK_PATH}`;
}

/** True when `scheme` is a URI scheme (RFC 3986 §3.1). */
export function isUriScheme(scheme: string): boolean {
  return URI_SCHEME.test(scheme);
}
