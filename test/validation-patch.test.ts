/** PATCH: provided fields replace whole values; the merged command is validated again. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CommandDefinition } from '../src/core/commands/model.js';
import { validateCreateCommand, validatePatchCommand, type ValidationContext } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
  APPLICATION_COMMAND_INVALID_NAME,
  APPLICATION_COMMAND_TYPE_IMMUTABLE as TYPE_IMMUTABLE,
  DICT_TYPE_CONVERT,
} from '../src/core/io/codes.js';
import { GLOBAL, GUILD, EMBEDDED } from './helpers/validation-cases.js';

function created(body: unknown, ctx: ValidationContext = GLOBAL): CommandDefinition {
  const result = validateCreateCommand(body, ctx);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.value;
}

function patched(body: unknown, existing: CommandDefinition, ctx: ValidationContext = GLOBAL): CommandDefinition {
  const result = validatePatchCommand(body, existing, ctx);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.value;
}

function issuesOf(body: unknown, existing: CommandDefinition, ctx: ValidationContext = GLOBAL): [string, string][] {
  const result = validatePatchCommand(body, existing, ctx);
  return result.ok ? [] : result.issues.map((i) => [i.path.join('.'), i.code]);
}

const PING = created({
  name: 'ping',
  description: 'Replies',
  name_localizations: { fr: 'pingue' },
  options: [
    { type: 3, name: 'a', description: 'd' },
    { type: 3, name: 'b', description: 'd' },
  ],
  default_member_permissions: '8',
});
const PROFILE = created({ type: 2, name: 'Profile' });

describe('merging', () => {
  test('an empty body changes nothing', () => {
    assert.deepEqual(patched({}, PING), PING);
  });

  test('a provided field replaces the stored value, the rest is kept', () => {
    const value = patched({ description: 'New' }, PING);
    assert.deepEqual(value, { ...PING, description: 'New' });
  });

  test('options are replaced whole', () => {
    const value = patched({ options: [{ type: 5, name: 'c', description: 'd' }] }, PING);
    assert.deepEqual(
      value.options.map((o) => o.name),
      ['c'],
    );
  });

  test('null resets to the default', () => {
    const value = patched({ options: null, name_localizations: null, default_member_permissions: null }, PING);
    assert.deepEqual(value.options, []);
    assert.equal(value.name_localizations, null);
    assert.equal(value.default_member_permissions, null);
  });

  test('a renamed command drops localizations now equal to the default', () => {
    assert.equal(patched({ name: 'pingue' }, PING).name_localizations, null);
  });

  test('unknown fields and id are ignored', () => {
    assert.deepEqual(patched({ id: '1', version: '2', whatever: true }, PING), PING);
  });

  test('an integer default_member_permissions becomes a string', () => {
    assert.equal(patched({ default_member_permissions: 32 }, PING).default_member_permissions, '32');
  });
});

describe('type', () => {
  test('the same type is ignored', () => {
    assert.deepEqual(patched({ type: 1 }, PING), PING);
    assert.deepEqual(patched({ type: 2 }, PROFILE), PROFILE);
    assert.deepEqual(patched({ type: null }, PING), PING);
  });

  test('another type is refused at type', () => {
    assert.deepEqual(issuesOf({ type: 2 }, PING), [['type', TYPE_IMMUTABLE]]);
    assert.deepEqual(issuesOf({ type: '1' }, PING), [['type', TYPE_IMMUTABLE]]);
  });
});

describe('the merged command is validated in full', () => {
  test('a provided field that breaks a rule', () => {
    assert.deepEqual(issuesOf({ name: 'Ping' }, PING), [['name', APPLICATION_COMMAND_INVALID_NAME]]);
    assert.deepEqual(issuesOf({ description: 'x' }, PROFILE), [['description', APPLICATION_COMMAND_FIELD_NOT_ALLOWED]]);
  });

  test('all issues at once, type included', () => {
    assert.deepEqual(issuesOf({ type: 3, name: 'Ping', options: 'x' }, PING), [
      ['type', TYPE_IMMUTABLE],
      ['name', APPLICATION_COMMAND_INVALID_NAME],
      ['options', 'LIST_TYPE_CONVERT'],
    ]);
  });

  test('a body that is not an object', () => {
    assert.deepEqual(issuesOf([], PING), [['', DICT_TYPE_CONVERT]]);
    assert.deepEqual(issuesOf(null, PING), [['', DICT_TYPE_CONVERT]]);
  });
});

describe('contexts and integration_types', () => {
  const guildOnly = patched({ integration_types: [0] }, PING);

  test('PRIVATE_CHANNEL sent in the PATCH is stored whatever the integration_types (inert without USER_INSTALL)', () => {
    assert.deepEqual(issuesOf({ contexts: [0, 2] }, guildOnly), []);
    assert.deepEqual(patched({ contexts: [0, 2] }, guildOnly).contexts, [0, 2]);
    assert.deepEqual(patched({ contexts: [0, 2], integration_types: [0, 1] }, guildOnly).contexts, [0, 2]);
  });

  test('stored contexts are not checked again', () => {
    const bulkStored: CommandDefinition = { ...PING, integration_types: [0], contexts: [0, 1, 2] };
    assert.deepEqual(patched({ description: 'x' }, bulkStored).contexts, [0, 1, 2]);
    assert.deepEqual(patched({ integration_types: [0] }, bulkStored).contexts, [0, 1, 2]);
  });

  test('null integration_types falls back to the app', () => {
    assert.deepEqual(patched({ integration_types: null }, guildOnly).integration_types, [0, 1]);
  });

  test('guild commands accept and drop them', () => {
    const guildCommand = created({ name: 'g', description: 'd' }, GUILD);
    const value = patched({ contexts: [0, 1, 2], integration_types: [0], dm_permission: false }, guildCommand, GUILD);
    assert.deepEqual(value, guildCommand);
  });
});

describe('entry points', () => {
  const launch = created({ type: 4, name: 'Launch', handler: 2 }, EMBEDDED);

  test('the handler is kept, and may be replaced', () => {
    assert.equal(patched({ name: 'Play' }, launch, EMBEDDED).handler, 2);
    assert.equal(patched({ handler: 1 }, launch, EMBEDDED).handler, 1);
    assert.deepEqual(issuesOf({ handler: null }, launch, EMBEDDED), [['handler', 'BASE_TYPE_REQUIRED']]);
  });
});
