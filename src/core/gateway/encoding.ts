/**
 * What a client asks for in the gateway URL's query (`v`, `encoding`, `compress`) and how its
 * payloads are read in the encoding it chose. Pure.
 */
import { jsonValueOrUndefined } from '../io/json-text.js';
import type { Read } from './commands.js';
import { decodeEtf } from './etf-decode.js';
import { Close, GATEWAY_VERSIONS } from './protocol.js';

/** Payload encodings served: JSON text, or Erlang's External Term Format in binary frames. */
export type GatewayEncoding = 'json' | 'etf';
const ENCODINGS: ReadonlySet<string> = new Set<GatewayEncoding>(['json', 'etf']);

/** Transport compressions served: one zlib stream per connection. */
export type GatewayCompression = 'zlib-stream';
const COMPRESSIONS: ReadonlySet<string> = new Set<GatewayCompression>(['zlib-stream']);

export interface GatewayQuery {
  encoding: GatewayEncoding;
  compress: GatewayCompression | null;
}

function isEncoding(value: string): value is GatewayEncoding {
  return ENCODINGS.has(value);
}

function isCompression(value: string): value is GatewayCompression {
  return COMPRESSIONS.has(value);
}

/**
 * The query of a gateway URL: an unknown `v` closes with 4012; an encoding or compression the
 * client could not decode from us closes with 4002, before HELLO. Absent: v10, JSON, uncompressed.
 */
export function readGatewayQuery(params: URLSearchParams): Read<GatewayQuery> {
  if (!GATEWAY_VERSIONS.has(params.get('v') ?? '10')) return { kind: 'close', close: Close.InvalidApiVersion };
  const encoding = params.get('encoding') ?? 'json';
  const compress = params.get('compress');
  if (!isEncoding(encoding)) return { kind: 'close', close: Close.DecodeError };
  if (compress !== null && !isCompression(compress)) return { kind: 'close', close: Close.DecodeError };
  return { kind: 'read', value: { encoding, compress } };
}

/**
 * A client payload's value in the connection's encoding, or undefined when it cannot be read.
 * Clients never compress what they send, whatever `compress` says.
 */
export function decodePayload(encoding: GatewayEncoding, bytes: Buffer): unknown {
  return encoding === 'etf' ? decodeEtf(bytes) : jsonValueOrUndefined(bytes.toString('utf8'));
}
