/**
 * Signed HTTP delivery of interactions to an app's interactions endpoint URL. Every request is
 * signed; nothing is sent unsigned. The app answers inline (200 with a response) or with 202.
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { jsonValueOrUndefined } from '../core/io/json-text.js';
import { DEFAULT_OUTBOUND_POLICY, type OutboundPolicy } from '../core/outbound-policy.js';
import type { DeliveryResult } from '../metrics/metrics.js';
import type { StoredApplication } from '../store/store.js';
import { assertUrlAllowed, guardedLookup, isPolicyRefusal, systemResolver, type Resolver } from './outbound-lookup.js';
import { InteractionSigner } from './signer.js';

export type DeliveryOutcome =
  | { kind: 'inline'; response: unknown }
  | { kind: 'deferred' }
  /** `cause` is the kind of failure (for metrics); `reason` says it in words for the app's developer. */
  | { kind: 'failed'; reason: string; cause: DeliveryResult };

/**
 * `unverified` covers every failure to get a PONG (refused, reset, timed out, any other answer):
 * one text for all, so that verifying URLs cannot serve as a port scanner.
 */
export interface EndpointRefusal {
  readonly kind: 'unverified' | 'policy' | 'bad-signature';
  readonly reason: string;
}

export interface OutboundOptions {
  policy?: OutboundPolicy | undefined;
  /** Name resolution (the system's by default); tests pass their own to play DNS rebinding. */
  resolve?: Resolver | undefined;
  /** The store's pending commit, if any: nothing is sent before the write it tells of is durable. */
  durable?: (() => Promise<void> | undefined) | undefined;
}

/** The one text of every verification failure that is not the policy's or the signature check's. */
export const ENDPOINT_UNVERIFIED = 'the endpoint could not be verified';

/** Idle keep-alive connections are dropped before a typical server's 5 s keep-alive timeout. */
const IDLE_SOCKET_TIMEOUT_MS = 4_000;

/** Largest endpoint answer read (4 MiB, far above any legal response): past it the socket is destroyed. */
export const MAX_DELIVERY_RESPONSE_BYTES = 4 * 1024 * 1024;

class ResponseTooLarge extends Error {}
class NoAnswerInTime extends Error {}

export function responseTooLarge(limit: number): Error {
  return new ResponseTooLarge(`the endpoint's response exceeded ${limit} bytes`);
}

interface Agents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * One POST over node:http: headers and body leave in one write, on a kept-alive connection (the
 * profile of the interactions benchmark showed fetch's streamed body costing more than signing).
 * Redirects are not followed: a 3xx is the endpoint's answer, as with `redirect: 'manual'`.
 */
function post(
  agents: Agents,
  url: string,
  request: { body: string; headers: Record<string, string> },
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
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
      if (Number(response.headers['content-length'] ?? 0) > MAX_DELIVERY_RESPONSE_BYTES) {
        req.destroy();
        fail(responseTooLarge(MAX_DELIVERY_RESPONSE_BYTES));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_DELIVERY_RESPONSE_BYTES) {
          // Destroying the request drops the socket: the rest of the body is never read.
          req.destroy();
          fail(responseTooLarge(MAX_DELIVERY_RESPONSE_BYTES));
          return;
        }
        chunks.push(chunk);
      });
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
    timer = setTimeout(() => req.destroy(new NoAnswerInTime(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Why a delivery failed, for the app's developer (the interaction's failure detail and the log):
 * the endpoint was verified and is theirs, so the cause is named (ECONNREFUSED, a timeout, ...).
 */
export function describeDeliveryError(error: unknown): string {
  if (!(error instanceof Error)) return 'delivery failed';
  if (isPolicyRefusal(error)) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^E(?!RR_)[A-Z_]+$/.test(code) ? `could not connect (${code})` : error.message;
}

/** What kind of failure an error of a delivery is. */
function failureCause(error: unknown): DeliveryResult {
  if (isPolicyRefusal(error)) return 'policy';
  if (error instanceof NoAnswerInTime) return 'timeout';
  if (error instanceof ResponseTooLarge) return 'too_large';
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' && /^E(?!RR_)[A-Z_]+$/.test(code) ? 'connect_error' : 'error';
}

export class HttpDelivery {
  readonly signer = new InteractionSigner();
  private readonly agents: Agents;
  private readonly policy: OutboundPolicy;
  private readonly durable: () => Promise<void> | undefined;

  constructor(
    private readonly now: () => number,
    outbound: OutboundOptions = {},
  ) {
    this.policy = outbound.policy ?? DEFAULT_OUTBOUND_POLICY;
    this.durable = outbound.durable ?? (() => undefined);
    // The agents open every socket, so their lookup sees every address slashd connects to.
    const lookup = guardedLookup(this.policy, outbound.resolve ?? systemResolver);
    this.agents = {
      http: new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS, lookup }),
      https: new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS, lookup }),
    };
  }

  /** Drops the kept-alive connections to endpoints, so that nothing holds the process open after a stop. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async deliver(
    app: StoredApplication,
    url: string,
    payload: Record<string, unknown>,
    timeoutMs: number,
    /** The id of the request that caused this delivery, sent as `X-Request-Id` (docs/decisions.md#operations). */
    requestId?: string,
  ): Promise<DeliveryOutcome> {
    const signed = this.signer.sign(app, JSON.stringify(payload), this.now());
    const request =
      requestId === undefined ? signed : { ...signed, headers: { ...signed.headers, 'x-request-id': requestId } };
    try {
      assertUrlAllowed(this.policy, url);
      await this.durable();
      const { status, text } = await post(this.agents, url, request, timeoutMs);
      if (status === 202) return { kind: 'deferred' };
      if (status === 200 || status === 201) {
        const response = jsonValueOrUndefined(text);
        return response === undefined
          ? { kind: 'failed', reason: 'invalid JSON in the inline response', cause: 'invalid_json' }
          : { kind: 'inline', response };
      }
      if (status === 204) return { kind: 'deferred' };
      return { kind: 'failed', reason: `the endpoint answered ${status}`, cause: 'bad_status' };
    } catch (error) {
      return { kind: 'failed', reason: describeDeliveryError(error), cause: failureCause(error) };
    }
  }

  /**
   * Before a URL is stored: a signed PING must get PONG, and a badly signed one must get 401
   * (docs/v10-behaviour.md#interactions). An endpoint that accepts bad signatures is never stored.
   * Null when verified, otherwise why not.
   */
  async verifyEndpoint(
    app: StoredApplication,
    url: string,
    ping: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<EndpointRefusal | null> {
    const body = JSON.stringify(ping);
    const unverified: EndpointRefusal = { kind: 'unverified', reason: ENDPOINT_UNVERIFIED };
    try {
      assertUrlAllowed(this.policy, url);
      const good = await post(this.agents, url, this.signer.sign(app, body, this.now()), timeoutMs);
      const pong = jsonValueOrUndefined(good.text) as { type?: unknown } | undefined;
      if (good.status !== 200 || pong?.type !== InteractionResponseType.Pong) return unverified;
      // Past a PONG to a signed PING the other side is an interactions endpoint, so saying what it
      // got wrong reveals nothing about the network.
      const bad = await post(this.agents, url, this.signer.badlySigned(body, this.now()), timeoutMs);
      if (bad.status !== 401) {
        return {
          kind: 'bad-signature',
          reason: `the endpoint accepted a request with a bad signature (status ${bad.status}, expected 401)`,
        };
      }
      return null;
    } catch (error) {
      return isPolicyRefusal(error) ? { kind: 'policy', reason: error.message } : unverified;
    }
  }
}

/** Where deliveries outside a request log (the node's logger); null when logging is off. */
export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void;
}
