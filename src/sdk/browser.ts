/**
 * Browser transports of `authorize`: a popup (the default in a browser; the page keeps its state
 * and the callback is called) or a full-page redirect (the answer is read on the page the user
 * comes back to, by `Client.handleAuthorizeRedirect`). Only browser globals: no Node import.
 */
import {
  isAtRedirectUri,
  type AuthorizationAnswer,
  type AuthorizationTransport,
  type PendingAuthorization,
} from './transport.js';

/** How often a popup is looked at for its return to the redirect URI (ms). */
export const POPUP_POLL_INTERVAL_MS = 200;

/** How long a popup flow may stay open before it fails as aborted (ms): ten minutes to sign in. */
export const DEFAULT_POPUP_TIMEOUT_MS = 10 * 60_000;

/** The sessionStorage key under which a redirect flow remembers its state across the navigation. */
export const PENDING_STORAGE_KEY = 'slashd.sdk.pendingAuthorization';

/** The few browser globals the transports use, typed here so the library needs no DOM typings. */
interface PopupWindow {
  readonly closed: boolean;
  readonly location: { readonly href: string };
  close(): void;
}

interface BrowserWindow {
  readonly location: {
    readonly href: string;
    readonly origin: string;
    readonly pathname: string;
    assign(url: string): void;
  };
  readonly sessionStorage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
  readonly history: { replaceState(data: unknown, unused: string, url: string): void };
  open(url: string, target: string, features: string): PopupWindow | null;
}

/** The page's window, or null outside a browser. */
export function browserWindow(): BrowserWindow | null {
  const candidate = (globalThis as { window?: unknown }).window;
  return typeof candidate === 'object' && candidate !== null && 'location' in candidate
    ? (candidate as BrowserWindow)
    : null;
}

function requireWindow(): BrowserWindow {
  const window = browserWindow();
  if (!window)
    throw new Error('The browser transports need a browser window; in Node use nodeLoopback() from slashd/sdk/node');
  return window;
}

/** The page itself, without query or fragment: the default redirect URI in a browser. */
function currentPage(window: BrowserWindow): string {
  return `${window.location.origin}${window.location.pathname}`;
}

export interface BrowserTransportOptions {
  /** Where the server sends the user back; it must be registered. Default: the current page (origin and path). */
  redirectUri?: string;
}

export interface PopupOptions extends BrowserTransportOptions {
  /** How long the popup may stay open (ms). */
  timeoutMs?: number;
  /** The popup's window features. */
  features?: string;
}

/**
 * Opens the authorization page in a popup and watches it until it is back on the redirect URI
 * (readable once same-origin again), then closes it. Call `authorize` from a click: browsers block
 * popups opened without one.
 */
export function browserPopup(options: PopupOptions = {}): AuthorizationTransport {
  const timeoutMs = options.timeoutMs ?? DEFAULT_POPUP_TIMEOUT_MS;
  return {
    async begin() {
      const window = requireWindow();
      const redirectUri = options.redirectUri ?? currentPage(window);
      let popup: PopupWindow | null = null;
      let timer: ReturnType<typeof setInterval> | undefined;
      return {
        redirectUri,
        complete: (url) =>
          new Promise<AuthorizationAnswer>((resolve) => {
            popup = window.open(url, 'slashd-authorize', options.features ?? 'popup,width=520,height=720');
            if (!popup) {
              resolve({ kind: 'aborted', description: 'The browser blocked the sign-in popup' });
              return;
            }
            const opened = popup;
            const deadline = Date.now() + timeoutMs;
            timer = setInterval(() => {
              if (opened.closed) return finish({ kind: 'aborted', description: 'The sign-in window was closed' });
              if (Date.now() > deadline)
                return finish({ kind: 'aborted', description: 'The sign-in window timed out' });
              let href: string;
              try {
                href = opened.location.href;
              } catch {
                return; // Still on the authorization server's origin: not readable, not back yet.
              }
              let at: URL;
              try {
                at = new URL(href);
              } catch {
                return; // about:blank while loading
              }
              if (isAtRedirectUri(at, redirectUri) && at.search !== '') finish({ kind: 'answer', url: at });
            }, POPUP_POLL_INTERVAL_MS);
            function finish(answer: AuthorizationAnswer): void {
              clearInterval(timer);
              resolve(answer);
            }
          }),
        close: () => {
          clearInterval(timer);
          if (popup && !popup.closed) popup.close();
        },
      };
    },
  };
}

function readPending(text: string | null): PendingAuthorization | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<PendingAuthorization> | null;
    if (
      typeof value?.clientId !== 'string' ||
      typeof value.state !== 'string' ||
      typeof value.redirectUri !== 'string'
    ) {
      return null;
    }
    return { clientId: value.clientId, state: value.state, redirectUri: value.redirectUri };
  } catch {
    return null;
  }
}

/**
 * Sends the whole page to the authorization page, remembering the flow in sessionStorage (this
 * tab only). On the page the user comes back to, `Client.handleAuthorizeRedirect(callback)` reads
 * the answer, checks it and removes it from the address bar.
 */
export function browserRedirect(options: BrowserTransportOptions = {}): AuthorizationTransport {
  return {
    async begin() {
      const window = requireWindow();
      return {
        redirectUri: options.redirectUri ?? currentPage(window),
        complete: (url, pending) => {
          window.sessionStorage.setItem(PENDING_STORAGE_KEY, JSON.stringify(pending));
          window.location.assign(url);
          return new Promise<AuthorizationAnswer>(() => {
            // The page is leaving; the answer is read by resume() on the page that comes back.
          });
        },
        close: () => undefined,
      };
    },
    resume() {
      const window = browserWindow();
      if (!window) return null;
      const pending = readPending(window.sessionStorage.getItem(PENDING_STORAGE_KEY));
      if (!pending) return null;
      const url = new URL(window.location.href);
      if (!isAtRedirectUri(url, pending.redirectUri) || url.search === '') return null;
      // One answer per flow: a reload or a second call does not read it again.
      window.sessionStorage.removeItem(PENDING_STORAGE_KEY);
      // The code must not stay in the address bar or the history.
      window.history.replaceState(null, '', `${url.origin}${url.pathname}${url.hash}`);
      return { url, pending };
    },
  };
}
