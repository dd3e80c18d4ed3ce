/** Choices: at most 25; names 1-100; values of the option's type, strings up to 100 characters. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateCreateCommand } from '../src/core/validation/index.js';
import {
  BASE_TYPE_BAD_LENGTH,
  BASE_TYPE_CHOICES,
  BASE_TYPE_MAX_LENGTH,
  BASE_TYPE_REQUIRED,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  NUMBER_TYPE_COERCE,
  NUMBER_TYPE_MAX,
  NUMBER_TYPE_MIN,
  STRING_TYPE_CONVERT,
} from '../src/core/io/codes.js';
import { check, runCases, GLOBAL, type Path } from './helpers/validation-cases.js';

function withChoices(type: number, choices: unknown): Record<string, unknown> {
  return { name: 'cmd', description: 'd', options: [{ type, name: 'o', description: 'd', choices }] };
}
const stringChoices = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `c${i}`, value: `v${i}` }));
const one = (type: number, choice: Record<string, unknown>) => withChoices(type, [choice]);
const at = (...rest: (string | number)[]): Path => ['options', 0, 'choices', ...rest];

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO_53 = 2 ** 53;

describe('number of choices', () => {
  runCases([
    { name: '25 choices', body: withChoices(3, stringChoices(25)), expect: [] },
    { name: '26 choices', body: withChoices(3, stringChoices(26)), expect: [[at(), BASE_TYPE_MAX_LENGTH]] },
    { name: 'not a list', body: withChoices(3, { name: 'a', value: 'a' }), expect: [[at(), LIST_TYPE_CONVERT]] },
    { name: 'a choice that is not an object', body: withChoices(3, ['a']), expect: [[at(0), DICT_TYPE_CONVERT]] },
  ]);
});

describe('choice names', () => {
  runCases([
    { name: '1 character', body: one(3, { name: 'a', value: 'a' }), expect: [] },
    { name: 'empty', body: one(3, { name: '', value: 'a' }), expect: [[at(0, 'name'), BASE_TYPE_BAD_LENGTH]] },
    { name: '100 characters', body: one(3, { name: 'N'.repeat(100), value: 'a' }), expect: [] },
    {
      name: '101 characters',
      body: one(3, { name: 'N'.repeat(101), value: 'a' }),
      expect: [[at(0, 'name'), BASE_TYPE_BAD_LENGTH]],
    },
    { name: 'mixed case and spaces are fine', body: one(3, { name: 'Red Apple!', value: 'a' }), expect: [] },
    { name: 'missing', body: one(3, { value: 'a' }), expect: [[at(0, 'name'), BASE_TYPE_REQUIRED]] },
    { name: 'a number', body: one(3, { name: 1, value: 'a' }), expect: [[at(0, 'name'), STRING_TYPE_CONVERT]] },
    {
      name: 'localized: 100 characters',
      body: one(3, { name: 'a', value: 'a', name_localizations: { fr: 'n'.repeat(100) } }),
      expect: [],
    },
    {
      name: 'localized: 101 characters',
      body: one(3, { name: 'a', value: 'a', name_localizations: { fr: 'n'.repeat(101) } }),
      expect: [[at(0, 'name_localizations', 'fr'), BASE_TYPE_BAD_LENGTH]],
    },
    {
      name: 'localized: unknown locale',
      body: one(3, { name: 'a', value: 'a', name_localizations: { xx: 'b' } }),
      expect: [[at(0, 'name_localizations', 'xx'), BASE_TYPE_CHOICES]],
    },
  ]);
});

describe('STRING choice values', () => {
  runCases([
    { name: 'empty', body: one(3, { name: 'a', value: '' }), expect: [] },
    { name: '100 characters', body: one(3, { name: 'a', value: 'v'.repeat(100) }), expect: [] },
    {
      name: '101 characters',
      body: one(3, { name: 'a', value: 'v'.repeat(101) }),
      expect: [[at(0, 'value'), BASE_TYPE_MAX_LENGTH]],
    },
    { name: '100 astral letters', body: one(3, { name: 'a', value: '\u{20000}'.repeat(100) }), expect: [] },
    { name: 'a number', body: one(3, { name: 'a', value: 1 }), expect: [[at(0, 'value'), STRING_TYPE_CONVERT]] },
    { name: 'missing', body: one(3, { name: 'a' }), expect: [[at(0, 'value'), BASE_TYPE_REQUIRED]] },
    { name: 'null', body: one(3, { name: 'a', value: null }), expect: [[at(0, 'value'), BASE_TYPE_REQUIRED]] },
  ]);
});

describe('INTEGER choice values', () => {
  runCases([
    { name: '2^53-1', body: one(4, { name: 'a', value: MAX_SAFE }), expect: [] },
    { name: '2^53', body: one(4, { name: 'a', value: TWO_53 }), expect: [[at(0, 'value'), NUMBER_TYPE_MAX]] },
    { name: '-(2^53-1)', body: one(4, { name: 'a', value: -MAX_SAFE }), expect: [] },
    { name: '-2^53', body: one(4, { name: 'a', value: -TWO_53 }), expect: [[at(0, 'value'), NUMBER_TYPE_MIN]] },
    { name: 'a fraction', body: one(4, { name: 'a', value: 1.5 }), expect: [[at(0, 'value'), NUMBER_TYPE_COERCE]] },
    { name: 'a string', body: one(4, { name: 'a', value: '1' }), expect: [[at(0, 'value'), NUMBER_TYPE_COERCE]] },
  ]);
});

describe('NUMBER choice values', () => {
  runCases([
    { name: '2^53', body: one(10, { name: 'a', value: TWO_53 }), expect: [] },
    {
      name: 'above 2^53',
      body: one(10, { name: 'a', value: TWO_53 + 2 }),
      expect: [[at(0, 'value'), NUMBER_TYPE_MAX]],
    },
    { name: '-2^53', body: one(10, { name: 'a', value: -TWO_53 }), expect: [] },
    {
      name: 'below -2^53',
      body: one(10, { name: 'a', value: -TWO_53 - 2 }),
      expect: [[at(0, 'value'), NUMBER_TYPE_MIN]],
    },
    { name: 'a fraction', body: one(10, { name: 'a', value: 0.125 }), expect: [] },
    { name: 'a string', body: one(10, { name: 'a', value: '0.5' }), expect: [[at(0, 'value'), NUMBER_TYPE_COERCE]] },
  ]);
});

describe('every violation is reported', () => {
  test('several choices, several problems', () => {
    check({
      name: '',
      body: withChoices(4, [
        { name: '', value: 1 },
        { name: 'ok', value: 2 },
        { name: 'b', value: 'x' },
        { value: 2 ** 60 },
      ]),
      expect: [
        [at(0, 'name'), BASE_TYPE_BAD_LENGTH],
        [at(2, 'value'), NUMBER_TYPE_COERCE],
        [at(3, 'name'), BASE_TYPE_REQUIRED],
        [at(3, 'value'), NUMBER_TYPE_MAX],
      ],
    });
  });

  test('choices are stored with null localizations by default', () => {
    const result = validateCreateCommand(
      withChoices(10, [{ name: 'Half', value: 0.5, name_localizations: { fr: 'Moitié', de: 'Half' } }]),
      GLOBAL,
    );
    assert.ok(result.ok);
    // The stored dictionary has no prototype (client keys); compared as it leaves on the wire.
    assert.deepEqual(JSON.parse(JSON.stringify(result.value.options[0]?.choices)), [
      { name: 'Half', name_localizations: { fr: 'Moitié' }, value: 0.5 },
    ]);
    assert.equal(Object.getPrototypeOf(result.value.options[0]?.choices?.[0]?.name_localizations), null);
  });
});
