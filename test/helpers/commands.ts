/** Command definitions and stored commands for tests of the pure core: the defaults v10 applies. */
import { CommandType, type CommandDefinition, type StoredCommand } from '../../src/core/commands/model.js';

/** A CHAT_INPUT definition as validation leaves it (every field present), with `overrides`. */
export function commandDefinition(overrides: Partial<CommandDefinition> = {}): CommandDefinition {
  return {
    type: CommandType.ChatInput,
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
    ...overrides,
  };
}

/** A stored command of `applicationId` whose version is its id (as when just created). */
export function storedCommand(
  id: string,
  definition: CommandDefinition,
  applicationId: string,
  guildId: string | null = null,
): StoredCommand {
  return { id, application_id: applicationId, guild_id: guildId, version: id, definition };
}
