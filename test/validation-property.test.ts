/**
 * Properties: generated valid commands are accepted (and normalize to a fixed point); mutated ones
 * are rejected with well-formed issues; no JSON input (or any value at all) makes validation throw.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Issue } from '../src/core/io/issue.js';
import { SUPPORTED_LOCALES } from '../src/core/locales.js';
import {
  validateBulkOverwrite,
  validateCreateCommand,
  validatePatchCommand,
  type Result,
  type ValidationContext,
} from '../src/core/validation/index.js';

const RUNS = { numRuns: 200 };
const GLOBAL: ValidationContext = {
  scope: 'global',
  app: { flags: 1 << 17, integration_types: [0, 1], discoverable: false },
};
const GUILD: ValidationContext = { scope: 'guild', app: { flags: 0, integration_types: [0], discoverable: true } };

type Json = Record<string, unknown>;

// ---- valid commands -------------------------------------------------------------------------

/** Name characters: ASCII, cased letters in lowercase, uncased letters, Devanagari and Thai marks. No apostrophe (see below). */
const NAME_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789-_ñßäøçğж日本नमस्तेสวัสดี'];
const slashName = fc.array(fc.constantFrom(...NAME_CHARACTERS), { minLength: 1, maxLength: 28 }).map((c) => c.join(''));
const freeformName = fc
  .string({ minLength: 1, maxLength: 32, unit: 'grapheme-ascii' })
  .filter((s) => [...s].length <= 32);
const description = fc.string({ minLength: 1, maxLength: 100 });
const shortText = fc.string({ minLength: 1, maxLength: 30 });
const locales = fc.uniqueArray(fc.nat({ max: SUPPORTED_LOCALES.length - 1 }), { maxLength: 3 });

/**
 * Localized names are the default plus an apostrophe and the locale's index: never equal to a
 * default (defaults have no apostrophe), and equal between siblings only if their defaults are.
 */
function localizeName(name: string, indexes: readonly number[]): Json {
  return Object.fromEntries(indexes.map((i) => [SUPPORTED_LOCALES[i], `${name}'${i}`]));
}

function localizeText(texts: readonly string[], indexes: readonly number[]): Json {
  return Object.fromEntries(indexes.map((i, k) => [SUPPORTED_LOCALES[i], texts[k % texts.length] ?? 'x']));
}

const named = <T extends Json>(base: fc.Arbitrary<T>) =>
  fc
    .tuple(base, slashName, description, locales, locales, fc.array(description, { minLength: 1, maxLength: 2 }))
    .map(([fields, name, text, nameLocales, textLocales, texts]) => ({
      ...fields,
      name,
      name_localizations: localizeName(name, nameLocales),
      description: text,
      description_localizations: localizeText(texts, textLocales),
    }));

const int53 = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const double53 = fc.double({ min: -(2 ** 53), max: 2 ** 53, noNaN: true, noDefaultInfinity: true });
const sortedPair = <T extends number>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, arb).map(([a, b]): [T, T] => (a <= b ? [a, b] : [b, a]));

function choicesOf(value: fc.Arbitrary<string | number>) {
  return fc.uniqueArray(fc.record({ name: shortText, value }), { maxLength: 4, selector: (c) => c.name });
}

const stringOption = fc.oneof(
  fc.record({ type: fc.constant(3), choices: choicesOf(fc.string({ maxLength: 30 })) }),
  fc
    .tuple(sortedPair(fc.integer({ min: 1, max: 6000 })), fc.boolean())
    .map(([[min, max], autocomplete]) => ({ type: 3, min_length: min - 1, max_length: max, autocomplete })),
);
const integerOption = fc.oneof(
  fc.record({ type: fc.constant(4), choices: choicesOf(int53) }),
  sortedPair(int53).map(([min, max]) => ({ type: 4, min_value: min, max_value: max, autocomplete: true })),
);
const numberOption = fc.oneof(
  fc.record({ type: fc.constant(10), choices: choicesOf(double53) }),
  sortedPair(double53).map(([min, max]) => ({ type: 10, min_value: min, max_value: max })),
);
const channelOption = fc
  .uniqueArray(fc.constantFrom(0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16), { maxLength: 4 })
  .map((channelTypes) => ({ type: 7, channel_types: channelTypes }));
const simpleOption = fc.constantFrom(5, 6, 8, 9, 11).map((type) => ({ type }));

const plainOption = fc
  .tuple(named(fc.oneof(stringOption, integerOption, numberOption, channelOption, simpleOption)), fc.boolean())
  .map(([option, required]) => ({ ...option, required }));

/** Unique names per level, required options first. */
function level<T extends Json>(option: fc.Arbitrary<T>, maxLength: number) {
  return fc
    .uniqueArray(option, { maxLength, selector: (o) => o.name })
    .map((options) => [...options].sort((a, b) => Number(b.required === true) - Number(a.required === true)));
}

const subcommand = (maxOptions: number) =>
  named(level(plainOption, maxOptions).map((options) => ({ type: 1, options })));
const group = named(level(subcommand(3), 2).map((options) => ({ type: 2, options })));

const chatInputCommand = fc
  .tuple(
    named(
      fc.oneof(
        level(plainOption, 6).map((options) => ({ options })),
        level(subcommand(4), 3).map((options) => ({ options })),
        level(fc.oneof(group, subcommand(3)), 2).map((options) => ({ options })),
      ),
    ),
    fc.record(
      {
        default_member_permissions: fc.oneof(fc.constant(null), fc.nat().map(String), fc.nat()),
        dm_permission: fc.boolean(),
        nsfw: fc.boolean(),
        integration_types: fc.constantFrom([0], [1], [0, 1], [1, 0]),
        contexts: fc.constantFrom(null, [0], [0, 1], [1]),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([command, fields]) => ({ type: 1, ...command, ...fields }));

const contextMenuCommand = fc.record(
  {
    type: fc.constantFrom(2, 3),
    name: freeformName,
    description: fc.constantFrom(undefined, null, ''),
    options: fc.constantFrom(undefined, null, []),
  },
  { requiredKeys: ['type', 'name'] },
);

const validCommand = fc.oneof({ weight: 4, arbitrary: chatInputCommand }, { weight: 1, arbitrary: contextMenuCommand });

// ---- checks -------------------------------------------------------------------------------------

function assertWellFormed(issues: readonly Issue[]): void {
  assert.ok(issues.length > 0, 'a failed result has issues');
  for (const issue of issues) {
    assert.ok(Array.isArray(issue.path), 'path is an array');
    for (const segment of issue.path)
      assert.ok(typeof segment === 'string' || typeof segment === 'number', 'path segment');
    assert.match(issue.code, /^[A-Z_]+$/);
    assert.equal(typeof issue.message, 'string');
    assert.ok(issue.message.length > 0);
  }
}

function assertSettled<T>(result: Result<T>): void {
  if (result.ok) assert.ok(result.value !== undefined);
  else assertWellFormed(result.issues);
}

function accepted(body: unknown, ctx: ValidationContext = GLOBAL) {
  const result = validateCreateCommand(body, ctx);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.value;
}

describe('generated valid commands', () => {
  test('are accepted, and their normalized form validates to itself', () => {
    fc.assert(
      fc.property(validCommand, (command) => {
        const value = accepted(command);
        assert.deepEqual(accepted(value), value);
      }),
      RUNS,
    );
  });

  test('are accepted as guild commands and in a bulk body', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(validCommand, { maxLength: 5, selector: (c) => `${c.type}:${c.name}` }),
        (commands) => {
          const guildSafe = commands.map((c) => ({ ...c, nsfw: false }));
          const result = validateBulkOverwrite(guildSafe, GUILD);
          assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
          assert.equal(result.value.length, commands.length);
        },
      ),
      RUNS,
    );
  });
});

// ---- mutations ----------------------------------------------------------------------------------

type Mutation = (command: Json) => Json;

const firstOption = (command: Json): Json | undefined =>
  Array.isArray(command.options) ? (command.options[0] as Json) : undefined;
const withFirstOption = (command: Json, change: (option: Json) => Json): Json => {
  const option = firstOption(command);
  if (!option) return { ...command, options: [{ type: 3, name: 'Upper', description: 'd' }] };
  return { ...command, options: [change(option), ...(command.options as unknown[]).slice(1)] };
};

/** Each of these breaks at least one rule, whatever valid CHAT_INPUT command it is applied to. */
const MUTATIONS: Record<string, Mutation> = {
  nameTooLong: (c) => ({ ...c, name: 'a'.repeat(33) }),
  nameUppercase: (c) => ({ ...c, name: `X${String(c.name)}`.slice(0, 32) }),
  nameMissing: ({ name: _name, ...c }) => c,
  descriptionMissing: ({ description: _description, ...c }) => c,
  descriptionTooLong: (c) => ({ ...c, description: 'd'.repeat(101) }),
  typeUnknown: (c) => ({ ...c, type: 7 }),
  typeString: (c) => ({ ...c, type: '1' }),
  contextUnknown: (c) => ({ ...c, contexts: [0, 9] }),
  integrationTypeUnknown: (c) => ({ ...c, integration_types: [5] }),
  tooManyOptions: (c) => ({
    ...c,
    options: Array.from({ length: 26 }, (_, i) => ({ type: 5, name: `o${i}`, description: 'd' })),
  }),
  optionsNotList: (c) => ({ ...c, options: 'none' }),
  nsfwString: (c) => ({ ...c, nsfw: 'yes' }),
  permissionsNegative: (c) => ({ ...c, default_member_permissions: -1 }),
  localeUnknown: (c) => ({ ...c, name_localizations: { xx: 'a' } }),
  handlerOnChatInput: (c) => ({ ...c, handler: 1 }),
  optionNameEmpty: (c) => withFirstOption(c, (o) => ({ ...o, name: '' })),
  optionTypeUnknown: (c) => withFirstOption(c, (o) => ({ ...o, type: 99 })),
  optionDescriptionMissing: (c) => withFirstOption(c, ({ description: _d, ...o }) => o),
  optionDuplicated: (c) => {
    const options =
      Array.isArray(c.options) && c.options.length > 0 ? c.options : [{ type: 5, name: 'a', description: 'd' }];
    return { ...c, options: [...options, options[0]] };
  },
  oversized: (c) => ({
    ...c,
    options: Array.from({ length: 25 }, (_, i) => ({
      type: 3,
      name: `o${i}`,
      description: 'd'.repeat(100),
      choices: Array.from({ length: 25 }, (_, j) => ({ name: `${j}`.padEnd(100, 'n'), value: 'v'.repeat(100) })),
    })),
  }),
};

describe('mutated commands', () => {
  for (const [name, mutate] of Object.entries(MUTATIONS)) {
    test(`${name} is rejected with well-formed issues`, () => {
      fc.assert(
        fc.property(chatInputCommand, (command) => {
          const result = validateCreateCommand(mutate(command), GLOBAL);
          assert.equal(result.ok, false);
          if (!result.ok) assertWellFormed(result.issues);
        }),
        { numRuns: 25 },
      );
    });
  }
});

// ---- never throws -------------------------------------------------------------------------------

const EXISTING = accepted({ name: 'cmd', description: 'd', options: [{ type: 3, name: 'o', description: 'd' }] });

function validateEverywhere(value: unknown): void {
  for (const ctx of [GLOBAL, GUILD]) {
    assertSettled(validateCreateCommand(value, ctx));
    assertSettled(validatePatchCommand(value, EXISTING, ctx));
    assertSettled(validateBulkOverwrite(value, ctx));
    assertSettled(validateBulkOverwrite([value], ctx));
  }
}

/** Bodies shaped like commands whose fields hold anything, so the deep rules run on junk. */
const junk = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2, max: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, '', 'A', 2 ** 53, -0, 0.5) },
);
const { option: junkOption } = fc.letrec((tie) => ({
  option: fc.record(
    {
      type: fc.oneof(fc.integer({ min: 0, max: 12 }), junk),
      name: fc.oneof(slashName, junk),
      name_localizations: fc.oneof(
        fc.dictionary(fc.constantFrom('fr', 'de', 'xx', '__proto__'), fc.oneof(slashName, junk)),
        junk,
      ),
      description: fc.oneof(description, junk),
      required: junk,
      choices: fc.oneof(
        fc.array(fc.record({ name: fc.oneof(shortText, junk), value: junk }, { requiredKeys: [] }), { maxLength: 3 }),
        junk,
      ),
      options: fc.oneof({ depthSize: 'small' }, fc.array(tie('option'), { maxLength: 3 }), junk),
      channel_types: fc.oneof(fc.array(fc.integer({ min: -1, max: 17 }), { maxLength: 3 }), junk),
      min_value: junk,
      max_value: junk,
      min_length: junk,
      max_length: junk,
      autocomplete: junk,
    },
    { requiredKeys: [] },
  ),
}));
const junkCommand = fc.record(
  {
    id: junk,
    type: fc.oneof(fc.integer({ min: 0, max: 5 }), junk),
    name: fc.oneof(slashName, freeformName, junk),
    description: fc.oneof(description, junk),
    options: fc.oneof(fc.array(junkOption, { maxLength: 4 }), junk),
    default_member_permissions: junk,
    dm_permission: junk,
    default_permission: junk,
    nsfw: junk,
    integration_types: fc.oneof(fc.array(fc.integer({ min: -1, max: 2 }), { maxLength: 3 }), junk),
    contexts: fc.oneof(fc.array(fc.integer({ min: -1, max: 3 }), { maxLength: 3 }), junk),
    handler: junk,
  },
  { requiredKeys: [] },
);

describe('validation never throws', () => {
  test('on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), validateEverywhere), RUNS);
  });

  test('on arbitrary values, including ones JSON cannot express', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withSparseArray: true,
      withTypedArray: true,
    });
    fc.assert(fc.property(anything, validateEverywhere), RUNS);
  });

  test('on command-shaped junk; whatever it accepts is a fixed point', () => {
    fc.assert(
      fc.property(junkCommand, (body) => {
        validateEverywhere(body);
        const result = validateCreateCommand(body, GLOBAL);
        if (result.ok) assert.deepEqual(accepted(result.value), result.value);
      }),
      RUNS,
    );
  });
});
