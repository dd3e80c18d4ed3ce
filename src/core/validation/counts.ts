/** How many commands of each type one scope may hold (v10 API, Limits). */
import { CommandType } from '../commands/model.js';
import type { CommandDefinition } from '../commands/model.js';
import {
  CHAT_INPUT_COMMANDS_MAX,
  GLOBAL_ENTRY_POINT_COMMANDS_MAX,
  GUILD_ENTRY_POINT_COMMANDS_MAX,
  MESSAGE_COMMANDS_MAX,
  USER_COMMANDS_MAX,
} from './limits.js';

export interface TypeCountOverflow {
  type: number;
  limit: number;
}

function typeLimits(scope: 'global' | 'guild'): ReadonlyMap<number, number> {
  return new Map([
    [CommandType.ChatInput, CHAT_INPUT_COMMANDS_MAX],
    [CommandType.User, USER_COMMANDS_MAX],
    [CommandType.Message, MESSAGE_COMMANDS_MAX],
    [
      CommandType.PrimaryEntryPoint,
      scope === 'global' ? GLOBAL_ENTRY_POINT_COMMANDS_MAX : GUILD_ENTRY_POINT_COMMANDS_MAX,
    ],
  ]);
}

/** The first type (in type order) with more commands than its limit, or null. */
export function findTypeCountOverflow(
  definitions: readonly CommandDefinition[],
  scope: 'global' | 'guild',
): TypeCountOverflow | null {
  const counts = new Map<number, number>();
  for (const { type } of definitions) counts.set(type, (counts.get(type) ?? 0) + 1);
  for (const [type, limit] of typeLimits(scope)) {
    if ((counts.get(type) ?? 0) > limit) return { type, limit };
  }
  return null;
}
