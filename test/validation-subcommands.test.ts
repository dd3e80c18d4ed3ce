/** Subcommand structure: groups hold subcommands, subcommands hold plain options, one level of groups. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateCreateCommand } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME as DUPLICATE_NAME,
  APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID as REQUIRED_INVALID,
  APPLICATION_COMMAND_OPTIONS_TYPE_INVALID as TYPE_INVALID,
  BASE_TYPE_MAX_LENGTH,
} from '../src/core/io/codes.js';
import { runCases, GLOBAL } from './helpers/validation-cases.js';

type Option = Record<string, unknown>;
const command = (...options: Option[]) => ({ name: 'cmd', description: 'd', options });
const group = (name: string, ...options: Option[]): Option => ({ type: 2, name, description: 'd', options });
const sub = (name: string, ...options: Option[]): Option => ({ type: 1, name, description: 'd', options });
const plain = (name: string, extra: Option = {}): Option => ({ type: 3, name, description: 'd', ...extra });
const many = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

describe('what each level may hold', () => {
  runCases([
    { name: 'plain options only', body: command(plain('a'), plain('b')), expect: [] },
    { name: 'subcommands only', body: command(sub('a', plain('x')), sub('b')), expect: [] },
    { name: 'groups and subcommands', body: command(group('g', sub('a'), sub('b')), sub('c')), expect: [] },
    { name: 'an empty group', body: command(group('g')), expect: [] },
    {
      name: 'a subcommand beside a plain option',
      body: command(sub('a'), plain('b')),
      expect: [[['options'], TYPE_INVALID]],
    },
    {
      name: 'a group beside a plain option',
      body: command(plain('b'), group('g', sub('a'))),
      expect: [[['options'], TYPE_INVALID]],
    },
    {
      name: 'a group holding a plain option',
      body: command(group('g', plain('x'))),
      expect: [[['options', 0, 'options', 0, 'type'], TYPE_INVALID]],
    },
    {
      name: 'a group holding a group',
      body: command(group('g', group('h'))),
      expect: [[['options', 0, 'options', 0, 'type'], TYPE_INVALID]],
    },
    {
      name: 'a subcommand holding a subcommand',
      body: command(sub('s', sub('t'))),
      expect: [[['options', 0, 'options', 0, 'type'], TYPE_INVALID]],
    },
    {
      name: 'a subcommand holding a group',
      body: command(sub('s', group('g'))),
      expect: [[['options', 0, 'options', 0, 'type'], TYPE_INVALID]],
    },
    {
      name: 'a subcommand in a group holding a subcommand',
      body: command(group('g', sub('s', sub('t')))),
      expect: [[['options', 0, 'options', 0, 'options', 0, 'type'], TYPE_INVALID]],
    },
    {
      name: 'a subcommand in a group holding plain options',
      body: command(group('g', sub('s', plain('x', { required: true }), plain('y')))),
      expect: [],
    },
  ]);
});

describe('level rules apply inside groups and subcommands', () => {
  runCases([
    { name: '25 subcommands in a group', body: command(group('g', ...many(25, (i) => sub(`s${i}`)))), expect: [] },
    {
      name: '26 subcommands in a group',
      body: command(group('g', ...many(26, (i) => sub(`s${i}`)))),
      expect: [[['options', 0, 'options'], BASE_TYPE_MAX_LENGTH]],
    },
    { name: '25 options in a subcommand', body: command(sub('s', ...many(25, (i) => plain(`o${i}`)))), expect: [] },
    {
      name: '26 options in a subcommand',
      body: command(sub('s', ...many(26, (i) => plain(`o${i}`)))),
      expect: [[['options', 0, 'options'], BASE_TYPE_MAX_LENGTH]],
    },
    { name: '25 top-level subcommands', body: command(...many(25, (i) => sub(`s${i}`))), expect: [] },
    {
      name: '26 top-level subcommands',
      body: command(...many(26, (i) => sub(`s${i}`))),
      expect: [[['options'], BASE_TYPE_MAX_LENGTH]],
    },
    {
      name: 'repeated subcommand names',
      body: command(sub('a'), sub('a')),
      expect: [[['options', 1, 'name'], DUPLICATE_NAME]],
    },
    {
      name: 'a group and a subcommand with one name',
      body: command(group('a'), sub('a')),
      expect: [[['options', 1, 'name'], DUPLICATE_NAME]],
    },
    {
      name: 'repeated option names in a nested subcommand',
      body: command(group('g', sub('s', plain('x'), plain('x')))),
      expect: [[['options', 0, 'options', 0, 'options', 1, 'name'], DUPLICATE_NAME]],
    },
    { name: 'the same name on different levels', body: command(group('x', sub('x', plain('x')))), expect: [] },
    {
      name: 'required after optional in a subcommand',
      body: command(sub('s', plain('x'), plain('y', { required: true }))),
      expect: [[['options', 0, 'options', 1, 'required'], REQUIRED_INVALID]],
    },
  ]);
});

describe('nesting is bounded', () => {
  test('groups nested 1000 deep are reported without a stack overflow', () => {
    let option: Option = sub('leaf');
    for (let depth = 0; depth < 1000; depth++) option = group(`g${depth}`, option);
    const result = validateCreateCommand(command(option), GLOBAL);
    assert.equal(result.ok, false);
    // Lists are read three levels deep; the misplaced groups there are reported, deeper ones are not read.
    assert.deepEqual(!result.ok && result.issues.map((i) => [i.path, i.code]), [
      [['options', 0, 'options', 0, 'options', 0, 'type'], TYPE_INVALID],
      [['options', 0, 'options', 0, 'type'], TYPE_INVALID],
    ]);
  });

  test('normalized nesting keeps the structure', () => {
    const result = validateCreateCommand(command(group('g', sub('s', plain('x', { required: true })))), GLOBAL);
    assert.ok(result.ok);
    const subcommand = result.value.options[0]?.options?.[0];
    assert.equal(subcommand?.type, 1);
    assert.equal(subcommand?.required, undefined);
    assert.deepEqual(
      subcommand?.options?.map((o) => [o.name, o.required]),
      [['x', true]],
    );
  });
});
