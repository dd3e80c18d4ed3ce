/**
 * Invocations outside guilds (the bot's DM, context BOT_DM): there are no overwrites there, so
 * only the command's scope, contexts and integration types decide, and whether the user installed
 * the app to their account (a user install, through the authorization endpoint).
 */
import { IntegrationType, InteractionContext, type StoredCommand } from '../../../core/commands/model.js';

/** How a DM invocation is authorized: through the guild-install side (the bot's DM) or the user's install. */
export type DmAuthorization = 'guild_install' | 'user_install';

/**
 * Who authorizes the command in a DM; null when nobody does. A command of the guild-install side
 * works in the bot's DM as before (contexts, or `dm_permission` without them); a user-install-only
 * command (integration_types without GUILD_INSTALL) works only for a user who installed the app.
 */
export function dmAuthorization(command: StoredCommand, userInstalled: boolean): DmAuthorization | null {
  if (command.guild_id !== null) return null;
  const { contexts, dm_permission, integration_types } = command.definition;
  const types = integration_types ?? [IntegrationType.GuildInstall];
  const inDm =
    contexts === null
      ? dm_permission
      : contexts.includes(InteractionContext.BotDm) || contexts.includes(InteractionContext.PrivateChannel);
  if (userInstalled && types.includes(IntegrationType.UserInstall) && inDm) return 'user_install';
  if (!types.includes(IntegrationType.GuildInstall)) return null;
  return (contexts === null ? dm_permission : contexts.includes(InteractionContext.BotDm)) ? 'guild_install' : null;
}
