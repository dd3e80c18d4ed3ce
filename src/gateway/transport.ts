/**
 * How payloads leave a connection: in the encoding the client chose (JSON text, or ETF in binary
 * frames), and with `compress=zlib-stream` through one zlib context per connection, each payload
 * deflated with Z_SYNC_FLUSH so that it ends in 00 00 ff ff and the client inflates the stream
 * payload by payload.
 */
import { constants, createDeflate, type Deflate } from 'node:zlib';
import type { GatewayEncoding, GatewayQuery } from '../core/gateway/encoding.js';
import { encodeEtf } from '../core/gateway/etf.js';

export interface Encoder {
  /** What the client sends and reads (its payloads are decoded with it too). */
  readonly encoding: GatewayEncoding;
  /** Encodes one payload's JSON text and hands the bytes (or text) to `deliver`, in call order. */
  encode(text: string, deliver: (data: string | Buffer) => void): void;
  /** Calls `done` once every payload encoded so far has been delivered. */
  whenIdle(done: () => void): void;
  close(): void;
}

/** One payload's JSON text in an encoding: text stays text (a text frame), ETF is bytes (binary). */
function format(encoding: GatewayEncoding, text: string): string | Buffer {
  if (encoding === 'json') return text;
  // The server's own JSON: every dispatch is built once as text and encoded per connection.
  const bytes = encodeEtf(JSON.parse(text));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Uncompressed payloads keep no state: one encoder per encoding serves every such connection. */
export class PlainEncoder implements Encoder {
  constructor(readonly encoding: GatewayEncoding) {}

  encode(text: string, deliver: (data: string | Buffer) => void): void {
    deliver(format(this.encoding, text));
  }
  whenIdle(done: () => void): void {
    done();
  }
  close(): void {}
}

export const JSON_ENCODER: Encoder = new PlainEncoder('json');
export const ETF_ENCODER: Encoder = new PlainEncoder('etf');

/** The encoder of a connection whose URL asked for `query`. */
export function encoderFor(query: GatewayQuery): Encoder {
  if (query.compress === 'zlib-stream') return new ZlibStreamEncoder(query.encoding);
  return query.encoding === 'etf' ? ETF_ENCODER : JSON_ENCODER;
}

/**
 * zlib works off the main thread: frames are deflated one at a time, so the output of one flush
 * is exactly one payload, and payloads leave in the order they were sent.
 */
/**
 * The deflate context's size: zlib's default (a 32 KiB window, memLevel 8) costs about 256 KiB per
 * connection; a 4 KiB window with memLevel 5 costs about 32 KiB and still spans a typical payload.
 * Any client inflates it: the window size travels in the stream's header.
 */
const STREAM_WINDOW_BITS = 12;
const STREAM_MEM_LEVEL = 5;
/** zlib's output buffer per stream (16 KiB by default); larger payloads just take more rounds. */
const STREAM_CHUNK_BYTES = 2048;

export class ZlibStreamEncoder implements Encoder {
  private readonly deflate: Deflate = createDeflate({
    windowBits: STREAM_WINDOW_BITS,
    memLevel: STREAM_MEM_LEVEL,
    chunkSize: STREAM_CHUNK_BYTES,
  });
  private readonly queue: { data: string | Buffer; deliver: (data: Buffer) => void }[] = [];
  private readonly idle: (() => void)[] = [];
  private chunks: Buffer[] = [];
  private busy = false;
  private closed = false;

  constructor(readonly encoding: GatewayEncoding = 'json') {
    // Flowing mode: each chunk arrives here before the flush's callback runs.
    this.deflate.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.deflate.on('error', () => this.close());
  }

  /** Bytes waiting to be deflated (counted against the connection's send buffer bound). */
  get pendingBytes(): number {
    return this.queue.reduce((sum, item) => sum + item.data.length, 0);
  }

  encode(text: string, deliver: (data: Buffer) => void): void {
    if (this.closed) return;
    this.queue.push({ data: format(this.encoding, text), deliver });
    if (!this.busy) this.next();
  }

  private next(): void {
    const item = this.queue.shift();
    if (!item || this.closed) {
      this.busy = false;
      for (const done of this.idle.splice(0)) done();
      return;
    }
    this.busy = true;
    this.deflate.write(item.data);
    this.deflate.flush(constants.Z_SYNC_FLUSH, () => {
      const frame = Buffer.concat(this.chunks);
      this.chunks = [];
      if (!this.closed) item.deliver(frame);
      this.next();
    });
  }

  whenIdle(done: () => void): void {
    if (!this.busy || this.closed) done();
    else this.idle.push(done);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    for (const done of this.idle.splice(0)) done();
    this.deflate.close();
  }
}
