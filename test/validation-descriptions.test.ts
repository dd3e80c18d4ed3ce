/** Descriptions: required on CHAT_INPUT and options, absent on USER/MESSAGE, optional on entry points. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateCreateCommand } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_FIELD_NOT_ALLOWED as NOT_ALLOWED,
  BASE_TYPE_BAD_LENGTH as BAD_LENGTH,
  BASE_TYPE_REQUIRED as REQUIRED,
  STRING_TYPE_CONVERT,
} from '../src/core/io/codes.js';
import { runCases, GLOBAL, EMBEDDED as EMBEDDED_APP } from './helpers/validation-cases.js';

const ASTRAL_LETTER = '\u{20000}';
const chat = (description: unknown) => ({ name: 'cmd', description });
const option = (description: unknown) => ({
  name: 'cmd',
  description: 'd',
  options: [{ type: 5, name: 'o', description }],
});

describe('CHAT_INPUT descriptions', () => {
  runCases([
    { name: 'one character', body: chat('d'), expect: [] },
    { name: 'empty', body: chat(''), expect: [[['description'], BAD_LENGTH]] },
    { name: '100 characters', body: chat('d'.repeat(100)), expect: [] },
    { name: '101 characters', body: chat('d'.repeat(101)), expect: [[['description'], BAD_LENGTH]] },
    { name: '100 astral letters', body: chat(ASTRAL_LETTER.repeat(100)), expect: [] },
    { name: '101 astral letters', body: chat(ASTRAL_LETTER.repeat(101)), expect: [[['description'], BAD_LENGTH]] },
    { name: 'missing', body: { name: 'cmd' }, expect: [[['description'], REQUIRED]] },
    { name: 'null', body: chat(null), expect: [[['description'], REQUIRED]] },
    { name: 'a boolean', body: chat(true), expect: [[['description'], STRING_TYPE_CONVERT]] },
  ]);
});

describe('option descriptions', () => {
  const at = ['options', 0, 'description'];
  runCases([
    { name: 'one character', body: option('d'), expect: [] },
    { name: 'empty', body: option(''), expect: [[at, BAD_LENGTH]] },
    { name: '100 characters', body: option('d'.repeat(100)), expect: [] },
    { name: '101 characters', body: option('d'.repeat(101)), expect: [[at, BAD_LENGTH]] },
    {
      name: 'missing',
      body: { name: 'cmd', description: 'd', options: [{ type: 5, name: 'o' }] },
      expect: [[at, REQUIRED]],
    },
    { name: 'a number', body: option(1), expect: [[at, STRING_TYPE_CONVERT]] },
  ]);
});

describe('USER and MESSAGE commands have no description and no options', () => {
  runCases([
    { name: 'USER: omitted', body: { type: 2, name: 'Profile' }, expect: [] },
    { name: 'USER: empty string counts as absent', body: { type: 2, name: 'Profile', description: '' }, expect: [] },
    { name: 'USER: null counts as absent', body: { type: 2, name: 'Profile', description: null }, expect: [] },
    {
      name: 'USER: one character',
      body: { type: 2, name: 'Profile', description: 'x' },
      expect: [[['description'], NOT_ALLOWED]],
    },
    {
      name: 'MESSAGE: one character',
      body: { type: 3, name: 'Quote', description: 'x' },
      expect: [[['description'], NOT_ALLOWED]],
    },
    {
      name: 'USER: empty localizations',
      body: { type: 2, name: 'Profile', description_localizations: {} },
      expect: [],
    },
    {
      name: 'USER: null localizations',
      body: { type: 2, name: 'Profile', description_localizations: null },
      expect: [],
    },
    {
      name: 'USER: a localized description',
      body: { type: 2, name: 'Profile', description_localizations: { fr: 'x' } },
      expect: [[['description_localizations'], NOT_ALLOWED]],
    },
    { name: 'USER: options [] counts as absent', body: { type: 2, name: 'Profile', options: [] }, expect: [] },
    { name: 'USER: options null counts as absent', body: { type: 2, name: 'Profile', options: null }, expect: [] },
    {
      name: 'USER: one option',
      body: { type: 2, name: 'Profile', options: [{ type: 3, name: 'o', description: 'd' }] },
      expect: [[['options'], NOT_ALLOWED]],
    },
    {
      name: 'MESSAGE: one option',
      body: { type: 3, name: 'Quote', options: [{ type: 3, name: 'o', description: 'd' }] },
      expect: [[['options'], NOT_ALLOWED]],
    },
  ]);

  test('the stored description is ""', () => {
    for (const description of [undefined, null, '']) {
      const result = validateCreateCommand({ type: 2, name: 'Profile', description }, GLOBAL);
      assert.ok(result.ok);
      assert.equal(result.value.description, '');
      assert.equal(result.value.description_localizations, null);
      assert.deepEqual(result.value.options, []);
    }
  });
});

describe('PRIMARY_ENTRY_POINT descriptions are optional', () => {
  const entryPoint = (description: unknown) => ({ type: 4, name: 'Launch', handler: 1, description });
  runCases([
    { name: 'omitted', body: entryPoint(undefined), expect: [], ctx: EMBEDDED_APP },
    { name: '100 characters', body: entryPoint('d'.repeat(100)), expect: [], ctx: EMBEDDED_APP },
    {
      name: '101 characters',
      body: entryPoint('d'.repeat(101)),
      expect: [[['description'], BAD_LENGTH]],
      ctx: EMBEDDED_APP,
    },
    {
      name: 'options are not allowed',
      body: { type: 4, name: 'Launch', handler: 1, options: [{ type: 3, name: 'o', description: 'd' }] },
      expect: [[['options'], NOT_ALLOWED]],
      ctx: EMBEDDED_APP,
    },
  ]);
});

describe('localized descriptions obey the description rule', () => {
  const chatLocalized = (fr: string) => ({ name: 'cmd', description: 'd', description_localizations: { fr } });
  const at = ['description_localizations', 'fr'];
  runCases([
    { name: '1 character', body: chatLocalized('x'), expect: [] },
    { name: 'empty', body: chatLocalized(''), expect: [[at, BAD_LENGTH]] },
    { name: '100 characters', body: chatLocalized('x'.repeat(100)), expect: [] },
    { name: '101 characters', body: chatLocalized('x'.repeat(101)), expect: [[at, BAD_LENGTH]] },
    {
      name: 'option: 101 characters',
      body: {
        name: 'cmd',
        description: 'd',
        options: [{ type: 5, name: 'o', description: 'd', description_localizations: { ja: 'x'.repeat(101) } }],
      },
      expect: [[['options', 0, 'description_localizations', 'ja'], BAD_LENGTH]],
    },
  ]);
});
