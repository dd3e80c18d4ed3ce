/**
 * Erlang's External Term Format as the v10 gateway speaks it with `encoding=etf`: what slashd
 * sends is what erlpack (the encoder the ETF libraries use) makes of the payload's JSON value, so
 * an erlpack client reads exactly the value a JSON client reads. Pure: bytes in, bytes out.
 */

/** The version byte every ETF term starts with. */
export const ETF_VERSION = 131;

/** Term tags (erlang.org, "External Term Format"). */
export const Tag = {
  NewFloat: 70,
  Compressed: 80,
  SmallInteger: 97,
  Integer: 98,
  Float: 99,
  Atom: 100,
  SmallTuple: 104,
  LargeTuple: 105,
  Nil: 106,
  String: 107,
  List: 108,
  Binary: 109,
  SmallBig: 110,
  LargeBig: 111,
  SmallAtom: 115,
  Map: 116,
  AtomUtf8: 118,
  SmallAtomUtf8: 119,
} as const;

/** The largest integer sent as SMALL_INTEGER_EXT (one unsigned byte). */
const SMALL_INTEGER_MAX = 255;
/** INTEGER_EXT holds a signed 32-bit integer. */
const INTEGER_MIN = -(2 ** 31);
const INTEGER_MAX = 2 ** 31 - 1;
/** erlpack sends unsigned 32-bit integers above INTEGER_MAX as SMALL_BIG_EXT, larger ones as floats. */
const UNSIGNED_MAX = 2 ** 32 - 1;
/** The first buffer of an encoding; it doubles as needed (most payloads fit). */
const INITIAL_CAPACITY = 512;

const ATOM_NIL = atomBytes('nil');
const ATOM_TRUE = atomBytes('true');
const ATOM_FALSE = atomBytes('false');

/** An atom as erlpack writes `null`, `true` and `false`: SMALL_ATOM_EXT. */
function atomBytes(name: string): Uint8Array {
  return Uint8Array.from([Tag.SmallAtom, name.length, ...Array.from(name, (c) => c.charCodeAt(0))]);
}

const utf8 = new TextEncoder();

/** A growing byte buffer. */
class Writer {
  bytes = new Uint8Array(INITIAL_CAPACITY);
  view = new DataView(this.bytes.buffer);
  length = 0;

  reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  u8(value: number): void {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  u32(value: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, value);
    this.length += 4;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** BINARY_EXT: a string's UTF-8 bytes (lone surrogates become U+FFFD, as erlpack writes them). */
  binary(text: string): void {
    // A UTF-16 code unit is at most 3 UTF-8 bytes.
    this.reserve(5 + text.length * 3);
    this.bytes[this.length] = Tag.Binary;
    const { written } = utf8.encodeInto(text, this.bytes.subarray(this.length + 5));
    this.view.setUint32(this.length + 1, written);
    this.length += 5 + written;
  }
}

/**
 * A JSON value's term: null as the atom `nil`, booleans as atoms, strings (snowflakes included) as
 * binaries, arrays as lists (empty: NIL_EXT), objects as maps with binary keys, numbers as erlpack
 * packs them. Values JSON cannot hold (undefined, functions) are never handed in.
 */
export function encodeEtf(value: unknown): Uint8Array {
  const writer = new Writer();
  writer.u8(ETF_VERSION);
  writeTerm(writer, value);
  // An exact-size copy: a payload queued on a slow socket holds no spare capacity.
  return writer.bytes.slice(0, writer.length);
}

function writeTerm(writer: Writer, value: unknown): void {
  if (value === null || value === undefined) writer.raw(ATOM_NIL);
  else if (value === true) writer.raw(ATOM_TRUE);
  else if (value === false) writer.raw(ATOM_FALSE);
  else if (typeof value === 'string') writer.binary(value);
  else if (typeof value === 'number') writeNumber(writer, value);
  else if (Array.isArray(value)) writeList(writer, value);
  else if (typeof value === 'object') writeMap(writer, value as Record<string, unknown>);
  else throw new TypeError(`ETF cannot carry a ${typeof value}`);
}

/**
 * erlpack's choice, so that a JavaScript client reads back the same number: 0..255 as
 * SMALL_INTEGER_EXT, other 32-bit signed integers as INTEGER_EXT, unsigned 32-bit ones above them
 * as SMALL_BIG_EXT, everything else (fractions, -0, integers beyond 32 bits) as NEW_FLOAT_EXT.
 * v10 puts every 64-bit value (snowflakes, permissions) in strings, so none is lost.
 */
function writeNumber(writer: Writer, value: number): void {
  const integer = Number.isInteger(value) && !Object.is(value, -0);
  if (integer && value >= 0 && value <= SMALL_INTEGER_MAX) {
    writer.u8(Tag.SmallInteger);
    writer.u8(value);
  } else if (integer && value >= INTEGER_MIN && value <= INTEGER_MAX) {
    writer.u8(Tag.Integer);
    writer.u32(value >>> 0);
  } else if (integer && value > INTEGER_MAX && value <= UNSIGNED_MAX) {
    writer.raw(
      Uint8Array.from([Tag.SmallBig, 4, 0, value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24]),
    );
  } else {
    writer.u8(Tag.NewFloat);
    writer.reserve(8);
    writer.view.setFloat64(writer.length, value);
    writer.length += 8;
  }
}

function writeList(writer: Writer, items: readonly unknown[]): void {
  if (items.length > 0) {
    writer.u8(Tag.List);
    writer.u32(items.length);
    for (const item of items) writeTerm(writer, item);
  }
  writer.u8(Tag.Nil);
}

/** Keys go as binaries, as v10 sends them (erlpack would send integer-like keys as integers). */
function writeMap(writer: Writer, object: Record<string, unknown>): void {
  const keys = Object.keys(object);
  writer.u8(Tag.Map);
  writer.u32(keys.length);
  for (const key of keys) {
    writer.binary(key);
    writeTerm(writer, object[key]);
  }
}
