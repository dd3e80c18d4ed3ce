/**
 * Reading a client's ETF payload into the value its JSON would have been, as erlpack decodes it:
 * atoms `nil`/`null`, `true`, `false` become null and booleans (other atoms strings), binaries
 * strings, lists and tuples arrays, STRING_EXT an array of its bytes, maps objects with no
 * prototype, integers numbers (those beyond 32 bits decimal strings, as 64-bit snowflakes are).
 * Input is hostile: every length is checked against the bytes left before anything is allocated,
 * nesting is bounded, and terms no gateway command holds (pids, ports, references, funs,
 * compressed terms, bit strings) are refused. Any refusal is `undefined`: the caller closes 4002.
 */
import { nullRecord } from '../records.js';
import { ETF_VERSION, Tag } from './etf.js';

/** Deepest nesting of lists, tuples and maps read; gateway commands nest 4 levels at most. */
export const ETF_MAX_DEPTH = 64;
/** Most magnitude bytes of a big integer (erlpack's bound: 64 bits). */
const BIG_DIGITS_MAX = 8;
/** Magnitudes up to this are numbers; above it they are decimal strings, as erlpack reads them. */
const BIG_NUMBER_MAX = 2n ** 32n - 1n;
/** FLOAT_EXT's fixed width: a float printed as text ("%.20e"), NUL-padded. */
const FLOAT_TEXT_BYTES = 31;
const FLOAT_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Thrown inside the reader only; `decodeEtf` turns it into `undefined`. */
class Malformed extends Error {}

/** A binary's bytes as they are: a leading U+FEFF is text, not a byte-order mark to drop. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

class Reader {
  offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get left(): number {
    return this.bytes.length - this.offset;
  }

  take(count: number): number {
    if (count > this.left) throw new Malformed('past the end');
    const at = this.offset;
    this.offset += count;
    return at;
  }

  u8(): number {
    return this.view.getUint8(this.take(1));
  }

  u16(): number {
    return this.view.getUint16(this.take(2));
  }

  u32(): number {
    return this.view.getUint32(this.take(4));
  }

  i32(): number {
    return this.view.getInt32(this.take(4));
  }

  f64(): number {
    return this.view.getFloat64(this.take(8));
  }

  slice(count: number): Uint8Array {
    const at = this.take(count);
    return this.bytes.subarray(at, at + count);
  }

  text(count: number): string {
    return utf8.decode(this.slice(count));
  }

  /** A count of terms to read next: each takes at least `minBytes`, so more than fit is refused. */
  count(value: number, minBytes: number): number {
    if (value * minBytes > this.left) throw new Malformed('count beyond the payload');
    return value;
  }
}

/** The value of one ETF payload (version byte, one term, nothing after), or undefined. */
export function decodeEtf(bytes: Uint8Array): unknown {
  try {
    const reader = new Reader(bytes);
    if (reader.u8() !== ETF_VERSION) return undefined;
    const value = readTerm(reader, 0);
    return reader.left === 0 ? value : undefined;
  } catch (error) {
    if (error instanceof Malformed || error instanceof RangeError) return undefined;
    throw error;
  }
}

function readTerm(reader: Reader, depth: number): unknown {
  const tag = reader.u8();
  switch (tag) {
    case Tag.SmallInteger:
      return reader.u8();
    case Tag.Integer:
      return reader.i32();
    case Tag.NewFloat:
      return finite(reader.f64());
    case Tag.Float:
      return readFloatText(reader);
    case Tag.Atom:
    case Tag.AtomUtf8:
      return atomValue(reader.text(reader.u16()));
    case Tag.SmallAtom:
    case Tag.SmallAtomUtf8:
      return atomValue(reader.text(reader.u8()));
    case Tag.Binary:
      return reader.text(reader.u32());
    case Tag.String:
      return Array.from(reader.slice(reader.u16()));
    case Tag.SmallBig:
      return readBig(reader, reader.u8());
    case Tag.LargeBig:
      return readBig(reader, reader.u32());
    case Tag.Nil:
      return [];
    case Tag.List:
      return readList(reader, depth);
    case Tag.SmallTuple:
      return readItems(reader, reader.u8(), depth);
    case Tag.LargeTuple:
      return readItems(reader, reader.u32(), depth);
    case Tag.Map:
      return readMap(reader, depth);
    default:
      throw new Malformed(`term ${tag} is not read`);
  }
}

function finite(value: number): number {
  // JSON cannot hold NaN or infinities; neither may a payload.
  if (!Number.isFinite(value)) throw new Malformed('not a finite number');
  return value;
}

function atomValue(name: string): unknown {
  switch (name) {
    case 'nil':
    case 'null':
      return null;
    case 'true':
      return true;
    case 'false':
      return false;
    default:
      return name;
  }
}

function readFloatText(reader: Reader): number {
  const text = String.fromCharCode(...reader.slice(FLOAT_TEXT_BYTES)).replace(/\0+$/, '');
  if (!FLOAT_TEXT.test(text)) throw new Malformed('not a float');
  return finite(Number(text));
}

/** Little-endian magnitude after a sign byte; more than 64 bits is refused. */
function readBig(reader: Reader, digits: number): number | string {
  const negative = reader.u8() !== 0;
  if (digits > BIG_DIGITS_MAX) throw new Malformed('big integer beyond 64 bits');
  const magnitude = reader.slice(digits).reduceRight((sum, digit) => (sum << 8n) | BigInt(digit), 0n);
  if (magnitude <= BIG_NUMBER_MAX) return negative && magnitude > 0n ? -Number(magnitude) : Number(magnitude);
  return `${negative ? '-' : ''}${magnitude}`;
}

function nested(depth: number): number {
  if (depth >= ETF_MAX_DEPTH) throw new Malformed('nested too deep');
  return depth + 1;
}

function readItems(reader: Reader, declared: number, depth: number): unknown[] {
  const inner = nested(depth);
  const count = reader.count(declared, 1);
  const items: unknown[] = [];
  for (let i = 0; i < count; i++) items.push(readTerm(reader, inner));
  return items;
}

/** A proper list: its items, then NIL_EXT (an improper tail is refused, as erlpack does). */
function readList(reader: Reader, depth: number): unknown[] {
  const items = readItems(reader, reader.u32(), depth);
  if (reader.u8() !== Tag.Nil) throw new Malformed('improper list');
  return items;
}

/**
 * A map as an object with no prototype. Keys are strings (binaries, atoms) or integers (their
 * decimal text); a `__proto__` key, or `constructor` holding `prototype`, is refused as the JSON
 * reader refuses them.
 */
function readMap(reader: Reader, depth: number): Record<string, unknown> {
  const inner = nested(depth);
  const count = reader.count(reader.u32(), 2);
  const map = nullRecord();
  for (let i = 0; i < count; i++) {
    const key = mapKey(readTerm(reader, inner));
    const value = readTerm(reader, inner);
    if (key === '__proto__' || (key === 'constructor' && holdsPrototype(value))) {
      throw new Malformed('reserved key');
    }
    map[key] = value;
  }
  return map;
}

function mapKey(key: unknown): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'number') return String(key);
  throw new Malformed('map key is neither a string nor an integer');
}

function holdsPrototype(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype');
}
