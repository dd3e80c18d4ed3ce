/**
 * Invocations outside guilds (the bot's DM, context BOT_DM): there are no overwrites there, so
 * only the command's scope and contexts decide.
 */
import { InteractionContext, type StoredCommand } from '../commands/model.js';

export function mayUseInBotDm(command: StoredCommand): boolean {
  if (command.guild_id !== null) return false;
  const { contexts, dm_permission } = command.definition;
  if (contexts === null) return dm_permission;
  return contexts.includes(InteractionContext.BotDm);
}
