/** Bulk overwrite bodies: an array of at most 130 commands with optional ids, names unique per type. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateBulkOverwrite, type BulkItem, type ValidationContext } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_ENTRY_POINT_GUILD,
  APPLICATION_COMMAND_INVALID_NAME,
  APPLICATION_COMMANDS_DUPLICATE_ID as DUPLICATE_ID,
  APPLICATION_COMMANDS_DUPLICATE_NAME as DUPLICATE_NAME,
  BASE_TYPE_MAX_LENGTH,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  NUMBER_TYPE_COERCE,
} from '../src/core/io/codes.js';
import { GLOBAL, GUILD, EMBEDDED_GUILD } from './helpers/validation-cases.js';

type Path = readonly (string | number)[];
interface Case {
  name: string;
  body: unknown;
  expect: readonly (readonly [Path, string])[];
  ctx?: ValidationContext;
}

function check({ body, expect, ctx = GLOBAL }: Case): void {
  const result = validateBulkOverwrite(body, ctx);
  if (expect.length === 0) assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  else assert.deepEqual(result.ok ? [] : result.issues.map((i) => [i.path, i.code]), expect);
}

function runCases(cases: readonly Case[]): void {
  for (const c of cases) test(c.name, () => check(c));
}

function itemsOf(body: unknown, ctx: ValidationContext = GLOBAL): BulkItem[] {
  const result = validateBulkOverwrite(body, ctx);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.value;
}

const chat = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: 'd', ...extra });
const many = (count: number) => Array.from({ length: count }, (_, i) => chat(`c${i}`));

describe('the list', () => {
  runCases([
    { name: 'empty', body: [], expect: [] },
    { name: '130 commands', body: many(130), expect: [] },
    { name: '131 commands', body: many(131), expect: [[[], BASE_TYPE_MAX_LENGTH]] },
    { name: 'an object', body: { 0: chat('a') }, expect: [[[], LIST_TYPE_CONVERT]] },
    { name: 'null', body: null, expect: [[[], LIST_TYPE_CONVERT]] },
    { name: 'an item that is not an object', body: [chat('a'), 'b'], expect: [[[1], DICT_TYPE_CONVERT]] },
    {
      name: 'item issues are at the item index',
      body: [chat('a'), chat('B')],
      expect: [[[1, 'name'], APPLICATION_COMMAND_INVALID_NAME]],
    },
  ]);

  test('the order is kept', () => {
    assert.deepEqual(
      itemsOf([chat('b'), { type: 2, name: 'A' }, chat('a')]).map((i) => i.definition.name),
      ['b', 'A', 'a'],
    );
  });
});

describe('ids', () => {
  runCases([
    { name: 'a snowflake string', body: [chat('a', { id: '1324165260902400001' })], expect: [] },
    { name: 'the largest 64-bit id', body: [chat('a', { id: '18446744073709551615' })], expect: [] },
    {
      name: 'past 64 bits',
      body: [chat('a', { id: '18446744073709551616' })],
      expect: [[[0, 'id'], NUMBER_TYPE_COERCE]],
    },
    {
      name: '21 digits',
      body: [chat('a', { id: '100000000000000000000' })],
      expect: [[[0, 'id'], NUMBER_TYPE_COERCE]],
    },
    { name: 'not digits', body: [chat('a', { id: 'abc' })], expect: [[[0, 'id'], NUMBER_TYPE_COERCE]] },
    { name: 'empty', body: [chat('a', { id: '' })], expect: [[[0, 'id'], NUMBER_TYPE_COERCE]] },
    { name: 'a JSON number', body: [chat('a', { id: 123 })], expect: [[[0, 'id'], NUMBER_TYPE_COERCE]] },
    {
      name: 'the same id twice',
      body: [chat('a', { id: '5' }), chat('b', { id: '5' })],
      expect: [[[1, 'id'], DUPLICATE_ID]],
    },
  ]);

  test('stored as given, null when omitted or null', () => {
    assert.deepEqual(
      itemsOf([chat('a', { id: '42' }), chat('b'), chat('c', { id: null })]).map((i) => i.id),
      ['42', null, null],
    );
  });
});

describe('names are unique per type within the list', () => {
  runCases([
    { name: 'one name on CHAT_INPUT and USER', body: [chat('a'), { type: 2, name: 'a' }], expect: [] },
    {
      name: 'two CHAT_INPUT commands with one name',
      body: [chat('a'), chat('b'), chat('a')],
      expect: [[[2, 'name'], DUPLICATE_NAME]],
    },
    {
      name: 'two USER commands with one name',
      body: [
        { type: 2, name: 'Hi' },
        { type: 2, name: 'Hi' },
      ],
      expect: [[[1, 'name'], DUPLICATE_NAME]],
    },
    {
      name: 'names differing only in case are distinct',
      body: [
        { type: 3, name: 'Hi' },
        { type: 3, name: 'hi' },
      ],
      expect: [],
    },
  ]);
});

describe('bulk defaults and compatibility decisions', () => {
  test('integration_types defaults to [0] and contexts to [0, 1, 2], stored as is', () => {
    const [item] = itemsOf([chat('a')]);
    assert.deepEqual(item?.definition.integration_types, [0]);
    assert.deepEqual(item?.definition.contexts, [0, 1, 2]);
  });

  test('PRIVATE_CHANNEL sent by the client is stored without USER_INSTALL too (inert there)', () => {
    check({ name: '', body: [chat('a', { contexts: [0, 1, 2] })], expect: [] });
    check({ name: '', body: [chat('a', { contexts: [0, 1, 2], integration_types: [0] })], expect: [] });
    check({ name: '', body: [chat('a', { contexts: [0, 1, 2], integration_types: [0, 1] })], expect: [] });
    const [item] = itemsOf([chat('a', { contexts: [0, 2], integration_types: [0] })]);
    assert.deepEqual(item?.definition.contexts, [0, 2]);
  });

  test('guild bulk: no integration_types or contexts, nsfw stored', () => {
    const [item] = itemsOf(
      [chat('a', { nsfw: true, dm_permission: false, contexts: [0], integration_types: [0] })],
      GUILD,
    );
    assert.equal(item?.definition.nsfw, true);
    assert.equal(item?.definition.dm_permission, true);
    assert.equal(item?.definition.integration_types, null);
    assert.equal(item?.definition.contexts, null);
  });

  test('context-menu commands need no description', () => {
    assert.deepEqual(
      itemsOf([
        { type: 2, name: 'Profile' },
        { type: 3, name: 'Quote', description: '' },
      ]).map((i) => i.definition.description),
      ['', ''],
    );
  });

  test('no entry point in a guild list', () => {
    check({
      name: '',
      body: [{ type: 4, name: 'Launch', handler: 2 }],
      expect: [[[0, 'type'], APPLICATION_COMMAND_ENTRY_POINT_GUILD]],
      ctx: EMBEDDED_GUILD,
    });
  });

  test('issues of several items are all reported', () => {
    const result = validateBulkOverwrite([chat('A'), { type: 2 }, chat('a', { id: 'x' }), chat('a')], GLOBAL);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.issues.map((i) => i.path.join('.')),
      ['0.name', '1.name', '2.id', '3.name'],
    );
  });
});
