/** Whether, and how, an application is installed in a guild (world.md, `installs[]`). */
import type { Guild, Install } from '../world/types.js';

/** The OAuth2 scope that adds an app's commands to a guild. */
export const COMMANDS_SCOPE = 'applications.commands';
/** The OAuth2 scope that adds the bot user; it includes `applications.commands`. */
export const BOT_SCOPE = 'bot';

export function findInstall(guild: Guild, applicationId: string): Install | undefined {
  return guild.installs.find((install) => install.application_id === applicationId);
}

/** True when the app's commands are available in the guild: installed with either scope. */
export function isInstalledForCommands(guild: Guild, applicationId: string): boolean {
  const install = findInstall(guild, applicationId);
  return install !== undefined && (install.scopes.includes(COMMANDS_SCOPE) || install.scopes.includes(BOT_SCOPE));
}
