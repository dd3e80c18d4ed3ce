/**
 * The commands a member sees in a channel's command picker: of one app's global and guild
 * commands, those the engine lets the member use there (spec: a user without permission does not
 * see the command).
 */
import type { StoredCommand } from '../commands/model.js';
import { overwritesFor, type GuildCommandPermissions } from './command-permissions.js';
import { evaluateCommandAccess, type CommandAccessInput } from './engine.js';

export interface VisibleCommandsInput extends Omit<CommandAccessInput, 'command' | 'commandPermissions' | 'appPermissions'> {
  /** The app's global commands and its guild commands (others' are left out). */
  readonly commands: readonly StoredCommand[];
  /** The app's permissions objects in this guild, as stored: one per command, one with the app's id. */
  readonly guildPermissions: readonly GuildCommandPermissions[];
}

/** The usable commands, in the order given. */
export function visibleCommands(input: VisibleCommandsInput): StoredCommand[] {
  const { app, guild, commands } = input;
  const ownObjects = input.guildPermissions.filter(
    (object) => object.application_id === app.id && object.guild_id === guild.id,
  );
  const appPermissions = overwritesFor(ownObjects, app.id);
  return commands.filter(
    (command) =>
      command.application_id === app.id &&
      evaluateCommandAccess({ ...input, command, commandPermissions: overwritesFor(ownObjects, command.id), appPermissions }).allowed,
  );
}
