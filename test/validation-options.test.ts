/** Options: which fields apply to which type, value and length bounds, and the rules of one level. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateCreateCommand } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
  APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES as AUTOCOMPLETE_CHOICES,
  APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED as NOT_ALLOWED,
  APPLICATION_COMMAND_OPTION_RANGE_INVALID as RANGE_INVALID,
  APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME as DUPLICATE_NAME,
  APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID as REQUIRED_INVALID,
  BASE_TYPE_CHOICES,
  BASE_TYPE_MAX_LENGTH,
  BASE_TYPE_REQUIRED,
  BOOLEAN_TYPE_CONVERT,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  LIST_TYPE_DUPLICATE_VALUE,
  NUMBER_TYPE_COERCE,
  NUMBER_TYPE_MAX,
  NUMBER_TYPE_MIN,
} from '../src/core/io/codes.js';
import { check, runCases, GLOBAL, type Path } from './helpers/validation-cases.js';

/** A command whose only option is `option` (a description and name filled in when omitted). */
function withOption(option: Record<string, unknown>): Record<string, unknown> {
  return { name: 'cmd', description: 'd', options: [{ name: 'o', description: 'd', ...option }] };
}

function withOptions(options: readonly Record<string, unknown>[]): Record<string, unknown> {
  return { name: 'cmd', description: 'd', options };
}

const TYPE_NAMES: Record<number, string> = {
  1: 'SUB_COMMAND',
  2: 'SUB_COMMAND_GROUP',
  3: 'STRING',
  4: 'INTEGER',
  5: 'BOOLEAN',
  6: 'USER',
  7: 'CHANNEL',
  8: 'ROLE',
  9: 'MENTIONABLE',
  10: 'NUMBER',
  11: 'ATTACHMENT',
};

/** The v10 API's "Applies to" column. */
const APPLIES_TO: Record<string, readonly number[]> = {
  required: [3, 4, 5, 6, 7, 8, 9, 10, 11],
  choices: [3, 4, 10],
  options: [1, 2],
  channel_types: [7],
  min_value: [4, 10],
  max_value: [4, 10],
  min_length: [3],
  max_length: [3],
  autocomplete: [3, 4, 10],
};

/** A value of each field that means something (so it is refused where the field does not apply). */
const MEANINGFUL: Record<string, unknown> = {
  required: true,
  choices: [{ name: 'a', value: 1 }],
  options: [{ type: 3, name: 'x', description: 'd' }],
  channel_types: [0],
  min_value: 1,
  max_value: 1,
  min_length: 1,
  max_length: 1,
  autocomplete: true,
};

describe('each option field only where it applies', () => {
  for (const [field, types] of Object.entries(APPLIES_TO)) {
    for (let type = 1; type <= 11; type++) {
      if (types.includes(type)) continue;
      test(`${field} on ${TYPE_NAMES[type]} is refused`, () =>
        check({
          name: '',
          body: withOption({ type, [field]: MEANINGFUL[field] }),
          expect: [[['options', 0, field], NOT_ALLOWED]],
        }));
    }
  }
  for (const [field, types] of Object.entries(APPLIES_TO)) {
    const type = types[0] ?? 3;
    const value = field === 'choices' ? [{ name: 'a', value: 'a' }] : MEANINGFUL[field];
    test(`${field} on ${TYPE_NAMES[type]} is accepted`, () =>
      check({ name: '', body: withOption({ type, [field]: value }), expect: [] }));
  }
  runCases([
    {
      name: 'null on a type it does not apply to counts as absent',
      body: withOption({ type: 5, choices: null, min_value: null }),
      expect: [],
    },
    {
      name: 'required: false on a subcommand counts as absent',
      body: withOption({ type: 1, required: false }),
      expect: [],
    },
    {
      name: 'autocomplete: false on BOOLEAN counts as absent',
      body: withOption({ type: 5, autocomplete: false }),
      expect: [],
    },
    {
      name: 'an empty list on a type it does not apply to counts as absent',
      body: withOption({ type: 6, choices: [], options: [], channel_types: [] }),
      expect: [],
    },
    {
      name: 'min_value: 0 on STRING is a value',
      body: withOption({ type: 3, min_value: 0 }),
      expect: [[['options', 0, 'min_value'], NOT_ALLOWED]],
    },
  ]);
});

describe('option type', () => {
  const at = ['options', 0, 'type'];
  runCases([
    { name: '1 (SUB_COMMAND) is the lowest', body: withOption({ type: 1 }), expect: [] },
    { name: '0 is below the enum', body: withOption({ type: 0 }), expect: [[at, BASE_TYPE_CHOICES]] },
    { name: '11 (ATTACHMENT) is the highest', body: withOption({ type: 11 }), expect: [] },
    { name: '12 is past the enum', body: withOption({ type: 12 }), expect: [[at, BASE_TYPE_CHOICES]] },
    { name: 'missing', body: withOption({}), expect: [[at, BASE_TYPE_REQUIRED]] },
    { name: 'a string', body: withOption({ type: '3' }), expect: [[at, NUMBER_TYPE_COERCE]] },
    { name: 'not an integer', body: withOption({ type: 3.5 }), expect: [[at, NUMBER_TYPE_COERCE]] },
    {
      name: 'an option that is not an object',
      body: withOptions(['o' as unknown as Record<string, unknown>]),
      expect: [[['options', 0], DICT_TYPE_CONVERT]],
    },
    {
      name: 'options that are not a list',
      body: { name: 'cmd', description: 'd', options: { 0: {} } },
      expect: [[['options'], LIST_TYPE_CONVERT]],
    },
  ]);
});

describe('channel_types', () => {
  const at = (index: number): Path => ['options', 0, 'channel_types', index];
  for (const channelType of [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16]) {
    test(`channel type ${channelType} is valid`, () =>
      check({ name: '', body: withOption({ type: 7, channel_types: [channelType] }), expect: [] }));
  }
  runCases([
    {
      name: '-1 is not a channel type',
      body: withOption({ type: 7, channel_types: [-1] }),
      expect: [[at(0), BASE_TYPE_CHOICES]],
    },
    {
      name: '6 is not a channel type',
      body: withOption({ type: 7, channel_types: [0, 6] }),
      expect: [[at(1), BASE_TYPE_CHOICES]],
    },
    {
      name: '9 is not a channel type',
      body: withOption({ type: 7, channel_types: [9] }),
      expect: [[at(0), BASE_TYPE_CHOICES]],
    },
    {
      name: '17 is past the last channel type',
      body: withOption({ type: 7, channel_types: [17] }),
      expect: [[at(0), BASE_TYPE_CHOICES]],
    },
    {
      name: 'a duplicate',
      body: withOption({ type: 7, channel_types: [0, 0] }),
      expect: [[at(1), LIST_TYPE_DUPLICATE_VALUE]],
    },
    {
      name: 'a string entry',
      body: withOption({ type: 7, channel_types: ['0'] }),
      expect: [[at(0), NUMBER_TYPE_COERCE]],
    },
    {
      name: 'not a list',
      body: withOption({ type: 7, channel_types: 0 }),
      expect: [[['options', 0, 'channel_types'], LIST_TYPE_CONVERT]],
    },
    {
      name: 'every valid type at once',
      body: withOption({ type: 7, channel_types: [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16] }),
      expect: [],
    },
  ]);
});

describe('min_value and max_value', () => {
  const MAX_SAFE = Number.MAX_SAFE_INTEGER;
  const TWO_53 = 2 ** 53;
  const min = ['options', 0, 'min_value'];
  const max = ['options', 0, 'max_value'];
  runCases([
    { name: 'INTEGER: min_value -(2^53-1)', body: withOption({ type: 4, min_value: -MAX_SAFE }), expect: [] },
    {
      name: 'INTEGER: min_value -2^53',
      body: withOption({ type: 4, min_value: -TWO_53 }),
      expect: [[min, NUMBER_TYPE_MIN]],
    },
    { name: 'INTEGER: max_value 2^53-1', body: withOption({ type: 4, max_value: MAX_SAFE }), expect: [] },
    {
      name: 'INTEGER: max_value 2^53',
      body: withOption({ type: 4, max_value: TWO_53 }),
      expect: [[max, NUMBER_TYPE_MAX]],
    },
    { name: 'INTEGER: a fraction', body: withOption({ type: 4, min_value: 1.5 }), expect: [[min, NUMBER_TYPE_COERCE]] },
    { name: 'INTEGER: a string', body: withOption({ type: 4, max_value: '5' }), expect: [[max, NUMBER_TYPE_COERCE]] },
    { name: 'NUMBER: min_value -2^53', body: withOption({ type: 10, min_value: -TWO_53 }), expect: [] },
    {
      name: 'NUMBER: min_value below -2^53',
      body: withOption({ type: 10, min_value: -TWO_53 - 2 }),
      expect: [[min, NUMBER_TYPE_MIN]],
    },
    { name: 'NUMBER: max_value 2^53', body: withOption({ type: 10, max_value: TWO_53 }), expect: [] },
    {
      name: 'NUMBER: max_value above 2^53',
      body: withOption({ type: 10, max_value: TWO_53 + 2 }),
      expect: [[max, NUMBER_TYPE_MAX]],
    },
    { name: 'NUMBER: a fraction', body: withOption({ type: 10, min_value: -0.25, max_value: 0.75 }), expect: [] },
    { name: 'NUMBER: a boolean', body: withOption({ type: 10, min_value: true }), expect: [[min, NUMBER_TYPE_COERCE]] },
    { name: 'min equal to max', body: withOption({ type: 4, min_value: 5, max_value: 5 }), expect: [] },
    {
      name: 'min above max',
      body: withOption({ type: 4, min_value: 6, max_value: 5 }),
      expect: [[max, RANGE_INVALID]],
    },
    {
      name: 'NUMBER: min just above max',
      body: withOption({ type: 10, min_value: 0.5, max_value: 0.25 }),
      expect: [[max, RANGE_INVALID]],
    },
  ]);

  test('bounds are stored as given', () => {
    const result = validateCreateCommand(withOption({ type: 10, min_value: -1.5, max_value: 2 }), GLOBAL);
    assert.ok(result.ok);
    assert.equal(result.value.options[0]?.min_value, -1.5);
    assert.equal(result.value.options[0]?.max_value, 2);
  });
});

describe('min_length and max_length', () => {
  const min = ['options', 0, 'min_length'];
  const max = ['options', 0, 'max_length'];
  runCases([
    { name: 'min_length 0', body: withOption({ type: 3, min_length: 0 }), expect: [] },
    { name: 'min_length -1', body: withOption({ type: 3, min_length: -1 }), expect: [[min, NUMBER_TYPE_MIN]] },
    { name: 'min_length 6000', body: withOption({ type: 3, min_length: 6000 }), expect: [] },
    { name: 'min_length 6001', body: withOption({ type: 3, min_length: 6001 }), expect: [[min, NUMBER_TYPE_MAX]] },
    { name: 'max_length 1', body: withOption({ type: 3, max_length: 1 }), expect: [] },
    { name: 'max_length 0', body: withOption({ type: 3, max_length: 0 }), expect: [[max, NUMBER_TYPE_MIN]] },
    { name: 'max_length 6000', body: withOption({ type: 3, max_length: 6000 }), expect: [] },
    { name: 'max_length 6001', body: withOption({ type: 3, max_length: 6001 }), expect: [[max, NUMBER_TYPE_MAX]] },
    { name: 'a fraction', body: withOption({ type: 3, max_length: 1.5 }), expect: [[max, NUMBER_TYPE_COERCE]] },
    { name: 'a string', body: withOption({ type: 3, min_length: '1' }), expect: [[min, NUMBER_TYPE_COERCE]] },
    { name: 'min equal to max', body: withOption({ type: 3, min_length: 10, max_length: 10 }), expect: [] },
    {
      name: 'min above max',
      body: withOption({ type: 3, min_length: 11, max_length: 10 }),
      expect: [[max, RANGE_INVALID]],
    },
  ]);
});

describe('required and autocomplete', () => {
  const choices = [{ name: 'a', value: 'a' }];
  runCases([
    { name: 'autocomplete on STRING', body: withOption({ type: 3, autocomplete: true }), expect: [] },
    { name: 'autocomplete on INTEGER', body: withOption({ type: 4, autocomplete: true }), expect: [] },
    { name: 'autocomplete on NUMBER', body: withOption({ type: 10, autocomplete: true }), expect: [] },
    {
      name: 'autocomplete false with choices',
      body: withOption({ type: 3, autocomplete: false, choices }),
      expect: [],
    },
    {
      name: 'autocomplete true with empty choices',
      body: withOption({ type: 3, autocomplete: true, choices: [] }),
      expect: [],
    },
    {
      name: 'autocomplete true with choices',
      body: withOption({ type: 3, autocomplete: true, choices }),
      expect: [[['options', 0, 'autocomplete'], AUTOCOMPLETE_CHOICES]],
    },
    {
      name: 'autocomplete not a boolean',
      body: withOption({ type: 3, autocomplete: 'true' }),
      expect: [[['options', 0, 'autocomplete'], BOOLEAN_TYPE_CONVERT]],
    },
    {
      name: 'required not a boolean',
      body: withOption({ type: 3, required: 1 }),
      expect: [[['options', 0, 'required'], BOOLEAN_TYPE_CONVERT]],
    },
  ]);
});

describe('one level of options', () => {
  const plain = (index: number, extra: Record<string, unknown> = {}) => ({
    type: 3,
    name: `o${index}`,
    description: 'd',
    ...extra,
  });
  runCases([
    { name: '25 options', body: withOptions(Array.from({ length: 25 }, (_, i) => plain(i))), expect: [] },
    {
      name: '26 options',
      body: withOptions(Array.from({ length: 26 }, (_, i) => plain(i))),
      expect: [[['options'], BASE_TYPE_MAX_LENGTH]],
    },
    { name: 'distinct names', body: withOptions([plain(1), plain(2)]), expect: [] },
    {
      name: 'a repeated name',
      body: withOptions([plain(1), plain(2), plain(1)]),
      expect: [[['options', 2, 'name'], DUPLICATE_NAME]],
    },
    {
      name: 'required, then optional',
      body: withOptions([
        plain(1, { required: true }),
        plain(2, { required: true }),
        plain(3),
        plain(4, { required: false }),
      ]),
      expect: [],
    },
    {
      name: 'optional, then required',
      body: withOptions([plain(1), plain(2, { required: true })]),
      expect: [[['options', 1, 'required'], REQUIRED_INVALID]],
    },
    {
      name: 'every late required option is reported',
      body: withOptions([
        plain(1, { required: true }),
        plain(2),
        plain(3, { required: true }),
        plain(4, { required: true }),
      ]),
      expect: [
        [['options', 2, 'required'], REQUIRED_INVALID],
        [['options', 3, 'required'], REQUIRED_INVALID],
      ],
    },
  ]);
});

describe('normalized options', () => {
  test('fields that apply get defaults; fields that do not are absent', () => {
    const result = validateCreateCommand(
      withOptions([
        { type: 3, name: 's', description: 'd', choices: [], channel_types: [] },
        { type: 7, name: 'c', description: 'd', channel_types: [0, 2] },
        { type: 4, name: 'i', description: 'd', autocomplete: true, min_value: 1 },
      ]),
      GLOBAL,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.value.options, [
      {
        type: 3,
        name: 's',
        name_localizations: null,
        description: 'd',
        description_localizations: null,
        required: false,
      },
      {
        type: 7,
        name: 'c',
        name_localizations: null,
        description: 'd',
        description_localizations: null,
        required: false,
        channel_types: [0, 2],
      },
      {
        type: 4,
        name: 'i',
        name_localizations: null,
        description: 'd',
        description_localizations: null,
        required: false,
        min_value: 1,
        autocomplete: true,
      },
    ]);
  });

  test('options only on CHAT_INPUT', () => {
    const result = validateCreateCommand(
      { type: 2, name: 'User', options: [{ type: 3, name: 'o', description: 'd' }] },
      GLOBAL,
    );
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.issues.map((i) => [i.path, i.code]), [
      [['options'], APPLICATION_COMMAND_FIELD_NOT_ALLOWED],
    ]);
  });
});
