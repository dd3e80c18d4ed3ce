/** Command-level fields: type, handler and entry points, nsfw, permissions, contexts, integration types, defaults. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CommandDefinition } from '../src/core/commands/model.js';
import { validateCreateCommand, type ValidationContext } from '../src/core/validation/index.js';
import {
  APPLICATION_COMMAND_ENTRY_POINT_GUILD as ENTRY_POINT_GUILD,
  APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED as NOT_EMBEDDED,
  APPLICATION_COMMAND_FIELD_NOT_ALLOWED as NOT_ALLOWED,
  APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED as UNSUPPORTED,
  APPLICATION_COMMAND_NSFW_DISCOVERABLE as NSFW_DISCOVERABLE,
  BASE_TYPE_CHOICES,
  BASE_TYPE_MIN_LENGTH,
  BASE_TYPE_REQUIRED,
  BOOLEAN_TYPE_CONVERT,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  LIST_TYPE_DUPLICATE_VALUE,
  NUMBER_TYPE_COERCE,
  NUMBER_TYPE_MAX,
  NUMBER_TYPE_MIN,
} from '../src/core/io/codes.js';
import { runCases, GLOBAL, GUILD, EMBEDDED, EMBEDDED_GUILD, PLAIN_APP } from './helpers/validation-cases.js';

const APP = PLAIN_APP;
const DISCOVERABLE: ValidationContext = { scope: 'global', app: { ...APP, discoverable: true } };
const GUILD_INSTALL_ONLY: ValidationContext = { scope: 'global', app: { ...APP, integration_types: [0] } };

function valueOf(body: unknown, ctx: ValidationContext = GLOBAL): CommandDefinition {
  const result = validateCreateCommand(body, ctx);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.value;
}

const chat = (extra: Record<string, unknown> = {}) => ({ name: 'cmd', description: 'd', ...extra });
const entryPoint = (extra: Record<string, unknown> = {}) => ({ type: 4, name: 'Launch', handler: 2, ...extra });

describe('type', () => {
  runCases([
    { name: 'omitted means CHAT_INPUT', body: chat(), expect: [] },
    { name: 'null means CHAT_INPUT', body: chat({ type: null }), expect: [] },
    { name: '1 (CHAT_INPUT) is the lowest', body: chat({ type: 1 }), expect: [] },
    { name: '0 is below the enum', body: chat({ type: 0 }), expect: [[['type'], BASE_TYPE_CHOICES]] },
    { name: '4 (PRIMARY_ENTRY_POINT) is the highest', body: entryPoint(), expect: [], ctx: EMBEDDED },
    { name: '5 is past the enum', body: chat({ type: 5 }), expect: [[['type'], BASE_TYPE_CHOICES]] },
    { name: 'a string', body: chat({ type: '1' }), expect: [[['type'], NUMBER_TYPE_COERCE]] },
    { name: 'a fraction', body: chat({ type: 1.5 }), expect: [[['type'], NUMBER_TYPE_COERCE]] },
    {
      name: 'an unknown type still checks the type-independent fields',
      body: { type: 9, name: '', nsfw: 'x' },
      expect: [
        [['type'], BASE_TYPE_CHOICES],
        [['name'], 'BASE_TYPE_BAD_LENGTH'],
        [['nsfw'], BOOLEAN_TYPE_CONVERT],
      ],
    },
    { name: 'a body that is a list', body: [], expect: [[[], DICT_TYPE_CONVERT]] },
    { name: 'a body that is null', body: null, expect: [[[], DICT_TYPE_CONVERT]] },
    { name: 'a body that is a string', body: 'cmd', expect: [[[], DICT_TYPE_CONVERT]] },
  ]);

  test('the stored type', () => {
    assert.equal(valueOf(chat()).type, 1);
    assert.equal(valueOf({ type: 2, name: 'U' }).type, 2);
    assert.equal(valueOf({ type: 3, name: 'M' }).type, 3);
  });
});

describe('PRIMARY_ENTRY_POINT and handler', () => {
  runCases([
    { name: 'handler 1 (APP_HANDLER)', body: entryPoint({ handler: 1 }), expect: [], ctx: EMBEDDED },
    { name: 'handler 2 (DISCORD_LAUNCH_ACTIVITY)', body: entryPoint({ handler: 2 }), expect: [], ctx: EMBEDDED },
    { name: 'handler 0', body: entryPoint({ handler: 0 }), expect: [[['handler'], BASE_TYPE_CHOICES]], ctx: EMBEDDED },
    { name: 'handler 3', body: entryPoint({ handler: 3 }), expect: [[['handler'], BASE_TYPE_CHOICES]], ctx: EMBEDDED },
    {
      name: 'handler missing',
      body: entryPoint({ handler: undefined }),
      expect: [[['handler'], BASE_TYPE_REQUIRED]],
      ctx: EMBEDDED,
    },
    {
      name: 'handler null',
      body: entryPoint({ handler: null }),
      expect: [[['handler'], BASE_TYPE_REQUIRED]],
      ctx: EMBEDDED,
    },
    {
      name: 'handler a string',
      body: entryPoint({ handler: '1' }),
      expect: [[['handler'], NUMBER_TYPE_COERCE]],
      ctx: EMBEDDED,
    },
    { name: 'handler on CHAT_INPUT', body: chat({ handler: 1 }), expect: [[['handler'], NOT_ALLOWED]] },
    { name: 'handler on USER', body: { type: 2, name: 'U', handler: 2 }, expect: [[['handler'], NOT_ALLOWED]] },
    { name: 'handler null on CHAT_INPUT', body: chat({ handler: null }), expect: [] },
    { name: 'an app without the EMBEDDED flag', body: entryPoint(), expect: [[['type'], NOT_EMBEDDED]] },
    { name: 'a guild entry point', body: entryPoint(), expect: [[['type'], ENTRY_POINT_GUILD]], ctx: EMBEDDED_GUILD },
    {
      name: 'both',
      body: entryPoint(),
      expect: [
        [['type'], NOT_EMBEDDED],
        [['type'], ENTRY_POINT_GUILD],
      ],
      ctx: GUILD,
    },
  ]);

  test('handler is stored on entry points and null elsewhere', () => {
    assert.equal(valueOf(entryPoint({ handler: 1 }), EMBEDDED).handler, 1);
    assert.equal(valueOf(chat()).handler, null);
    assert.equal(valueOf(entryPoint(), EMBEDDED).description, '');
  });
});

describe('nsfw', () => {
  runCases([
    { name: 'true on an app without discovery', body: chat({ nsfw: true }), expect: [] },
    { name: 'false on a discoverable app', body: chat({ nsfw: false }), expect: [], ctx: DISCOVERABLE },
    {
      name: 'true on a discoverable app',
      body: chat({ nsfw: true }),
      expect: [[['nsfw'], NSFW_DISCOVERABLE]],
      ctx: DISCOVERABLE,
    },
    { name: 'not a boolean', body: chat({ nsfw: 'true' }), expect: [[['nsfw'], BOOLEAN_TYPE_CONVERT]] },
  ]);

  test('stored, default false', () => {
    assert.equal(valueOf(chat()).nsfw, false);
    assert.equal(valueOf(chat({ nsfw: true }), GUILD).nsfw, true);
  });
});

describe('default_member_permissions', () => {
  const at = ['default_member_permissions'];
  const stored = (value: unknown) => valueOf(chat({ default_member_permissions: value })).default_member_permissions;
  runCases([
    { name: '"0"', body: chat({ default_member_permissions: '0' }), expect: [] },
    { name: 'integer 0', body: chat({ default_member_permissions: 0 }), expect: [] },
    { name: 'integer -1', body: chat({ default_member_permissions: -1 }), expect: [[at, NUMBER_TYPE_MIN]] },
    { name: '"-1"', body: chat({ default_member_permissions: '-1' }), expect: [[at, NUMBER_TYPE_MIN]] },
    { name: 'integer 2^53-1', body: chat({ default_member_permissions: Number.MAX_SAFE_INTEGER }), expect: [] },
    {
      name: 'integer 2^53 (must be a string)',
      body: chat({ default_member_permissions: 2 ** 53 }),
      expect: [[at, NUMBER_TYPE_MAX]],
    },
    { name: 'a fraction', body: chat({ default_member_permissions: 1.5 }), expect: [[at, NUMBER_TYPE_COERCE]] },
    { name: 'a word', body: chat({ default_member_permissions: 'admin' }), expect: [[at, NUMBER_TYPE_COERCE]] },
    { name: 'an empty string', body: chat({ default_member_permissions: '' }), expect: [[at, NUMBER_TYPE_COERCE]] },
    { name: 'a decimal point', body: chat({ default_member_permissions: '8.0' }), expect: [[at, NUMBER_TYPE_COERCE]] },
    { name: 'a boolean', body: chat({ default_member_permissions: true }), expect: [[at, NUMBER_TYPE_COERCE]] },
    {
      name: '2^64 - 1 (every bit of 64)',
      body: chat({ default_member_permissions: '18446744073709551615' }),
      expect: [],
    },
    {
      name: '2^64 (beyond 64 bits)',
      body: chat({ default_member_permissions: '18446744073709551616' }),
      expect: [[at, NUMBER_TYPE_MAX]],
    },
    { name: '39 digits', body: chat({ default_member_permissions: '1'.repeat(39) }), expect: [[at, NUMBER_TYPE_MAX]] },
    {
      name: '10 000 digits',
      body: chat({ default_member_permissions: '9'.repeat(10_000) }),
      expect: [[at, NUMBER_TYPE_MAX]],
    },
  ]);

  test('always stored as a decimal string or null', () => {
    assert.equal(stored(undefined), null);
    assert.equal(stored(null), null);
    assert.equal(stored('8'), '8');
    assert.equal(stored(8), '8');
    assert.equal(stored(0), '0');
    assert.equal(stored('0008'), '8');
    assert.equal(stored('000'), '0');
    assert.equal(stored('1125899906842624'), '1125899906842624');
    assert.equal(stored('18446744073709551615'), '18446744073709551615');
    assert.equal(stored('0018446744073709551615'), '18446744073709551615');
  });
});

describe('integration_types and contexts on global commands', () => {
  runCases([
    { name: 'integration_types [0, 1]', body: chat({ integration_types: [0, 1] }), expect: [] },
    {
      name: 'integration_types [2]',
      body: chat({ integration_types: [2] }),
      expect: [[['integration_types', 0], BASE_TYPE_CHOICES]],
    },
    {
      name: 'integration_types [-1]',
      body: chat({ integration_types: [-1] }),
      expect: [[['integration_types', 0], BASE_TYPE_CHOICES]],
    },
    {
      name: 'integration_types duplicate',
      body: chat({ integration_types: [1, 1] }),
      expect: [[['integration_types', 1], LIST_TYPE_DUPLICATE_VALUE]],
    },
    {
      name: 'integration_types []',
      body: chat({ integration_types: [] }),
      expect: [[['integration_types'], BASE_TYPE_MIN_LENGTH]],
    },
    {
      name: 'integration_types not a list',
      body: chat({ integration_types: 0 }),
      expect: [[['integration_types'], LIST_TYPE_CONVERT]],
    },
    {
      name: 'integration_types entry a string',
      body: chat({ integration_types: ['0'] }),
      expect: [[['integration_types', 0], NUMBER_TYPE_COERCE]],
    },
    {
      name: 'integration_types the app supports',
      body: chat({ integration_types: [0] }),
      expect: [],
      ctx: GUILD_INSTALL_ONLY,
    },
    {
      name: 'integration_types the app does not support',
      body: chat({ integration_types: [0, 1] }),
      expect: [[['integration_types', 1], UNSUPPORTED]],
      ctx: GUILD_INSTALL_ONLY,
    },
    { name: 'contexts [0, 1, 2]', body: chat({ contexts: [0, 1, 2] }), expect: [] },
    { name: 'contexts [3]', body: chat({ contexts: [3] }), expect: [[['contexts', 0], BASE_TYPE_CHOICES]] },
    { name: 'contexts [-1]', body: chat({ contexts: [-1] }), expect: [[['contexts', 0], BASE_TYPE_CHOICES]] },
    {
      name: 'contexts duplicate',
      body: chat({ contexts: [0, 1, 0] }),
      expect: [[['contexts', 2], LIST_TYPE_DUPLICATE_VALUE]],
    },
    { name: 'contexts []', body: chat({ contexts: [] }), expect: [[['contexts'], BASE_TYPE_MIN_LENGTH]] },
    { name: 'contexts not a list', body: chat({ contexts: {} }), expect: [[['contexts'], LIST_TYPE_CONVERT]] },
    { name: 'PRIVATE_CHANNEL with USER_INSTALL', body: chat({ integration_types: [1], contexts: [2] }), expect: [] },
    {
      name: 'PRIVATE_CHANNEL without USER_INSTALL (accepted, inert)',
      body: chat({ integration_types: [0], contexts: [0, 2] }),
      expect: [],
    },
    {
      name: 'the documented default contexts with a guild install only (what seyfert sends)',
      body: chat({ integration_types: [0], contexts: [0, 1, 2] }),
      expect: [],
      ctx: GUILD_INSTALL_ONLY,
    },
    {
      name: 'PRIVATE_CHANNEL against the app default that lacks USER_INSTALL',
      body: chat({ contexts: [2] }),
      expect: [],
      ctx: GUILD_INSTALL_ONLY,
    },
    {
      name: 'PRIVATE_CHANNEL against the app default that has USER_INSTALL',
      body: chat({ contexts: [2] }),
      expect: [],
    },
  ]);

  test('create defaults: integration_types from the app, contexts null', () => {
    assert.deepEqual(valueOf(chat()).integration_types, [0, 1]);
    assert.deepEqual(valueOf(chat(), GUILD_INSTALL_ONLY).integration_types, [0]);
    assert.equal(valueOf(chat()).contexts, null);
    assert.equal(valueOf(chat({ contexts: null, integration_types: null })).contexts, null);
    assert.deepEqual(valueOf(chat({ contexts: [1, 0] })).contexts, [1, 0]);
  });
});

describe('guild commands accept the global-only fields and store none of them', () => {
  runCases([
    { name: 'dm_permission false', body: chat({ dm_permission: false }), expect: [], ctx: GUILD },
    {
      name: 'contexts and integration_types',
      body: chat({ contexts: [0, 1, 2], integration_types: [0] }),
      expect: [],
      ctx: GUILD,
    },
    {
      name: 'dm_permission of the wrong type',
      body: chat({ dm_permission: 'no' }),
      expect: [[['dm_permission'], BOOLEAN_TYPE_CONVERT]],
      ctx: GUILD,
    },
    {
      name: 'contexts out of the enum',
      body: chat({ contexts: [7] }),
      expect: [[['contexts', 0], BASE_TYPE_CHOICES]],
      ctx: GUILD,
    },
  ]);

  test('stored: dm_permission true, integration_types and contexts null', () => {
    const value = valueOf(chat({ dm_permission: false, contexts: [0], integration_types: [0, 1] }), GUILD);
    assert.equal(value.dm_permission, true);
    assert.equal(value.integration_types, null);
    assert.equal(value.contexts, null);
  });
});

describe('dm_permission and default_permission', () => {
  runCases([
    {
      name: 'dm_permission not a boolean',
      body: chat({ dm_permission: 0 }),
      expect: [[['dm_permission'], BOOLEAN_TYPE_CONVERT]],
    },
    {
      name: 'default_permission not a boolean',
      body: chat({ default_permission: 'yes' }),
      expect: [[['default_permission'], BOOLEAN_TYPE_CONVERT]],
    },
  ]);

  test('stored on global commands, default true', () => {
    assert.equal(valueOf(chat()).dm_permission, true);
    assert.equal(valueOf(chat({ dm_permission: false })).dm_permission, false);
    assert.equal(valueOf(chat({ dm_permission: null })).dm_permission, true);
    assert.equal(valueOf(chat()).default_permission, true);
    assert.equal(valueOf(chat({ default_permission: false })).default_permission, false);
    assert.equal(valueOf(chat({ default_permission: null })).default_permission, true);
  });
});

describe('the normalized definition', () => {
  test('every field present with its default', () => {
    assert.deepEqual(valueOf({ name: 'ping', description: 'Replies with pong' }), {
      type: 1,
      name: 'ping',
      name_localizations: null,
      description: 'Replies with pong',
      description_localizations: null,
      options: [],
      default_member_permissions: null,
      dm_permission: true,
      default_permission: true,
      nsfw: false,
      integration_types: [0, 1],
      contexts: null,
      handler: null,
    });
  });

  test('a USER command on a guild', () => {
    assert.deepEqual(
      valueOf({ type: 2, name: 'Show Profile', description: '', options: [], dm_permission: false }, GUILD),
      {
        type: 2,
        name: 'Show Profile',
        name_localizations: null,
        description: '',
        description_localizations: null,
        options: [],
        default_member_permissions: null,
        dm_permission: true,
        default_permission: true,
        nsfw: false,
        integration_types: null,
        contexts: null,
        handler: null,
      },
    );
  });

  test('unknown fields are ignored', () => {
    const value = valueOf(
      chat({ id: '1', application_id: '2', version: '3', guild_id: '4', name_localized: 'x', extra: { a: 1 } }),
    );
    assert.deepEqual(Object.keys(value).sort(), [
      'contexts',
      'default_member_permissions',
      'default_permission',
      'description',
      'description_localizations',
      'dm_permission',
      'handler',
      'integration_types',
      'name',
      'name_localizations',
      'nsfw',
      'options',
      'type',
    ]);
  });

  test('the output validates to itself', () => {
    const first = valueOf(
      chat({
        name_localizations: { fr: 'commande', de: 'cmd' },
        options: [{ type: 4, name: 'n', description: 'd', min_value: 1, choices: [{ name: 'one', value: 1 }] }],
        default_member_permissions: 8,
        contexts: [0, 1],
      }),
    );
    assert.deepEqual(valueOf(first), first);
  });

  test('every violation is collected, in one pass', () => {
    const result = validateCreateCommand(
      {
        name: 'Bad Name',
        description: '',
        options: [{ type: 3, name: 'o', description: 'd', min_length: -1 }],
        nsfw: 1,
        contexts: [5],
      },
      GLOBAL,
    );
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.issues.map((i) => i.path.join('.')), [
      'name',
      'nsfw',
      'contexts.0',
      'description',
      'options.0.min_length',
    ]);
  });
});
