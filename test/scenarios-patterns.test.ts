/**
 * Scenario `matches` patterns on V8's linear-time engine: a count above the engine's 16 on a single
 * atom (`\d{17,20}`, what the console's recorder writes for a snowflake) is taken, and matches the
 * same texts as the backtracking engine would; a group counted past 16, a backreference and a
 * lookaround are refused with the reason.
 */
import '../src/testing/scenarios/linear-engine.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { linearPattern } from '../src/core/scenarios/patterns.js';

function compiled(text: string): RegExp {
  const pattern = linearPattern(text);
  assert.ok(pattern instanceof RegExp, `${text}: ${JSON.stringify(pattern)}`);
  return pattern;
}

describe('scenario patterns in linear time', () => {
  test("the recorder's snowflake and time patterns compile and match", () => {
    const id = compiled('^<@\\d{17,20}> at \\d{4}-\\d{2}-\\d{2}T[0-9:.]+(?:Z|[+-]\\d{2}:\\d{2})$');
    assert.ok(id.test('<@1335036896870400001> at 2026-12-02T07:20:00.000Z'));
    assert.ok(!id.test('<@1335036896870400> at 2026-12-02T07:20:00.000Z'), 'sixteen digits are no snowflake');
    assert.ok(!id.test('<@133503689687040000123> at 2026-12-02T07:20:00Z'), 'nor are 21');
  });

  test('large counts on atoms match exactly what the backtracking engine matches', () => {
    const atom = fc.constantFrom('a', '\\x61', '[ab]', '.', '\\w', '(?:a)');
    const count = fc
      .tuple(fc.nat(40), fc.option(fc.nat(40), { nil: undefined }), fc.boolean(), fc.boolean())
      .map(([min, extra, unbounded, lazy]) => {
        const bounds = unbounded ? `${min},` : extra === undefined ? `${min}` : `${min},${min + extra}`;
        return `{${bounds}}${lazy ? '?' : ''}`;
      });
    fc.assert(
      fc.property(atom, count, fc.nat(90), fc.constantFrom('a', 'b', 'c'), (unit, counted, length, tail) => {
        const text = `^${unit}${counted}$`;
        const pattern = linearPattern(text);
        if (!(pattern instanceof RegExp)) {
          // Only a group's count may be refused, and only past 16.
          assert.equal(unit, '(?:a)', `${text}: ${JSON.stringify(pattern)}`);
          return;
        }
        const input = 'a'.repeat(length) + (length % 3 === 0 ? tail : '');
        assert.equal(pattern.test(input), new RegExp(text).test(input), `${text} on ${input.length} characters`);
      }),
      { numRuns: 500, seed: 35 },
    );
  });

  test('what cannot run in linear time is refused with the reason', () => {
    for (const text of ['^(a)\\1$', '^(?=a)a$', '^(?<=a)b$', '^(?:ab){17}$']) {
      const pattern = linearPattern(text);
      assert.ok(!(pattern instanceof RegExp), text);
      assert.match(pattern.problem, /runs in time linear in the text/);
    }
  });
});
