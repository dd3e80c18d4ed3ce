import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formErrorTree, type Issue } from '../src/core/io/issue.js';
import { DICT_TYPE_CONVERT } from '../src/core/io/codes.js';
import { validatePermissionsBody } from '../src/core/permissions/validate-permissions.js';
import {
  ADMIN_ROLE,
  ALL_CHANNELS,
  BOB,
  CAROL,
  ERIN,
  EVERYONE_ROLE,
  GENERAL,
  GUILD_ID,
  MODERATOR_ROLE,
  THREAD,
  channel,
  testGuild,
} from './permissions-fixtures.js';

const codesAndPaths = (issues: readonly Issue[]) => issues.map(({ path, code }) => ({ path, code }));

function expectIssues(body: unknown, expected: { path: (string | number)[]; code: string }[]): void {
  const result = validatePermissionsBody(body, testGuild());
  assert.equal(result.ok, false, 'expected the body to be rejected');
  if (result.ok) return;
  assert.deepEqual(codesAndPaths(result.issues), expected);
  for (const found of result.issues) assert.equal(typeof found.message, 'string');
}

const valid = (id: string, type: number, permission: unknown = true) => ({ id, type, permission });

describe('validatePermissionsBody: valid bodies', () => {
  it('accepts roles, @everyone, members, channels and all channels, keeping only the three fields', () => {
    const body = {
      permissions: [
        valid(MODERATOR_ROLE, 1, false),
        { ...valid(EVERYONE_ROLE, 1), extra: 'ignored' },
        valid(BOB, 2),
        valid(GENERAL, 3, false),
        valid(ALL_CHANNELS, 3),
      ],
      unknown_field: 1,
    };
    const result = validatePermissionsBody(body, testGuild());
    assert.deepEqual(result, {
      ok: true,
      value: [
        { id: MODERATOR_ROLE, type: 1, permission: false },
        { id: EVERYONE_ROLE, type: 1, permission: true },
        { id: BOB, type: 2, permission: true },
        { id: GENERAL, type: 3, permission: false },
        { id: ALL_CHANNELS, type: 3, permission: true },
      ],
    });
  });

  it('accepts an empty list (it clears the overwrites)', () => {
    assert.deepEqual(validatePermissionsBody({ permissions: [] }, testGuild()), { ok: true, value: [] });
  });

  it('accepts exactly 100 overwrites', () => {
    const guild = testGuild();
    for (let i = 0; i < 100; i += 1) guild.channels.push(channel(String(1400000000000000000n + BigInt(i)), 0, `c${i}`));
    const permissions = guild.channels.slice(-100).map((c) => valid(c.id, 3));
    const result = validatePermissionsBody({ permissions }, guild);
    assert.equal(result.ok, true);
  });
});

describe('validatePermissionsBody: the body and the list', () => {
  for (const body of [null, [], 'permissions', 42, true]) {
    it(`rejects a body that is not an object: ${JSON.stringify(body)}`, () =>
      expectIssues(body, [{ path: [], code: DICT_TYPE_CONVERT }]));
  }

  it('requires permissions', () => expectIssues({}, [{ path: ['permissions'], code: 'BASE_TYPE_REQUIRED' }]));
  it('requires permissions to be non-null', () =>
    expectIssues({ permissions: null }, [{ path: ['permissions'], code: 'BASE_TYPE_REQUIRED' }]));

  for (const permissions of [{}, 'x', 3, false]) {
    it(`rejects permissions that is not a list: ${JSON.stringify(permissions)}`, () =>
      expectIssues({ permissions }, [{ path: ['permissions'], code: 'LIST_TYPE_CONVERT' }]));
  }

  it('rejects more than 100 overwrites once, at the list', () => {
    const permissions = Array.from({ length: 101 }, () => 'not even an object');
    expectIssues({ permissions }, [{ path: ['permissions'], code: 'BASE_TYPE_MAX_LENGTH' }]);
  });
});

describe('validatePermissionsBody: items', () => {
  it('rejects an item that is not an object', () =>
    expectIssues({ permissions: [valid(BOB, 2), null, [1]] }, [
      { path: ['permissions', 1], code: 'DICT_TYPE_CONVERT' },
      { path: ['permissions', 2], code: 'DICT_TYPE_CONVERT' },
    ]));

  it('requires id, type and permission, each at its own path', () =>
    expectIssues({ permissions: [{}, { id: null, type: null, permission: null }] }, [
      { path: ['permissions', 0, 'id'], code: 'BASE_TYPE_REQUIRED' },
      { path: ['permissions', 0, 'type'], code: 'BASE_TYPE_REQUIRED' },
      { path: ['permissions', 0, 'permission'], code: 'BASE_TYPE_REQUIRED' },
      { path: ['permissions', 1, 'id'], code: 'BASE_TYPE_REQUIRED' },
      { path: ['permissions', 1, 'type'], code: 'BASE_TYPE_REQUIRED' },
      { path: ['permissions', 1, 'permission'], code: 'BASE_TYPE_REQUIRED' },
    ]));

  for (const id of [12345, 'abc', '-1', '1'.repeat(21), '18446744073709551616', '', true]) {
    it(`rejects an id that is not a snowflake string: ${JSON.stringify(id)}`, () =>
      expectIssues({ permissions: [valid(BOB, 2), { id, type: 2, permission: true }] }, [
        { path: ['permissions', 1, 'id'], code: 'NUMBER_TYPE_COERCE' },
      ]));
  }

  for (const type of ['1', 1.5, true, {}]) {
    it(`rejects a type that is not an integer: ${JSON.stringify(type)}`, () =>
      expectIssues({ permissions: [{ id: BOB, type, permission: true }] }, [
        { path: ['permissions', 0, 'type'], code: 'NUMBER_TYPE_COERCE' },
      ]));
  }

  for (const type of [0, 4, -1, 100]) {
    it(`rejects a type other than 1, 2 or 3: ${type}`, () =>
      expectIssues({ permissions: [{ id: BOB, type, permission: true }] }, [
        { path: ['permissions', 0, 'type'], code: 'BASE_TYPE_CHOICES' },
      ]));
  }

  for (const permission of ['true', 1, 0, {}, []]) {
    it(`rejects a permission that is not a boolean: ${JSON.stringify(permission)}`, () =>
      expectIssues({ permissions: [valid(BOB, 2, permission)] }, [
        { path: ['permissions', 0, 'permission'], code: 'BOOLEAN_TYPE_COERCE' },
      ]));
  }

  it('reports every issue of a bad item, in field order', () =>
    expectIssues({ permissions: [valid(BOB, 2), { id: 'x', type: 9, permission: 'no' }] }, [
      { path: ['permissions', 1, 'id'], code: 'NUMBER_TYPE_COERCE' },
      { path: ['permissions', 1, 'type'], code: 'BASE_TYPE_CHOICES' },
      { path: ['permissions', 1, 'permission'], code: 'BOOLEAN_TYPE_COERCE' },
    ]));
});

describe('validatePermissionsBody: targets in the guild', () => {
  it('rejects a ROLE overwrite for a role the guild does not have', () =>
    expectIssues({ permissions: [valid(ADMIN_ROLE, 1), valid('1345183757107200999', 1), valid(BOB, 1)] }, [
      { path: ['permissions', 1, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE' },
      { path: ['permissions', 2, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE' },
    ]));

  it('accepts the guild id as @everyone even in a guild whose roles list lacks it', () => {
    const guild = testGuild();
    guild.roles = guild.roles.filter((r) => r.id !== EVERYONE_ROLE);
    assert.equal(validatePermissionsBody({ permissions: [valid(GUILD_ID, 1)] }, guild).ok, true);
  });

  it('rejects a USER overwrite for someone who is not a member', () =>
    expectIssues({ permissions: [valid(CAROL, 2), valid(ERIN, 2), valid(MODERATOR_ROLE, 2), valid(GUILD_ID, 2)] }, [
      { path: ['permissions', 1, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER' },
      { path: ['permissions', 2, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER' },
      { path: ['permissions', 3, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_USER' },
    ]));

  it('rejects a CHANNEL overwrite for a channel the guild does not have (the guild id is not a channel)', () =>
    expectIssues({ permissions: [valid('1345183757107201011', 3), valid(GUILD_ID, 3), valid(ALL_CHANNELS, 1)] }, [
      { path: ['permissions', 0, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL' },
      { path: ['permissions', 1, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_CHANNEL' },
      { path: ['permissions', 2, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_UNKNOWN_ROLE' },
    ]));

  it('rejects a CHANNEL overwrite for a thread (threads follow their parent)', () =>
    expectIssues({ permissions: [valid(THREAD, 3)] }, [
      { path: ['permissions', 0, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_THREAD_CHANNEL' },
    ]));

  it('rejects an id given twice, at the later item, whatever the types', () =>
    expectIssues(
      { permissions: [valid(BOB, 2), valid(GENERAL, 3), valid(BOB, 2, false), valid(GENERAL, 1), valid(BOB, 7)] },
      [
        { path: ['permissions', 2, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID' },
        { path: ['permissions', 3, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID' },
        { path: ['permissions', 4, 'id'], code: 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID' },
        { path: ['permissions', 4, 'type'], code: 'BASE_TYPE_CHOICES' },
      ],
    ));
});

describe('validatePermissionsBody: wire errors and robustness', () => {
  it('builds the v10 50035 error tree from its issues', () => {
    const result = validatePermissionsBody(
      { permissions: [valid(BOB, 2), { id: BOB, type: 4, permission: true }] },
      testGuild(),
    );
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(JSON.parse(JSON.stringify(formErrorTree(result.issues))), {
      permissions: {
        '1': {
          id: {
            _errors: [
              { code: 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE_ID', message: `Duplicate overwrite for id ${BOB}` },
            ],
          },
          type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3}.' }] },
        },
      },
    });
  });

  it('never throws on any JSON, and every issue points into the body', () => {
    const anyItem = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          id: fc.oneof(
            fc.constantFrom(BOB, CAROL, ERIN, GENERAL, THREAD, GUILD_ID, ALL_CHANNELS, MODERATOR_ROLE),
            fc.jsonValue(),
          ),
          type: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.jsonValue()),
          permission: fc.oneof(fc.boolean(), fc.jsonValue()),
        },
        { requiredKeys: [] },
      ),
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ permissions: fc.oneof(fc.array(anyItem, { maxLength: 8 }), fc.jsonValue()) }),
    );
    fc.assert(
      fc.property(body, (candidate) => {
        const result = validatePermissionsBody(candidate, testGuild());
        if (result.ok) {
          for (const item of result.value) assert.deepEqual(Object.keys(item), ['id', 'type', 'permission']);
        } else {
          assert.ok(result.issues.length > 0);
          for (const found of result.issues) {
            assert.ok(found.path.length === 0 || found.path[0] === 'permissions');
            assert.match(found.code, /^[A-Z_]+$/);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
