import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import {
  ADMINISTRATOR,
  ALL,
  MANAGE_CHANNELS,
  MANAGE_GUILD,
  MANAGE_ROLES,
  SEND_MESSAGES,
  SEND_MESSAGES_IN_THREADS,
  USE_APPLICATION_COMMANDS,
  USE_EXTERNAL_APPS,
  VIEW_CHANNEL,
  applyOverwrite,
  formatPermissions,
  hasAll,
  hasAny,
  isDecimalBitSet,
  parsePermissions,
} from '../src/core/permissions/bits.js';

describe('permission flags', () => {
  const cases: [string, bigint, bigint][] = [
    ['ADMINISTRATOR', ADMINISTRATOR, PermissionFlagsBits.Administrator],
    ['MANAGE_CHANNELS', MANAGE_CHANNELS, PermissionFlagsBits.ManageChannels],
    ['MANAGE_GUILD', MANAGE_GUILD, PermissionFlagsBits.ManageGuild],
    ['VIEW_CHANNEL', VIEW_CHANNEL, PermissionFlagsBits.ViewChannel],
    ['SEND_MESSAGES', SEND_MESSAGES, PermissionFlagsBits.SendMessages],
    ['MANAGE_ROLES', MANAGE_ROLES, PermissionFlagsBits.ManageRoles],
    ['USE_APPLICATION_COMMANDS', USE_APPLICATION_COMMANDS, PermissionFlagsBits.UseApplicationCommands],
    ['SEND_MESSAGES_IN_THREADS', SEND_MESSAGES_IN_THREADS, PermissionFlagsBits.SendMessagesInThreads],
    ['USE_EXTERNAL_APPS', USE_EXTERNAL_APPS, PermissionFlagsBits.UseExternalApps],
  ];
  for (const [name, ours, theirs] of cases) {
    it(`${name} has the v10 value`, () => assert.equal(ours, theirs));
  }

  it('ALL is the union of every v10 flag', () => {
    const union = Object.values(PermissionFlagsBits).reduce((all, flag) => all | flag, 0n);
    assert.equal(ALL, union);
  });
});

describe('parsePermissions', () => {
  const valid: [unknown, bigint][] = [
    ['0', 0n],
    ['8', 8n],
    ['2147552256', 2147552256n],
    ['1267650600228229401496703205376', 1n << 100n],
    ['007', 7n],
    [2048, 2048n],
    [5n, 5n],
  ];
  for (const [input, expected] of valid) {
    it(`parses ${String(input)}`, () => assert.equal(parsePermissions(input), expected));
  }

  const invalid: unknown[] = [
    '',
    ' 8',
    '8 ',
    '-1',
    '+1',
    '1e3',
    '0x10',
    '1.5',
    'abc',
    null,
    undefined,
    {},
    [],
    true,
    1.5,
    -1,
    NaN,
    Infinity,
    -5n,
    2 ** 60,
  ];
  for (const input of invalid) {
    it(`reads ${JSON.stringify(String(input))} (${typeof input}) as the empty set`, () =>
      assert.equal(parsePermissions(input), 0n));
  }

  it('never throws and round-trips through formatPermissions', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 200n) - 1n }), (bits) => {
        assert.equal(parsePermissions(formatPermissions(bits)), bits);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.anything(), (value) => {
        assert.equal(typeof parsePermissions(value), 'bigint');
      }),
      { numRuns: 200 },
    );
  });
});

describe('bit set helpers', () => {
  it('isDecimalBitSet accepts digits only', () => {
    assert.equal(isDecimalBitSet('123'), true);
    assert.equal(isDecimalBitSet('12a'), false);
    assert.equal(isDecimalBitSet(12), false);
  });

  it('formatPermissions writes decimal, and "0" for a negative value', () => {
    assert.equal(formatPermissions(1n << 64n), '18446744073709551616');
    assert.equal(formatPermissions(-3n), '0');
  });

  it('hasAll needs every bit; the empty requirement always holds', () => {
    assert.equal(hasAll(0b1110n, 0b0110n), true);
    assert.equal(hasAll(0b1010n, 0b0110n), false);
    assert.equal(hasAll(0n, 0n), true);
  });

  it('hasAny needs one bit', () => {
    assert.equal(hasAny(0b1010n, 0b0110n), true);
    assert.equal(hasAny(0b1000n, 0b0110n), false);
  });

  it('applyOverwrite denies first, then allows (a bit in both ends allowed)', () => {
    assert.equal(applyOverwrite(0b0011n, 0b0100n, 0b0001n), 0b0110n);
    assert.equal(applyOverwrite(0b0001n, 0b0001n, 0b0001n), 0b0001n);
  });
});
