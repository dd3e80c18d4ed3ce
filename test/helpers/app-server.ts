/**
 * A real app, built on discord-interactions, for the interaction tests: a node:http server that
 * verifies every request with discord-interactions' `verifyKey` (unmodified) against the app's
 * `verify_key`, answers 401 when the signature does not verify, PONG to a PING, and otherwise hands
 * the interaction to the test's handler. It records every request it received, with whether it was
 * signed and whether the signature verified, so tests can assert "the app received nothing" and
 * "nothing was ever delivered unsigned".
 *
 * Misbehaving endpoints (for the endpoint verification tests) are the same server with a
 * `behaviour` other than 'correct': it still records and checks every request, it only answers
 * differently.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InteractionResponseType, InteractionType, verifyKey } from 'discord-interactions';

import type { Json } from './json.js';

export type { Json };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body, or undefined when it was not JSON. */
  body: Json | undefined;
  /** Both signature headers were present. */
  signed: boolean;
  /** discord-interactions' verifyKey accepted the signature. */
  verified: boolean;
  /** The status the app answered with. */
  status: number;
}

/** What the app answers to one verified, non-PING interaction. */
export type AppAnswer =
  /** 200 with this interaction response (the inline answer). */
  | { inline: Json }
  /** 202, then `after` runs (it may answer through the callback endpoint); `idle()` awaits it. */
  | { accepted: true; after?: (interaction: Json, app: AppServer) => Promise<unknown> }
  /** Any status and body, as is. */
  | { status: number; body?: string };

export type AppHandler = (interaction: Json, app: AppServer) => AppAnswer | Promise<AppAnswer>;

export type AppBehaviour =
  /** A correct app: 401 on a bad signature, PONG to PING, the handler for the rest. */
  | 'correct'
  /** Answers every request, signed or not, 200 PONG: an endpoint that accepts bad signatures. */
  | 'accept-bad-signatures'
  /** Verifies signatures, but answers a PING with something other than PONG. */
  | 'no-pong'
  /** Answers every request 500. */
  | 'error-500';

export interface AppServerOptions {
  /** The app's `verify_key` (hex Ed25519 public key), from GET /applications/@me. */
  publicKey: string;
  /** slashd's API base (…/api/v10), for the callback and webhook calls of deferred answers. */
  api: string;
  applicationId: string;
  behaviour?: AppBehaviour | undefined;
  handler?: AppHandler | undefined;
  /** Answer with `connection: close`, so that each request slashd sends opens a new connection. */
  closeEachConnection?: boolean | undefined;
}

export interface AppServer {
  url: string;
  api: string;
  applicationId: string;
  /** Every request received, in order. */
  readonly received: ReceivedRequest[];
  /** The verified interactions other than PINGs, in order. */
  interactions(): Json[];
  /** Replaces the handler (the default answers 500: a test that did not expect an interaction fails loudly). */
  handle(handler: AppHandler): void;
  /** The results of every `after` of 202 answers so far, once all of them have settled. */
  idle(): Promise<unknown[]>;
  /** POST /interactions/{id}/{token}/callback, as the app does. */
  callback(
    interaction: Json,
    body: Json,
    query?: string,
  ): Promise<{ status: number; body: Json | undefined; text: string }>;
  /** Any call to slashd's API with the interaction token in the path (webhooks). */
  call(method: string, path: string, body?: Json): Promise<{ status: number; body: Json | undefined; text: string }>;
  close(): Promise<void>;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parse(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function jsonFetch(
  url: string,
  method: string,
  body?: Json,
): Promise<{ status: number; body: Json | undefined; text: string }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? parse(text) : undefined, text };
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const behaviour = options.behaviour ?? 'correct';
  const received: ReceivedRequest[] = [];
  const pending: Promise<unknown>[] = [];
  let handler: AppHandler = options.handler ?? (() => ({ status: 500, body: 'no handler' }));

  let app: AppServer;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const signature = header(req.headers, 'x-signature-ed25519');
        const timestamp = header(req.headers, 'x-signature-timestamp');
        const signed = signature !== undefined && timestamp !== undefined;
        const verified = signed ? await verifyKey(rawBody, signature, timestamp, options.publicKey) : false;
        const body = parse(rawBody);
        const entry: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawBody,
          body,
          signed,
          verified,
          status: 0,
        };
        received.push(entry);
        const send = (status: number, payload?: string | Json) => {
          entry.status = status;
          const text = payload === undefined ? '' : typeof payload === 'string' ? payload : JSON.stringify(payload);
          if (options.closeEachConnection) res.setHeader('connection', 'close');
          res.writeHead(status, typeof payload === 'object' ? { 'content-type': 'application/json' } : {});
          res.end(text);
        };

        if (behaviour === 'error-500') return send(500, 'internal error');
        if (behaviour === 'accept-bad-signatures') return send(200, { type: InteractionResponseType.PONG });
        if (!verified) return send(401, 'Bad request signature');
        if (body?.type === InteractionType.PING) {
          if (behaviour === 'no-pong')
            return send(200, { type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'hi' } });
          return send(200, { type: InteractionResponseType.PONG });
        }
        if (!body) return send(400, 'not JSON');
        let answer: AppAnswer;
        try {
          answer = await handler(body, app);
        } catch (error) {
          return send(500, String(error));
        }
        if ('inline' in answer) return send(200, answer.inline);
        if ('accepted' in answer) {
          send(202);
          if (answer.after) pending.push(answer.after(body, app));
          return;
        }
        return send(answer.status, answer.body);
      })().catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500);
          res.end(String(error));
        }
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`;

  app = {
    url,
    api: options.api,
    applicationId: options.applicationId,
    received,
    interactions: () =>
      received.filter((r) => r.verified && r.body?.type !== InteractionType.PING).map((r) => r.body as Json),
    handle(next) {
      handler = next;
    },
    async idle() {
      const results: unknown[] = [];
      for (let i = 0; i < pending.length; i++) results.push(await pending[i]);
      return results;
    },
    callback(interaction, body, query = '') {
      return jsonFetch(
        `${options.api}/interactions/${interaction.id}/${interaction.token}/callback${query}`,
        'POST',
        body,
      );
    },
    call(method, path, body) {
      return jsonFetch(`${options.api}${path}`, method, body);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return app;
}

/** The application's `verify_key`, as the app's developer reads it: GET /applications/@me with its bot token. */
export async function fetchVerifyKey(api: string, botToken: string): Promise<{ id: string; verifyKey: string }> {
  const response = await fetch(`${api}/applications/@me`, { headers: { authorization: `Bot ${botToken}` } });
  const body = (await response.json()) as Json;
  assert.equal(response.status, 200, `GET /applications/@me: ${JSON.stringify(body)}`);
  assert.match(body.verify_key, /^[0-9a-f]{64}$/, 'verify_key is a hex Ed25519 public key');
  return { id: body.id, verifyKey: body.verify_key };
}

/** PATCH /applications/@me with `interactions_endpoint_url` (the bot token of the app). */
export function setEndpoint(
  api: string,
  botToken: string,
  url: string | null,
): Promise<{ status: number; body: Json | undefined; text: string }> {
  return fetch(`${api}/applications/@me`, {
    method: 'PATCH',
    headers: { authorization: `Bot ${botToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ interactions_endpoint_url: url }),
  }).then(async (response) => {
    const text = await response.text();
    return { status: response.status, body: text ? parse(text) : undefined, text };
  });
}

/**
 * An app server for the app behind `botToken`, registered as its interactions endpoint (the
 * verification must pass). The requests slashd sent while verifying are in `received`.
 */
export async function startRegisteredApp(api: string, botToken: string, handler?: AppHandler): Promise<AppServer> {
  const { id, verifyKey: publicKey } = await fetchVerifyKey(api, botToken);
  const app = await startAppServer({ publicKey, api, applicationId: id, handler });
  const response = await setEndpoint(api, botToken, app.url);
  assert.equal(response.status, 200, `PATCH interactions_endpoint_url: ${response.text}`);
  assert.equal(response.body?.interactions_endpoint_url, app.url);
  return app;
}

/**
 * The requests slashd sends while verifying an endpoint: a signed PING that verifies, then a badly
 * signed request that does not verify (and that a correct app refused with 401). Every request an
 * app received is one of these or a verified interaction: nothing unsigned, ever.
 */
export function assertOnlySignedTraffic(app: AppServer): void {
  for (const [i, request] of app.received.entries()) {
    assert.ok(request.signed, `request ${i} to the app carried both signature headers`);
    assert.ok(
      request.verified || request.body?.type === InteractionType.PING,
      `request ${i}: only the deliberately bad PING of endpoint verification may fail to verify`,
    );
  }
}

/** The verification requests of one successful registration: a good PING, then a bad one refused. */
export function assertVerificationRequests(requests: readonly ReceivedRequest[]): void {
  assert.equal(requests.length, 2, 'endpoint verification sends two requests');
  const [good, bad] = requests as [ReceivedRequest, ReceivedRequest];
  assert.equal(good.body?.type, InteractionType.PING);
  assert.ok(good.signed && good.verified, 'the PING is correctly signed');
  assert.equal(good.status, 200);
  assert.ok(bad.signed, 'the bad request carries signature headers');
  assert.equal(bad.verified, false, 'the bad request does not verify');
  assert.equal(bad.status, 401, 'the app refused it');
}
