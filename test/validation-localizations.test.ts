/** Localization dictionaries: supported keys, per-field value rules, defaults dropped, unique option names. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SUPPORTED_LOCALES } from '../src/core/locales.js';
import { validateCreateCommand } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_INVALID_NAME,
  APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME as DUPLICATE_NAME,
  BASE_TYPE_BAD_LENGTH,
  BASE_TYPE_CHOICES,
  DICT_TYPE_CONVERT,
  STRING_TYPE_CONVERT,
} from '../src/core/io/codes.js';
import { DICT_TYPE_INVALID_KEY } from '../src/core/io/codes.js';
import { check, runCases, GLOBAL } from './helpers/validation-cases.js';

const named = (name_localizations: unknown) => ({ name: 'cmd', description: 'd', name_localizations });
type Option = Record<string, unknown>;
const option = (name: string, localized: Record<string, string> = {}): Option => ({
  type: 3,
  name,
  description: 'd',
  name_localizations: localized,
});
const withOptions = (...options: Option[]) => ({ name: 'cmd', description: 'd', options });

describe('locale keys', () => {
  test('all 32 supported locales are accepted', () => {
    const all = Object.fromEntries(SUPPORTED_LOCALES.map((locale, i) => [locale, `name-${i}`]));
    check({ name: '', body: named(all), expect: [] });
  });
  runCases([
    {
      name: 'an unknown locale',
      body: named({ xx: 'a' }),
      expect: [[['name_localizations', 'xx'], BASE_TYPE_CHOICES]],
    },
    {
      name: 'a bare language of a regional locale',
      body: named({ en: 'a' }),
      expect: [[['name_localizations', 'en'], BASE_TYPE_CHOICES]],
    },
    {
      name: 'another letter case',
      body: named({ 'EN-us': 'a' }),
      expect: [[['name_localizations', 'EN-us'], BASE_TYPE_CHOICES]],
    },
    {
      name: 'ar (only in the OpenAPI document)',
      body: named({ ar: 'a' }),
      expect: [[['name_localizations', 'ar'], BASE_TYPE_CHOICES]],
    },
    {
      name: '__proto__ as a key',
      body: named(JSON.parse('{"__proto__": "a"}')),
      expect: [[['name_localizations', '__proto__'], DICT_TYPE_INVALID_KEY]],
    },
    {
      name: 'constructor as a key',
      body: named({ constructor: 'a' }),
      expect: [[['name_localizations', 'constructor'], DICT_TYPE_INVALID_KEY]],
    },
    {
      name: 'prototype as a key',
      body: named({ prototype: 'a' }),
      expect: [[['name_localizations', 'prototype'], DICT_TYPE_INVALID_KEY]],
    },
    {
      name: 'hasOwnProperty is just an unknown locale',
      body: named({ hasOwnProperty: 'a' }),
      expect: [[['name_localizations', 'hasOwnProperty'], BASE_TYPE_CHOICES]],
    },
    {
      name: 'toString is just an unknown locale',
      body: named({ toString: 'a' }),
      expect: [[['name_localizations', 'toString'], BASE_TYPE_CHOICES]],
    },
    { name: 'not an object', body: named('fr'), expect: [[['name_localizations'], DICT_TYPE_CONVERT]] },
    { name: 'a list', body: named(['a']), expect: [[['name_localizations'], DICT_TYPE_CONVERT]] },
    {
      name: 'a value that is not a string',
      body: named({ fr: 1 }),
      expect: [[['name_localizations', 'fr'], STRING_TYPE_CONVERT]],
    },
    { name: 'a null value counts as absent', body: named({ fr: null }), expect: [] },
  ]);
});

describe('values obey their field', () => {
  runCases([
    {
      name: 'command name: uppercase',
      body: named({ de: 'Befehl' }),
      expect: [[['name_localizations', 'de'], APPLICATION_COMMAND_INVALID_NAME]],
    },
    {
      name: 'command name: 33 characters',
      body: named({ de: 'b'.repeat(33) }),
      expect: [[['name_localizations', 'de'], BASE_TYPE_BAD_LENGTH]],
    },
    {
      name: 'description: 101 characters',
      body: { name: 'cmd', description: 'd', description_localizations: { 'pt-BR': 'd'.repeat(101) } },
      expect: [[['description_localizations', 'pt-BR'], BASE_TYPE_BAD_LENGTH]],
    },
    {
      name: 'option name: uppercase',
      body: withOptions(option('o', { fr: 'Opt' })),
      expect: [[['options', 0, 'name_localizations', 'fr'], APPLICATION_COMMAND_INVALID_NAME]],
    },
  ]);
});

describe('values equal to the default are ignored', () => {
  test('dropped from the stored dictionary; null when nothing is left', () => {
    const only = validateCreateCommand(named({ fr: 'cmd' }), GLOBAL);
    assert.ok(only.ok);
    assert.equal(only.value.name_localizations, null);
    const mixed = validateCreateCommand(named({ fr: 'commande', de: 'cmd' }), GLOBAL);
    assert.ok(mixed.ok);
    assert.deepEqual({ ...mixed.value.name_localizations }, { fr: 'commande' });
    assert.equal(Object.getPrototypeOf(mixed.value.name_localizations), null, 'client-keyed maps have no prototype');
    const empty = validateCreateCommand(named({}), GLOBAL);
    assert.ok(empty.ok);
    assert.equal(empty.value.name_localizations, null);
  });

  test('an option localized to its own default name is no conflict', () => {
    check({ name: '', body: withOptions(option('a', { fr: 'a' }), option('b')), expect: [] });
  });
});

describe('localized option names are unique on their level', () => {
  runCases([
    {
      name: 'distinct localized names',
      body: withOptions(option('a', { fr: 'x' }), option('b', { fr: 'y' })),
      expect: [],
    },
    {
      name: 'one localized name in two locales',
      body: withOptions(option('a', { fr: 'x' }), option('b', { de: 'x' })),
      expect: [],
    },
    {
      name: 'a localized name equal to another default name',
      body: withOptions(option('a', { fr: 'b' }), option('b')),
      expect: [[['options', 0, 'name_localizations', 'fr'], DUPLICATE_NAME]],
    },
    {
      name: 'a localized name equal to a later default name',
      body: withOptions(option('a'), option('b', { ja: 'a' })),
      expect: [[['options', 1, 'name_localizations', 'ja'], DUPLICATE_NAME]],
    },
    {
      name: 'two options with one localized name in one locale',
      body: withOptions(option('a', { fr: 'x' }), option('b', { fr: 'x' })),
      expect: [[['options', 1, 'name_localizations', 'fr'], DUPLICATE_NAME]],
    },
    {
      name: 'names on other levels do not conflict',
      body: withOptions({ type: 1, name: 's', description: 'd', options: [option('x', { fr: 's' })] }),
      expect: [],
    },
    {
      name: 'nested levels are checked too',
      body: withOptions({ type: 1, name: 's', description: 'd', options: [option('x', { fr: 'y' }), option('y')] }),
      expect: [[['options', 0, 'options', 0, 'name_localizations', 'fr'], DUPLICATE_NAME]],
    },
  ]);
});
