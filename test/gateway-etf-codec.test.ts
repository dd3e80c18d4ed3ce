/**
 * slashd's External Term Format codec against erlpack (the native encoder ETF bot libraries load,
 * built from the registry): what slashd sends is byte for byte what erlpack makes of the payload's
 * JSON value, erlpack reads it back as that value, slashd reads whatever erlpack sends as erlpack
 * itself does, and hostile bytes are refused (undefined: the gateway closes 4002) without a throw,
 * an unbounded allocation or a deep recursion.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { constants, inflateSync } from 'node:zlib';
import erlpack from 'erlpack';
import fc from 'fast-check';
import { readFrame, readIdentify } from '../src/core/gateway/commands.js';
import { readGatewayQuery } from '../src/core/gateway/encoding.js';
import { ETF_MAX_DEPTH, decodeEtf } from '../src/core/gateway/etf-decode.js';
import { encodeEtf } from '../src/core/gateway/etf.js';
import { PlainEncoder, ZlibStreamEncoder, encoderFor } from '../src/gateway/transport.js';

/** A term's bytes after the version byte. */
const term = (...bytes: number[]) => Buffer.from([131, ...bytes]);
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const binary = (text: string) => [109, ...u32(Buffer.byteLength(text)), ...Buffer.from(text)];
const encode = (value: unknown) => Buffer.from(encodeEtf(value));

/** A decoded value with plain objects (the decoder's maps have no prototype) for deep equality. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).map((k) => [k, plain((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Strings as UTF-8 carries them: a lone surrogate becomes U+FFFD on the wire (erlpack does the same). */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return Buffer.from(value, 'utf8').toString('utf8');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value).map((k) => [wellFormed(k), wellFormed((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function someKey(value: unknown, check: (key: string, inner: unknown) => boolean): boolean {
  if (Array.isArray(value)) return value.some((item) => someKey(item, check));
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.keys(record).some((key) => check(key, record[key]) || someKey(record[key], check));
}

/** Keys the JSON reader refuses too: `__proto__`, and `constructor` holding `prototype`. */
const poisoned = (value: unknown) =>
  someKey(
    value,
    (key, inner) =>
      key === '__proto__' ||
      (key === 'constructor' && typeof inner === 'object' && inner !== null && Object.hasOwn(inner, 'prototype')),
  );
/** erlpack sends keys that are array indices ("0", "17") as integers; v10 and slashd send binaries. */
const indexKeyed = (value: unknown) =>
  someKey(value, (key) => /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1);

/** A dispatch as slashd sends it: the shape of the payloads every test below derives from. */
const INTERACTION = {
  op: 0,
  t: 'INTERACTION_CREATE',
  s: 3,
  d: {
    id: '1345183757107209999',
    application_id: '1345183757107200001',
    type: 2,
    data: { id: '1345183757107200100', name: 'hello', type: 1, options: [{ name: 'n', type: 4, value: 300 }] },
    member: { user: { id: '1345183757107200002', username: 'alice', bot: false }, roles: [], nick: null },
    locale: 'en-US',
    version: 1,
    permissions: '2248473465835073',
    entitlements: [],
    ratio: 0.5,
  },
};

describe('encoding: what erlpack makes of the JSON value, byte for byte', () => {
  test('a dispatch: the same bytes as erlpack.pack, and erlpack reads back the JSON value', () => {
    assert.ok(encode(INTERACTION).equals(erlpack.pack(INTERACTION)));
    assert.deepEqual(erlpack.unpack(encode(INTERACTION)), INTERACTION);
  });

  test('each kind of term', () => {
    assert.deepEqual([...encode(null)], [131, 115, 3, ...Buffer.from('nil')]);
    assert.deepEqual([...encode(true)], [131, 115, 4, ...Buffer.from('true')]);
    assert.deepEqual([...encode(false)], [131, 115, 5, ...Buffer.from('false')]);
    assert.deepEqual([...encode(7)], [131, 97, 7]);
    assert.deepEqual([...encode(-1)], [131, 98, 255, 255, 255, 255]);
    assert.deepEqual([...encode(2 ** 31)], [131, 110, 4, 0, 0, 0, 0, 128], 'above int32: SMALL_BIG_EXT');
    assert.equal(encode(2 ** 32)[1], 70, 'beyond 32 bits: NEW_FLOAT_EXT, as erlpack');
    assert.equal(encode(-0)[1], 70);
    assert.deepEqual([...encode('é')], [131, ...binary('é')]);
    assert.deepEqual(
      [...encode('1345183757107209999')],
      [131, ...binary('1345183757107209999')],
      'snowflakes: binaries',
    );
    assert.deepEqual([...encode([])], [131, 106]);
    assert.deepEqual([...encode([1])], [131, 108, 0, 0, 0, 1, 97, 1, 106]);
    assert.deepEqual([...encode({ a: 1 })], [131, 116, 0, 0, 0, 1, ...binary('a'), 97, 1]);
    assert.deepEqual([...encode({ 1: 1 })], [131, 116, 0, 0, 0, 1, ...binary('1'), 97, 1], 'index-like keys too');
    assert.ok(encode('\ud800').equals(erlpack.pack('\ud800')), 'a lone surrogate: U+FFFD as erlpack');
    assert.throws(() => encodeEtf(() => 1), TypeError);
  });

  test('property: any JSON value encodes as erlpack encodes it and reads back through erlpack', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const ours = encode(value);
        if (!indexKeyed(value)) assert.ok(ours.equals(erlpack.pack(value)), 'the same bytes as erlpack');
        if (!poisoned(value)) assert.deepStrictEqual(erlpack.unpack(ours), wellFormed(value));
      }),
      { numRuns: 2000 },
    );
  });

  test('a large payload grows the buffer and stays exact', () => {
    const big = {
      items: Array.from({ length: 5000 }, (_, i) => ({ id: String(i), v: i * 1.5, s: 'x'.repeat(i % 40) })),
    };
    assert.ok(encode(big).equals(erlpack.pack(big)));
  });
});

describe('decoding: what erlpack sends, read as erlpack reads it', () => {
  test('property: any value erlpack packs reads back as erlpack.unpack reads it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const packed = erlpack.pack(value);
        const read = decodeEtf(packed);
        if (poisoned(value)) assert.equal(read, undefined, 'a poisoned key is refused');
        else assert.deepStrictEqual(plain(read), erlpack.unpack(packed));
      }),
      { numRuns: 2000 },
    );
  });

  test('property: slashd reads back what it encodes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!poisoned(value));
        assert.deepStrictEqual(plain(decodeEtf(encodeEtf(value))), wellFormed(value));
      }),
      { numRuns: 1000 },
    );
  });

  test('maps have no prototype; atoms, tuples, strings, floats and bigs as erlpack reads them', () => {
    const map = decodeEtf(erlpack.pack({ a: 1 })) as object;
    assert.equal(Object.getPrototypeOf(map), null);
    assert.equal(decodeEtf(term(100, 0, 3, ...Buffer.from('nil'))), null, 'ATOM_EXT nil');
    assert.equal(decodeEtf(term(115, 4, ...Buffer.from('null'))), null);
    assert.equal(decodeEtf(term(119, 4, ...Buffer.from('true'))), true, 'SMALL_ATOM_UTF8_EXT (OTP 26)');
    assert.equal(decodeEtf(term(118, 0, 5, ...Buffer.from('false'))), false, 'ATOM_UTF8_EXT');
    assert.equal(decodeEtf(term(115, 2, ...Buffer.from('ok'))), 'ok');
    assert.deepEqual(decodeEtf(term(104, 2, 97, 1, 97, 2)), [1, 2], 'SMALL_TUPLE_EXT');
    assert.deepEqual(decodeEtf(term(105, ...u32(1), 106)), [[]], 'LARGE_TUPLE_EXT');
    assert.deepEqual(decodeEtf(term(107, 0, 2, 104, 105)), [104, 105], 'STRING_EXT: its bytes, as erlpack');
    const floatText = Buffer.alloc(31);
    floatText.write('1.50000000000000000000e+00');
    assert.equal(decodeEtf(term(99, ...floatText)), 1.5, 'FLOAT_EXT');
    assert.equal(decodeEtf(term(110, 8, 0, ...Array<number>(8).fill(255))), '18446744073709551615', 'u64: a string');
    const snowflake = 1345183757107200015n;
    const digits = Array.from({ length: 8 }, (_, i) => Number((snowflake >> BigInt(8 * i)) & 0xffn));
    assert.equal(decodeEtf(term(110, 8, 0, ...digits)), '1345183757107200015', 'a snowflake sent as an integer');
    assert.equal(decodeEtf(term(110, 8, 1, 1, 0, 0, 0, 0, 0, 0, 1)), '-72057594037927937');
    assert.equal(decodeEtf(term(110, 4, 1, 5, 0, 0, 0)), -5);
    assert.equal(decodeEtf(term(111, ...u32(2), 0, 1, 1)), 257, 'LARGE_BIG_EXT');
    assert.equal(decodeEtf(term(98, 128, 0, 0, 0)), -(2 ** 31));
    assert.deepEqual(plain(decodeEtf(term(116, ...u32(1), 97, 5, 97, 6))), { 5: 6 }, 'an integer key');
    assert.equal(decodeEtf(term(...binary('\ufeffx'))), '\ufeffx', 'a leading U+FEFF is kept');
  });

  test('refused: anything malformed, or a term no gateway command holds', () => {
    const refused: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['another version', Buffer.from([130, 106])],
      ['no term', term()],
      ['trailing bytes', term(106, 106)],
      ['a truncated binary', term(109, 0, 0, 0, 9, 1)],
      ['an improper list', term(108, ...u32(1), 97, 1, 97, 2)],
      ['a list without tail', term(108, ...u32(1), 97, 1)],
      ['a big beyond 64 bits', term(110, 9, 0, ...Array<number>(9).fill(1))],
      ['NaN', term(70, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0)],
      ['Infinity', term(70, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0)],
      ['a float text that is none', term(99, ...Buffer.alloc(31, 'x'))],
      ['a list key', term(116, ...u32(1), 106, 97, 1)],
      ['__proto__', term(116, ...u32(1), ...binary('__proto__'), 116, ...u32(0))],
      [
        'constructor.prototype',
        term(116, ...u32(1), ...binary('constructor'), 116, ...u32(1), ...binary('prototype'), 106),
      ],
      ['a pid', term(103, 115, 1, 97, 0, 0, 0, 1, 0, 0, 0, 1, 0)],
      ['a reference', term(101, 115, 1, 97, 0, 0, 0, 1, 0)],
      ['a compressed term', term(80, ...u32(6), 0x78, 0x9c, 0xcb, 0x02, 0x00, 0x00, 0x6b, 0x00, 0x6b)],
      ['an unknown tag', term(200)],
    ];
    for (const [what, bytes] of refused) assert.equal(decodeEtf(bytes), undefined, what);
    const proto = decodeEtf(term(116, ...u32(1), ...binary('constructor'), 97, 1)) as Record<string, unknown>;
    assert.equal(proto.constructor, 1, 'a plain `constructor` key is an ordinary key');
  });

  test('bounded: declared counts beyond the payload are refused before any allocation; nesting stops', () => {
    assert.equal(decodeEtf(term(108, 0xff, 0xff, 0xff, 0xff, 106)), undefined, '4 billion items');
    assert.equal(decodeEtf(term(116, 0xff, 0xff, 0xff, 0xff)), undefined, '4 billion pairs');
    assert.equal(decodeEtf(term(105, 0xff, 0xff, 0xff, 0xff)), undefined);
    assert.equal(decodeEtf(term(109, 0xff, 0xff, 0xff, 0xff)), undefined, 'a 4 GiB binary');
    assert.equal(decodeEtf(term(111, 0xff, 0xff, 0xff, 0xff, 0)), undefined, 'a 4 GiB big integer');
    const nest = (depth: number) => term(...Array<number[]>(depth).fill([104, 1]).flat(), 106);
    assert.deepEqual(
      decodeEtf(nest(ETF_MAX_DEPTH)),
      JSON.parse('['.repeat(ETF_MAX_DEPTH + 1) + ']'.repeat(ETF_MAX_DEPTH + 1)),
    );
    assert.equal(decodeEtf(nest(ETF_MAX_DEPTH + 1)), undefined);
    assert.equal(decodeEtf(nest(2000)), undefined, 'a 4 KiB frame of tuples');
  });

  test('property: bytes mutated or cut from a valid payload never throw; what is read re-encodes', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
        (value, edits, cut) => {
          const bytes = Buffer.from(erlpack.pack(value));
          for (const [at, byte] of edits) if (bytes.length > 0) bytes[at % bytes.length] = byte;
          const sliced = bytes.subarray(0, bytes.length - (cut % 3));
          const read = decodeEtf(sliced);
          if (read !== undefined) encodeEtf(read);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('property: random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (tail) => {
        decodeEtf(Buffer.from([131, ...tail]));
        decodeEtf(tail);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('client payloads over ETF', () => {
  const codes = (bytes: Buffer, encoding: 'json' | 'etf' = 'etf') => {
    const read = readFrame(bytes, encoding);
    return read.kind === 'read' ? 0 : read.close.code;
  };

  test("eris's IDENTIFY, packed by erlpack, reads as its JSON would", () => {
    const identify = {
      op: 2,
      d: {
        token: 'Bot abc',
        v: 10,
        compress: false,
        large_threshold: 250,
        intents: 513,
        properties: { os: 'linux', browser: 'Eris', device: 'Eris' },
        shard: [0, 1],
        presence: { since: null, activities: [], status: 'online', afk: false },
      },
    };
    const frame = readFrame(erlpack.pack(identify), 'etf');
    assert.ok(frame.kind === 'read');
    assert.equal(frame.value.op, 2);
    const read = readIdentify(frame.value.d);
    assert.ok(read.kind === 'read');
    assert.deepEqual(read.value.shard, [0, 1]);
    assert.equal(read.value.token, 'abc');
    assert.equal(read.value.intents, 513);
    assert.deepEqual(plain(read.value.properties), identify.d.properties);
  });

  test('4002 for what is not ETF, over 4096 bytes, or a non-integer op; 4001 for an unknown op', () => {
    assert.equal(codes(erlpack.pack({ op: 1, d: null })), 0);
    assert.equal(codes(erlpack.pack({ op: 1, d: 12345678 })), 0);
    assert.equal(codes(Buffer.from('{"op":1,"d":null}')), 4002, 'JSON text on an ETF connection');
    assert.equal(codes(erlpack.pack({ op: 1, d: null }), 'json'), 4002, 'ETF on a JSON connection');
    assert.equal(codes(erlpack.pack({ op: 1, d: 'x'.repeat(4096) })), 4002);
    assert.equal(codes(erlpack.pack({ op: 1.5 })), 4002);
    assert.equal(codes(erlpack.pack([1])), 4002);
    assert.equal(codes(erlpack.pack({ op: 99 })), 4001);
    assert.equal(codes(erlpack.pack({ op: 10 })), 4001);
  });

  test('the URL query: encoding json or etf, compress zlib-stream or none', () => {
    const read = (query: string) => readGatewayQuery(new URLSearchParams(query));
    assert.deepEqual(read(''), { kind: 'read', value: { encoding: 'json', compress: null } });
    assert.deepEqual(read('v=10&encoding=etf'), { kind: 'read', value: { encoding: 'etf', compress: null } });
    assert.deepEqual(read('v=9&encoding=etf&compress=zlib-stream'), {
      kind: 'read',
      value: { encoding: 'etf', compress: 'zlib-stream' },
    });
    const code = (query: string) => {
      const r = read(query);
      return r.kind === 'close' ? r.close.code : 0;
    };
    assert.equal(code('v=8'), 4012);
    assert.equal(code('encoding=msgpack'), 4002);
    assert.equal(code('encoding=ETF'), 4002);
    assert.equal(code('encoding=etf&compress=zstd-stream'), 4002);
  });
});

describe('transport', () => {
  const text = JSON.stringify(INTERACTION);

  test('uncompressed ETF: one binary payload, the bytes of erlpack.pack', () => {
    const sent: (string | Buffer)[] = [];
    const encoder = encoderFor({ encoding: 'etf', compress: null });
    assert.equal(encoder.encoding, 'etf');
    encoder.encode(text, (data) => sent.push(data));
    assert.equal(sent.length, 1);
    assert.ok(Buffer.isBuffer(sent[0]) && sent[0].equals(erlpack.pack(INTERACTION)));
    const json: (string | Buffer)[] = [];
    new PlainEncoder('json').encode(text, (data) => json.push(data));
    assert.deepEqual(json, [text]);
  });

  test('ETF in a zlib stream: each frame ends in 00 00 ff ff and inflates to the next payload', async () => {
    const encoder = new ZlibStreamEncoder('etf');
    const frames: Buffer[] = [];
    const second = { ...INTERACTION, s: 4 };
    encoder.encode(text, (data) => frames.push(data));
    encoder.encode(JSON.stringify(second), (data) => frames.push(data));
    await new Promise<void>((resolve) => encoder.whenIdle(resolve));
    encoder.close();
    assert.equal(frames.length, 2);
    for (const frame of frames) assert.equal(frame.subarray(-4).toString('hex'), '0000ffff');
    const first = inflateSync(frames[0]!, { finishFlush: constants.Z_SYNC_FLUSH });
    const both = inflateSync(Buffer.concat(frames), { finishFlush: constants.Z_SYNC_FLUSH });
    assert.ok(first.equals(erlpack.pack(INTERACTION)));
    assert.ok(both.subarray(first.length).equals(erlpack.pack(second)));
  });
});
