/** Commands per type in one scope: 100 CHAT_INPUT, 15 USER, 15 MESSAGE, 1 PRIMARY_ENTRY_POINT (0 in a guild). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CommandType,
  EntryPointHandler,
  type CommandDefinition,
  type CommandTypeValue,
} from '../src/core/commands/model.js';
import { findTypeCountOverflow } from '../src/core/validation/index.js';
import { commandDefinition } from './helpers/commands.js';

function definitions(type: CommandTypeValue, count: number): CommandDefinition[] {
  return Array.from({ length: count }, (_, i) =>
    commandDefinition({
      type,
      name: `c${i}`,
      description: '',
      integration_types: [0],
      handler: type === CommandType.PrimaryEntryPoint ? EntryPointHandler.DiscordLaunchActivity : null,
    }),
  );
}

describe('findTypeCountOverflow', () => {
  const cases: [string, CommandTypeValue, number, 'global' | 'guild', { type: number; limit: number } | null][] = [
    ['100 CHAT_INPUT', 1, 100, 'global', null],
    ['101 CHAT_INPUT', 1, 101, 'global', { type: 1, limit: 100 }],
    ['15 USER', 2, 15, 'global', null],
    ['16 USER', 2, 16, 'global', { type: 2, limit: 15 }],
    ['15 MESSAGE', 3, 15, 'guild', null],
    ['16 MESSAGE', 3, 16, 'guild', { type: 3, limit: 15 }],
    ['1 global PRIMARY_ENTRY_POINT', 4, 1, 'global', null],
    ['2 global PRIMARY_ENTRY_POINT', 4, 2, 'global', { type: 4, limit: 1 }],
    ['0 guild PRIMARY_ENTRY_POINT', 4, 0, 'guild', null],
    ['1 guild PRIMARY_ENTRY_POINT', 4, 1, 'guild', { type: 4, limit: 0 }],
    ['101 guild CHAT_INPUT', 1, 101, 'guild', { type: 1, limit: 100 }],
  ];
  for (const [name, type, count, scope, expected] of cases) {
    test(name, () => assert.deepEqual(findTypeCountOverflow(definitions(type, count), scope), expected));
  }

  test('types count separately', () => {
    const full = [...definitions(1, 100), ...definitions(2, 15), ...definitions(3, 15), ...definitions(4, 1)];
    assert.equal(findTypeCountOverflow(full, 'global'), null);
  });

  test('the first type over its limit, in type order', () => {
    assert.deepEqual(findTypeCountOverflow([...definitions(3, 16), ...definitions(2, 16)], 'global'), {
      type: 2,
      limit: 15,
    });
  });
});
