/** The enumerations a command body may use, and the defaults that are lists. */
import {
  CommandType,
  EntryPointHandler,
  IntegrationType,
  InteractionContext,
  OptionType,
  type CommandTypeValue,
  type OptionTypeValue,
} from '../commands/model.js';

/** Command types 1-4. */
export const COMMAND_TYPES: readonly number[] = Object.values(CommandType);
/** Option types 1-11. */
export const OPTION_TYPES: readonly number[] = Object.values(OptionType);
/** Entry point handler types. */
export const ENTRY_POINT_HANDLERS: readonly number[] = Object.values(EntryPointHandler);
/** Integration types: GUILD_INSTALL 0, USER_INSTALL 1. */
export const INTEGRATION_TYPES: readonly number[] = Object.values(IntegrationType);
/** Interaction contexts: GUILD 0, BOT_DM 1, PRIVATE_CHANNEL 2. */
export const INTERACTION_CONTEXTS: readonly number[] = Object.values(InteractionContext);
/** The v10 channel types an option's `channel_types` may name. */
export const CHANNEL_TYPES: readonly number[] = [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16];

/** `integration_types` of a bulk item that omits it (v10 API, JSON params). */
export const BULK_DEFAULT_INTEGRATION_TYPES: readonly number[] = [IntegrationType.GuildInstall];
/** `contexts` of a bulk item that omits it (v10 API, JSON params). */
export const BULK_DEFAULT_CONTEXTS: readonly number[] = [
  InteractionContext.Guild,
  InteractionContext.BotDm,
  InteractionContext.PrivateChannel,
];

const COMMAND_TYPE_NAMES: Readonly<Record<CommandTypeValue, string>> = {
  1: 'CHAT_INPUT',
  2: 'USER',
  3: 'MESSAGE',
  4: 'PRIMARY_ENTRY_POINT',
};

const OPTION_TYPE_NAMES: Readonly<Record<OptionTypeValue, string>> = {
  1: 'SUB_COMMAND',
  2: 'SUB_COMMAND_GROUP',
  3: 'STRING',
  4: 'INTEGER',
  5: 'BOOLEAN',
  6: 'USER',
  7: 'CHANNEL',
  8: 'ROLE',
  9: 'MENTIONABLE',
  10: 'NUMBER',
  11: 'ATTACHMENT',
};

export function commandTypeName(type: CommandTypeValue): string {
  return COMMAND_TYPE_NAMES[type];
}

export function optionTypeName(type: OptionTypeValue): string {
  return OPTION_TYPE_NAMES[type];
}

export function isCommandType(value: number): value is CommandTypeValue {
  return COMMAND_TYPES.includes(value);
}

export function isOptionType(value: number): value is OptionTypeValue {
  return OPTION_TYPES.includes(value);
}
