/**
 * Signed HTTP delivery of interactions to an app's interactions endpoint URL. Every request is
 * signed; nothing is sent unsigned. The app answers inline (200 with a response) or with 202.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { StoredApplication } from '../store/store.js';
import { InteractionSigner } from './signer.js';

export type DeliveryOutcome =
  | { kind: 'inline'; response: unknown }
  | { kind: 'deferred' }
  | { kind: 'failed'; reason: string };

export type EndpointCheck = { ok: true } | { ok: false; reason: string };

/** Idle keep-alive connections are dropped before a typical server's 5 s keep-alive timeout. */
const IDLE_SOCKET_TIMEOUT_MS = 4_000;

interface Agents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * One POST over node:http: headers and body leave in one write, on a kept-alive connection (the
 * profile of the interactions benchmark showed fetch's streamed body costing more than signing).
 * Redirects are not followed: a 3xx is the endpoint's answer, as with `redirect: 'manual'`.
 */
function post(agents: Agents, url: string, request: { body: string; headers: Record<string, string> }, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    // A string body goes out in the same write as the headers (a Buffer would be a second one).
    const body = request.body;
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    };
    const options = {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { ...request.headers, 'user-agent': 'slashd (interactions)', 'content-length': Buffer.byteLength(body) },
    };
    const req = secure ? httpsRequest(target, options, onResponse) : httpRequest(target, options, onResponse);
    timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', fail);
    req.end(body);
  });
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
  private readonly agents: Agents = {
    http: new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS }),
    https: new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS }),
  };

  constructor(private readonly now: () => number) {}

  /** Drops the kept-alive connections to endpoints, so that nothing holds the process open after a stop. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async deliver(app: StoredApplication, url: string, payload: Record<string, unknown>, timeoutMs: number): Promise<DeliveryOutcome> {
    const request = this.signer.sign(app, JSON.stringify(payload), this.now());
    try {
      const { status, text } = await post(this.agents, url, request, timeoutMs);
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
      const good = await post(this.agents, url, this.signer.sign(app, body, this.now()), timeoutMs);
      const pong = parseJson(good.text) as { type?: unknown } | undefined;
      if (good.status !== 200 || pong?.type !== 1) {
        return { ok: false, reason: `the endpoint did not answer a PING with PONG (status ${good.status})` };
      }
      const bad = await post(this.agents, url, this.signer.badlySigned(body, this.now()), timeoutMs);
      if (bad.status !== 401) {
        return { ok: false, reason: `the endpoint accepted a request with a bad signature (status ${bad.status}, expected 401)` };
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: `the endpoint could not be reached: ${error instanceof Error ? error.message : 'error'}` };
    }
  }
}
