/** The byte-bounded LRU of the read caches: the cap holds whatever happens, and tags drop exactly their entries. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { approximateBytes, ByteLru, ENTRY_OVERHEAD_BYTES, FrozenViewMemo } from '../src/core/byte-lru.js';
import { deepFreeze } from '../src/core/frozen-memo.js';

describe('ByteLru', () => {
  it('drops the least recently used entries once the cap is passed', () => {
    const lru = new ByteLru<string>(30);
    lru.set('a', 'A', 10);
    lru.set('b', 'B', 10);
    lru.set('c', 'C', 10);
    assert.equal(lru.get('a'), 'A', 'a becomes the most recently used');
    lru.set('d', 'D', 10);
    assert.equal(lru.has('b'), false, 'b was the least recently used');
    assert.deepEqual(
      ['a', 'c', 'd'].map((k) => lru.get(k)),
      ['A', 'C', 'D'],
    );
    assert.equal(lru.bytes, 30);
  });

  it('when every entry was read since stored, a new one still stays and the oldest goes', () => {
    const lru = new ByteLru<string>(30);
    for (const key of ['a', 'b', 'c']) lru.set(key, key, 10);
    for (const key of ['a', 'b', 'c']) lru.get(key);
    lru.set('d', 'd', 10);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((k) => lru.has(k)),
      [false, true, true, true],
    );
    lru.get('b');
    lru.set('e', 'e', 10);
    assert.deepEqual(
      ['b', 'c', 'd', 'e'].map((k) => lru.has(k)),
      [true, false, true, true],
      'b was read again, c was not',
    );
  });

  it('keeps no value larger than the whole cap, nor the older value of its key', () => {
    const lru = new ByteLru<string>(100);
    lru.set('k', 'small', 10);
    lru.set('k', 'huge', 101);
    assert.equal(lru.get('k'), undefined);
    assert.equal(lru.bytes, 0);
  });

  it('a cap of 0 caches nothing; a negative cap is refused', () => {
    const lru = new ByteLru<string>(0);
    lru.set('k', 'v', 1);
    assert.equal(lru.size, 0);
    assert.throws(() => new ByteLru(-1), RangeError);
  });

  it('deleteTagged drops the entries of that tag and keeps the others', () => {
    const lru = new ByteLru<number>(1000);
    lru.set('user:1', 1, 10, ['user:1']);
    lru.set('token:x', 1, 10, ['user:1']);
    lru.set('user:2', 2, 10, ['user:2']);
    lru.deleteTagged('user:1');
    assert.deepEqual([lru.has('user:1'), lru.has('token:x'), lru.has('user:2')], [false, false, true]);
    assert.equal(lru.bytes, 10);
  });

  it('counts the entries dropped to make room, not those a write drops or a value replaced', () => {
    const lru = new ByteLru<string>(30);
    lru.set('a', 'A', 10, ['t']);
    lru.set('b', 'B', 10);
    lru.set('b', 'B2', 10);
    lru.deleteTagged('t');
    lru.delete('b');
    assert.equal(lru.evictions, 0);
    for (const key of ['c', 'd', 'e', 'f', 'g']) lru.set(key, key, 10);
    assert.equal(lru.evictions, 2, 'two entries went for the last two');
  });

  it('sizes a parsed value from its JSON length', () => {
    assert.equal(approximateBytes(0), ENTRY_OVERHEAD_BYTES);
    assert.ok(approximateBytes(1000) > approximateBytes(100));
  });

  it('property: the byte total never exceeds the cap and always equals the sum of the entries kept', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
    const tag = fc.constantFrom('t1', 't2', 't3');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key, bytes: fc.nat(120), tags: fc.subarray(['t1', 't2', 't3']) }),
      fc.record({ kind: fc.constant('get' as const), key }),
      fc.record({ kind: fc.constant('delete' as const), key }),
      fc.record({ kind: fc.constant('tag' as const), tag }),
    );
    fc.assert(
      fc.property(fc.nat(300), fc.array(op, { maxLength: 80 }), (cap, ops) => {
        const lru = new ByteLru<number>(cap);
        const sizes = new Map<string, number>();
        const tagsOf = new Map<string, readonly string[]>();
        for (const o of ops) {
          if (o.kind === 'set') {
            lru.set(o.key, o.bytes, o.bytes, o.tags);
            sizes.set(o.key, o.bytes);
            tagsOf.set(o.key, o.tags);
            // The value just stored is kept whenever it fits on its own.
            assert.equal(lru.has(o.key), o.bytes <= cap);
          } else if (o.kind === 'get') lru.get(o.key);
          else if (o.kind === 'delete') lru.delete(o.key);
          else {
            lru.deleteTagged(o.tag);
            for (const [k, tags] of tagsOf) if (tags.includes(o.tag)) assert.equal(lru.has(k), false);
          }
          assert.ok(lru.bytes <= cap, `${lru.bytes} > ${cap}`);
          let sum = 0;
          for (const [k, bytes] of sizes) if (lru.has(k)) sum += bytes;
          assert.equal(lru.bytes, sum);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('FrozenViewMemo', () => {
  it('computes once per deeply frozen object and view, every time for anything else', () => {
    const memo = new FrozenViewMemo<object, string>(1_000_000, (v) => v.length);
    let computed = 0;
    const render = (view: string) => () => `${view}:${++computed}`;
    const frozen = deepFreeze({ list: [1, 2] });
    assert.equal(memo.get(frozen, 'fr', render('fr')), 'fr:1');
    assert.equal(memo.get(frozen, 'fr', render('fr')), 'fr:1');
    assert.equal(memo.get(frozen, 'de', render('de')), 'de:2');
    const shallow = Object.freeze({ list: [1, 2] });
    assert.equal(memo.get(shallow, 'fr', render('fr')), 'fr:3');
    assert.equal(memo.get(shallow, 'fr', render('fr')), 'fr:4', 'its inside may still change');
  });

  it('keeps its renderings under the cap, however many objects and views', () => {
    const cap = 64 * 1024;
    const memo = new FrozenViewMemo<object, string>(cap, (v) => v.length);
    for (let i = 0; i < 200; i++) {
      const key = deepFreeze({ i });
      for (const view of ['a', 'b', 'c']) memo.get(key, view, () => 'x'.repeat(1000));
      assert.ok(memo.bytes <= cap);
    }
    assert.ok(memo.bytes > 0);
  });
});
