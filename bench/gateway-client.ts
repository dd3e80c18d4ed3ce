/**
 * A minimal v10 gateway client for the benchmarks: HELLO → IDENTIFY → READY, heartbeats on the
 * interval HELLO gives (the first after a random fraction of it, as v10 clients do), every
 * HEARTBEAT_ACK's latency recorded, dispatches handed to a listener, and `compress=zlib-stream`
 * read with one inflate context per connection (a payload ends at `00 00 ff ff`). Thousands of
 * these run in one process, so it keeps nothing per session but the socket, the inflate context
 * and a few numbers.
 */
import { performance } from 'node:perf_hooks';
import { constants as zlibConstants, createInflate, type Inflate } from 'node:zlib';
import WebSocket from 'ws';

const ZLIB_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

export interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

export interface SessionOptions {
  /** The gateway URL (from GET /gateway/bot), without a query. */
  url: string;
  token: string;
  intents: number;
  shard?: [number, number];
  zlib: boolean;
  /** Each dispatch (op 0) after READY, with the time it was parsed (performance.now()). */
  onDispatch?: (payload: GatewayPayload, at: number) => void;
  /** Each heartbeat round trip, in ms. */
  onAck?: (ms: number) => void;
  /** Heartbeat on the interval HELLO gives; false: never (the session then times out). */
  heartbeat: boolean;
}

export interface Session {
  readonly sessionId: string;
  readonly ready: Record<string, unknown>;
  /** From HELLO, in ms. */
  readonly heartbeatInterval: number;
  close(): Promise<void>;
  /** Set when the server closed the socket. */
  closedWith(): number | null;
}

/** Opens a session and resolves once READY has arrived. */
export function openSession(options: SessionOptions): Promise<Session> {
  const query = `?v=10&encoding=json${options.zlib ? '&compress=zlib-stream' : ''}`;
  const ws = new WebSocket(options.url.replace(/\/?$/, '/') + query, { perMessageDeflate: false });
  let inflate: Inflate | null = null;
  let inflated: Buffer[] = [];
  let pending: Promise<void> = Promise.resolve();
  let beat: NodeJS.Timeout | null = null;
  let sentAt = 0;
  let seq: number | null = null;
  let closeCode: number | null = null;
  let heartbeatInterval = 0;

  return new Promise<Session>((resolve, reject) => {
    const stop = () => {
      if (beat) clearTimeout(beat);
      beat = null;
    };
    const sendBeat = () => {
      sentAt = performance.now();
      ws.send(JSON.stringify({ op: 1, d: seq }));
    };
    const handle = (payload: GatewayPayload): void => {
      const at = performance.now();
      if (payload.s !== null && payload.s !== undefined) seq = payload.s;
      switch (payload.op) {
        case 10: {
          const interval = (payload.d as { heartbeat_interval: number }).heartbeat_interval;
          heartbeatInterval = interval;
          if (options.heartbeat) {
            const schedule = (delay: number) => {
              beat = setTimeout(() => {
                sendBeat();
                schedule(interval);
              }, delay);
            };
            schedule(Math.floor(interval * Math.random()));
          }
          ws.send(
            JSON.stringify({
              op: 2,
              d: {
                token: options.token,
                intents: options.intents,
                properties: { os: process.platform, browser: 'slashd-bench', device: 'slashd-bench' },
                ...(options.shard ? { shard: options.shard } : {}),
              },
            }),
          );
          return;
        }
        case 11:
          if (sentAt > 0) options.onAck?.(at - sentAt);
          sentAt = 0;
          return;
        case 1:
          sendBeat();
          return;
        case 0:
          if (payload.t === 'READY') {
            const ready = payload.d as Record<string, unknown>;
            resolve({
              sessionId: String(ready.session_id),
              ready,
              heartbeatInterval,
              closedWith: () => closeCode,
              close: () =>
                new Promise<void>((done) => {
                  stop();
                  if (ws.readyState === WebSocket.CLOSED) return done();
                  ws.once('close', () => done());
                  ws.close(1000);
                }),
            });
            return;
          }
          options.onDispatch?.(payload, at);
          return;
      }
    };
    const parse = (text: string): void => {
      let payload: GatewayPayload;
      try {
        payload = JSON.parse(text) as GatewayPayload;
      } catch {
        reject(new Error(`unparsable payload: ${text.slice(0, 200)}`));
        return;
      }
      handle(payload);
    };
    if (options.zlib) {
      inflate = createInflate({ flush: zlibConstants.Z_SYNC_FLUSH });
      inflate.on('data', (chunk: Buffer) => inflated.push(chunk));
      inflate.on('error', (error) => reject(error));
    }
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (!inflate) {
        parse(data.toString('utf8'));
        return;
      }
      if (!isBinary) {
        reject(new Error('zlib-stream asked for, a text frame received'));
        return;
      }
      const complete = data.length >= 4 && data.subarray(-4).equals(ZLIB_SUFFIX);
      const written = new Promise<void>((done) => inflate!.write(data, () => done()));
      if (!complete) return;
      // Payloads are parsed in arrival order: each waits for the one before it.
      pending = pending.then(async () => {
        await written;
        const text = Buffer.concat(inflated).toString('utf8');
        inflated = [];
        parse(text);
      });
    });
    ws.on('close', (code) => {
      closeCode = code;
      stop();
      inflate?.close();
      reject(new Error(`closed with ${code} before READY`));
    });
    ws.on('error', (error) => reject(error));
  });
}

/** Opens `count` sessions, at most `inFlight` handshakes at a time, in index order. */
export async function openSessions(
  count: number,
  inFlight: number,
  options: (index: number) => SessionOptions,
): Promise<Session[]> {
  const sessions = new Array<Session>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) {
        const index = next++;
        sessions[index] = await openSession(options(index));
      }
    }),
  );
  return sessions;
}
