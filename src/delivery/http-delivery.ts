/**
 * Signed HTTP delivery of interactions to an app's interactions endpoint URL. Every request is
 * signed; nothing is sent unsigned. The app answers inline (200 with a response) or with 202.
 */
import type { StoredApplication } from '../store/store.js';
import { InteractionSigner } from './signer.js';

export type DeliveryOutcome =
  | { kind: 'inline'; response: unknown }
  | { kind: 'deferred' }
  | { kind: 'failed'; reason: string };

export type EndpointCheck = { ok: true } | { ok: false; reason: string };

async function post(url: string, request: { body: string; headers: Record<string, string> }, timeoutMs: number) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...request.headers, 'user-agent': 'slashd (interactions)' },
    body: request.body,
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, text };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class HttpDelivery {
  readonly signer = new InteractionSigner();

  constructor(private readonly now: () => number) {}

  async deliver(app: StoredApplication, url: string, payload: Record<string, unknown>, timeoutMs: number): Promise<DeliveryOutcome> {
    const request = this.signer.sign(app, JSON.stringify(payload), this.now());
    try {
      const { status, text } = await post(url, request, timeoutMs);
      if (status === 202) return { kind: 'deferred' };
      if (status === 200 || status === 201) {
        const response = parseJson(text);
        return response === undefined ? { kind: 'failed', reason: 'invalid JSON in the inline response' } : { kind: 'inline', response };
      }
      if (status === 204) return { kind: 'deferred' };
      return { kind: 'failed', reason: `the endpoint answered ${status}` };
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : 'delivery failed' };
    }
  }

  /**
   * Before a URL is stored: a signed PING must get PONG, and a badly signed one must get 401
   * (facts, section 5). An endpoint that accepts bad signatures is never stored.
   */
  async verifyEndpoint(app: StoredApplication, url: string, ping: Record<string, unknown>, timeoutMs: number): Promise<EndpointCheck> {
    const body = JSON.stringify(ping);
    try {
      const good = await post(url, this.signer.sign(app, body, this.now()), timeoutMs);
      const pong = parseJson(good.text) as { type?: unknown } | undefined;
      if (good.status !== 200 || pong?.type !== 1) {
        return { ok: false, reason: `the endpoint did not answer a PING with PONG (status ${good.status})` };
      }
      const bad = await post(url, this.signer.badlySigned(body, this.now()), timeoutMs);
      if (bad.status !== 401) {
        return { ok: false, reason: `the endpoint accepted a request with a bad signature (status ${bad.status}, expected 401)` };
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: `the endpoint could not be reached: ${error instanceof Error ? error.message : 'error'}` };
    }
  }
}
