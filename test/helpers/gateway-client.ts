/**
 * A raw `ws` gateway client for protocol tests: it collects every payload (inflating a
 * zlib-stream transport) and lets a test wait for the next one matching a predicate, or for the
 * close. No timing is involved: each wait resolves on an event, with a generous safety timeout.
 */
import { constants, inflateSync } from 'node:zlib';
import WebSocket from 'ws';

export type Payload = { op: number; d: any; s: number | null; t: string | null };

export interface Closed {
  code: number;
  reason: string;
}

/** Safety net only: a wait that never resolves fails the test instead of hanging it. */
const WAIT_LIMIT_MS = 10_000;

export class GatewayClient {
  readonly payloads: Payload[] = [];
  /** Every binary frame received, as is (zlib-stream tests check their suffix). */
  readonly rawFrames: Buffer[] = [];
  closed: Closed | null = null;
  private cursor = 0;
  private waiters: (() => void)[] = [];
  private readonly zlib: boolean;
  /** zlib-stream: the whole stream so far and how much of its text was already read. */
  private stream: Buffer = Buffer.alloc(0);
  private textRead = 0;

  private constructor(
    readonly ws: WebSocket,
    zlib: boolean,
  ) {
    this.zlib = zlib;
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.rawFrames.push(data);
      if (this.zlib) {
        // Inflating the whole stream again is slow but simple, and a test's stream is short.
        this.stream = Buffer.concat([this.stream, data]);
        const all = inflateSync(this.stream, { finishFlush: constants.Z_SYNC_FLUSH });
        const text = all.subarray(this.textRead).toString('utf8');
        this.textRead = all.length;
        this.push(JSON.parse(text) as Payload);
      } else {
        this.push(JSON.parse(data.toString('utf8')) as Payload);
      }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  static async connect(url: string, query = '?v=10&encoding=json', options: WebSocket.ClientOptions = {}) {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/${query}`, { perMessageDeflate: false, ...options });
    const client = new GatewayClient(ws, query.includes('compress=zlib-stream'));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return client;
  }

  private push(payload: Payload): void {
    this.payloads.push(payload);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async waitUntil<T>(check: () => T | undefined, what: string): Promise<T> {
    const started = Date.now();
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`gateway client: no ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WAIT_LIMIT_MS);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next payload (after those already taken) that matches; earlier ones are skipped. */
  async next(match: (p: Payload) => boolean = () => true, what = 'payload'): Promise<Payload> {
    return this.waitUntil(() => {
      while (this.cursor < this.payloads.length) {
        const payload = this.payloads[this.cursor++]!;
        if (match(payload)) return payload;
      }
      if (this.closed) throw new Error(`gateway closed (${this.closed.code}) before ${what}`);
      return undefined;
    }, what);
  }

  nextOp(op: number): Promise<Payload> {
    return this.next((p) => p.op === op, `op ${op}`);
  }

  nextDispatch(t: string): Promise<Payload> {
    return this.next((p) => p.op === 0 && p.t === t, t);
  }

  /** Resolves with the close code and reason once the server closes the socket. */
  async closedWith(): Promise<Closed> {
    return this.waitUntil(() => this.closed ?? undefined, 'close');
  }

  send(payload: unknown): void {
    this.ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  identify(token: string, intents = 1, extra: Record<string, unknown> = {}): void {
    this.send({ op: 2, d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' }, ...extra } });
  }

  /** HELLO, IDENTIFY, READY: the READY payload. */
  async login(token: string, intents = 1, extra: Record<string, unknown> = {}): Promise<Payload> {
    await this.nextOp(10);
    this.identify(token, intents, extra);
    return this.nextDispatch('READY');
  }

  /** Drops the socket without a close frame, as a lost connection does. */
  drop(): void {
    this.ws.terminate();
  }

  close(code = 1000): void {
    this.ws.close(code);
  }
}

/**
 * The gateway clients a test file opened: `connect` remembers each, so that the file's `after`
 * drops them all (`dropAll`) before closing the server, whatever its tests left open.
 */
export class GatewayClients {
  readonly all: GatewayClient[] = [];

  async connect(url: string, query?: string, options?: WebSocket.ClientOptions): Promise<GatewayClient> {
    const client = await GatewayClient.connect(url, query, options);
    this.all.push(client);
    return client;
  }

  /** Drops every socket without a close frame. */
  dropAll(): void {
    for (const client of this.all) client.drop();
  }
}
