/** A wrong JSON type for any field is an issue at that field's path, never an exception. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateCreateCommand } from '../src/core/validation/index.js';
import {
  BOOLEAN_TYPE_CONVERT as BOOLEAN,
  DICT_TYPE_CONVERT as DICT,
  LIST_TYPE_CONVERT as LIST,
  NUMBER_TYPE_COERCE as NUMBER,
  STRING_TYPE_CONVERT as STRING,
} from '../src/core/io/codes.js';
import { EMBEDDED, type Path } from './helpers/validation-cases.js';

/** A global command of an app with Activities, so that every type (PRIMARY_ENTRY_POINT too) is valid. */
const GLOBAL = EMBEDDED;

/** A body with every field a wrong type would land in, valid as it is. */
const VALID: Record<string, unknown> = {
  name: 'cmd',
  description: 'd',
  options: [
    { type: 3, name: 's', description: 'd', choices: [{ name: 'a', value: 'a' }] },
    { type: 4, name: 'i', description: 'd', min_value: 1, max_value: 2 },
    { type: 7, name: 'c', description: 'd', channel_types: [0] },
    { type: 3, name: 't', description: 'd', min_length: 1, max_length: 2, autocomplete: true },
  ],
};

/** Replace the value at `path` in a deep copy of VALID. */
function withValue(path: Path, value: unknown): unknown {
  const body = structuredClone(VALID);
  let node: Record<string | number, unknown> = body;
  path.slice(0, -1).forEach((key) => {
    node = node[key] as Record<string | number, unknown>;
  });
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
  return body;
}

const CASES: [Path, unknown, string][] = [
  [['type'], '1', NUMBER],
  [['type'], true, NUMBER],
  [['name'], 1, STRING],
  [['name'], {}, STRING],
  [['name_localizations'], 'fr', DICT],
  [['name_localizations'], 5, DICT],
  [['description'], [], STRING],
  [['description_localizations'], [], DICT],
  [['options'], {}, LIST],
  [['options'], 'x', LIST],
  [['default_member_permissions'], {}, NUMBER],
  [['default_member_permissions'], false, NUMBER],
  [['dm_permission'], 'false', BOOLEAN],
  [['default_permission'], 1, BOOLEAN],
  [['nsfw'], 0, BOOLEAN],
  [['integration_types'], 0, LIST],
  [['integration_types'], { 0: 0 }, LIST],
  [['contexts'], '0,1', LIST],
  [['options', 0], 7, DICT],
  [['options', 0, 'type'], '3', NUMBER],
  [['options', 0, 'name'], false, STRING],
  [['options', 0, 'name_localizations'], [], DICT],
  [['options', 0, 'description'], 3, STRING],
  [['options', 0, 'description_localizations'], 'x', DICT],
  [['options', 0, 'required'], 'yes', BOOLEAN],
  [['options', 0, 'choices'], 'a', LIST],
  [['options', 0, 'choices', 0], [], DICT],
  [['options', 0, 'choices', 0, 'name'], 1, STRING],
  [['options', 0, 'choices', 0, 'name_localizations'], true, DICT],
  [['options', 0, 'choices', 0, 'value'], { v: 1 }, STRING],
  [['options', 1, 'min_value'], '1', NUMBER],
  [['options', 1, 'max_value'], [2], NUMBER],
  [['options', 2, 'channel_types'], 0, LIST],
  [['options', 2, 'channel_types', 0], 'GUILD_TEXT', NUMBER],
  [['options', 3, 'min_length'], true, NUMBER],
  [['options', 3, 'max_length'], '2', NUMBER],
  [['options', 3, 'autocomplete'], 1, BOOLEAN],
];

describe('wrong JSON types', () => {
  test('the base body is valid', () => {
    assert.ok(validateCreateCommand(VALID, GLOBAL).ok);
  });

  for (const [path, value, code] of CASES) {
    test(`${path.join('.')} = ${JSON.stringify(value)}`, () => {
      const result = validateCreateCommand(withValue(path, value), GLOBAL);
      assert.deepEqual(result.ok ? [] : result.issues.map((i) => [i.path, i.code]), [[path, code]]);
    });
  }

  test('handler on an entry point', () => {
    const result = validateCreateCommand({ type: 4, name: 'Launch', handler: 'launch' }, GLOBAL);
    assert.deepEqual(result.ok ? [] : result.issues.map((i) => [i.path, i.code]), [[['handler'], NUMBER]]);
  });

  test('sub-command options', () => {
    const result = validateCreateCommand(
      { name: 'c', description: 'd', options: [{ type: 1, name: 's', description: 'd', options: 's' }] },
      GLOBAL,
    );
    assert.deepEqual(result.ok ? [] : result.issues.map((i) => [i.path, i.code]), [[['options', 0, 'options'], LIST]]);
  });
});
