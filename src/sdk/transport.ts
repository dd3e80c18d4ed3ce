/**
 * How `authorize` shows the authorization page to the user and gets the answer back. The library
 * decides what to send and checks what comes back; a transport only carries it: a browser popup or
 * redirect (`browser.ts`), a loopback listener in Node (`node.ts`, RFC 8252), or a custom URI scheme
 * that the host application receives (below).
 */
import { customSchemeRedirectUri, type AuthorizationArgs } from './authorization-args.js';

/** What a flow must remember until its answer comes back. */
export interface PendingAuthorization {
  clientId: string;
  state: string;
  redirectUri: string;
}

/** How a flow ended on the user's side: the URL they were sent back to, or why there is none. */
export type AuthorizationAnswer = { kind: 'answer'; url: URL } | { kind: 'aborted'; description: string };

/** One flow of a transport: made by `begin`, ended by `close` whatever happens. */
export interface AuthorizationSession {
  /** The redirect URI to send (it must be one the application registered). */
  readonly redirectUri: string;
  /**
   * Shows the authorization page at `url` and waits for the answer. A transport that navigates
   * the page away (a redirect) never resolves: the answer is read by `resume` on the next page.
   */
  complete(url: string, pending: PendingAuthorization): Promise<AuthorizationAnswer>;
  close(): void;
}

export interface AuthorizationTransport {
  begin(clientId: string, args: AuthorizationArgs): Promise<AuthorizationSession>;
  /** For transports that leave the page: the answer of a flow an earlier page began, when this page is it. */
  resume?(): { url: URL; pending: PendingAuthorization } | null;
}

export interface CustomSchemeOptions {
  /** Shows the authorization page (opens the system browser, a web view...). */
  open(url: string): void | Promise<void>;
}

/** A transport for apps with a registered URI scheme: `deliver` the URL the system hands back. */
export interface CustomSchemeTransport extends AuthorizationTransport {
  /** Hands the transport a `X:/authorize/callback?...` URL; false when no flow waits for one. */
  deliver(callbackUrl: string): boolean;
}

/**
 * The redirect URI is `X:/authorize/callback`, X being CustomSchemeParam or, unset, the scheme
 * derived from the application id.
 */
export function customSchemeTransport(options: CustomSchemeOptions): CustomSchemeTransport {
  let waiting: { redirectUri: string; resolve: (answer: AuthorizationAnswer) => void } | null = null;
  return {
    async begin(clientId, args) {
      const redirectUri = customSchemeRedirectUri(args, clientId);
      return {
        redirectUri,
        complete: async (url) => {
          const answer = new Promise<AuthorizationAnswer>((resolve) => {
            waiting = { redirectUri, resolve };
          });
          await options.open(url);
          return answer;
        },
        close: () => {
          waiting?.resolve({ kind: 'aborted', description: 'The authorization flow was closed' });
          waiting = null;
        },
      };
    },
    deliver(callbackUrl) {
      if (waiting === null || !callbackUrl.startsWith(`${waiting.redirectUri}`)) return false;
      let url: URL;
      try {
        url = new URL(callbackUrl);
      } catch {
        return false;
      }
      const { resolve } = waiting;
      waiting = null;
      resolve({ kind: 'answer', url });
      return true;
    },
  };
}

/** True when `url` is at `redirectUri` (same origin and path; the query is the answer). */
export function isAtRedirectUri(url: URL, redirectUri: string): boolean {
  const expected = new URL(redirectUri);
  return url.origin === expected.origin && url.pathname === expected.pathname;
}
