/**
 * The commands a member sees in a channel's command picker: of one app's global and guild
 * commands, those the engine lets the member use there (v10 API: a user without permission does not
 * see the command).
 *
 * A picker decides every command of the app for one member in one channel, so it takes the
 * engine's fast path (fast-access.ts): the member's facts once, the overwrites indexed. Its
 * decisions are those of `evaluateCommandAccess`, the reference (property-tested).
 */
import type { StoredCommand } from '../commands/model.js';
import type { GuildCommandPermissions } from './command-permissions.js';
import { AccessScene, evaluateCommandAccessFast, type AccessSceneInput } from './fast-access.js';
import { indexGuildPermissions, indexOverwrites } from './overwrite-index.js';

export interface VisibleCommandsInput extends AccessSceneInput {
  /** The app's global commands and its guild commands (others' are left out). */
  readonly commands: readonly StoredCommand[];
  /** The app's permissions objects in this guild, as stored: one per command, one with the app's id. */
  readonly guildPermissions: readonly GuildCommandPermissions[];
}

/** The usable commands, in the order given. */
export function visibleCommands(input: VisibleCommandsInput): readonly StoredCommand[] {
  const { app, guild, commands } = input;
  const scene = new AccessScene(input);
  // Only this app's objects in this guild count; the one whose id is the app id is the app level.
  const permissions = indexGuildPermissions(input.guildPermissions, app.id, guild.id);
  const appOverwrites = indexOverwrites(permissions.overwritesOf(app.id));
  return commands.filter(
    (command) =>
      command.application_id === app.id &&
      evaluateCommandAccessFast(scene, command, indexOverwrites(permissions.overwritesOf(command.id)), appOverwrites)
        .allowed,
  );
}
