/**
 * What a member sees in a channel's command picker: every command of every app installed in the
 * guild (global and guild commands) that the permission engine lets this member use there.
 */
import type { StoredCommand } from '../core/commands/model.js';
import { toWireCommand, toWireCommandJson, type LocalizationView } from '../core/commands/wire.js';
import type { Locale } from '../core/locales.js';
import { COMMANDS_SCOPE, BOT_SCOPE } from '../core/permissions/install.js';
import type { GuildCommandPermissions } from '../core/permissions/command-permissions.js';
import { explainCommands, type CommandExplanation } from '../core/permissions/explain.js';
import { explanationText } from '../core/permissions/explain-wording.js';
import { visibleCommands } from '../core/permissions/visible-commands.js';
import type { Application, Channel, Guild, User } from '../core/world/types.js';
import type { CommandStore, WorldStore } from '../store/store.js';
import { memberOf } from '../core/world/member-index.js';

export interface CommandIndex {
  applications: Record<string, unknown>[];
  application_commands: Record<string, unknown>[];
}

/** One app of the index and the commands of it the member may use (never empty). */
interface VisibleApp {
  app: Application;
  commands: readonly StoredCommand[];
}

/** An app installed for commands, with what the index and the explainer decide on. */
interface InstalledApp {
  app: Application;
  commands: readonly StoredCommand[];
  guildPermissions: readonly GuildCommandPermissions[];
}

/** "Why not?" for one app: each of its commands, explained and worded. */
export interface AppExplanation {
  id: string;
  name: string;
  commands: (CommandExplanation & { text: string })[];
}

/** The index's entry for an app. */
function wireApplication(app: Application): Record<string, unknown> {
  return { id: app.id, name: app.name, icon: null, description: '', bot_id: app.id, flags: app.flags };
}

function localized(locale: Locale | null): LocalizationView {
  return { kind: 'localized', locale };
}

/** The store reads the index needs (all cached by the store but the application). */
export interface CommandIndexStore {
  world: Pick<WorldStore, 'getApplication'>;
  commands: Pick<CommandStore, 'listCommands' | 'listCommandPermissions'>;
}

export class CommandIndexService {
  constructor(private readonly store: CommandIndexStore) {}

  /** The index as an object. */
  async build(guild: Guild, channel: Channel, user: User, locale: Locale | null): Promise<CommandIndex> {
    const index: CommandIndex = { applications: [], application_commands: [] };
    const view = localized(locale);
    for (const { app, commands } of await this.visibleApps(guild, channel, user)) {
      index.applications.push(wireApplication(app));
      for (const command of commands) index.application_commands.push(toWireCommand(command, view));
    }
    return index;
  }

  /**
   * The index as JSON text, byte for byte `JSON.stringify(await this.build(...))`, assembled from
   * each command's cached JSON (toWireCommandJson) instead of encoding every command anew.
   */
  async buildJson(guild: Guild, channel: Channel, user: User, locale: Locale | null): Promise<string> {
    const view = localized(locale);
    const applications: string[] = [];
    const commands: string[] = [];
    for (const visible of await this.visibleApps(guild, channel, user)) {
      applications.push(JSON.stringify(wireApplication(visible.app)));
      for (const command of visible.commands) commands.push(toWireCommandJson(command, view));
    }
    return `{"applications":[${applications.join(',')}],"application_commands":[${commands.join(',')}]}`;
  }

  /**
   * The guild's command index for the permission editor: every app installed for commands and all
   * its commands in the guild (global and this guild's), whoever may use them. The caller has
   * checked that the user may manage command permissions there.
   */
  async guildIndex(guild: Guild, locale: Locale | null): Promise<CommandIndex> {
    const index: CommandIndex = { applications: [], application_commands: [] };
    const view = localized(locale);
    for (const { app, commands } of await this.installedApps(guild)) {
      index.applications.push(wireApplication(app));
      for (const command of commands) index.application_commands.push(toWireCommand(command, view));
    }
    return index;
  }

  /**
   * "Why not?": every command of every app installed for commands, with its verdict and reason
   * (core/permissions/explain.ts), grouped by app in install order: the same apps, commands and
   * stored permissions the index decides on, so a command is shown or refused exactly when the
   * index lists it. The caller has checked that the user may view the channel.
   */
  async explain(guild: Guild, channel: Channel, user: User): Promise<AppExplanation[]> {
    const member = memberOf(guild, user.id);
    if (!member) return [];
    const explained: AppExplanation[] = [];
    for (const { app, commands, guildPermissions } of await this.installedApps(guild)) {
      const scene = { app, guild, member, user, channel, installed: true };
      const commandsExplained = explainCommands({ ...scene, commands, guildPermissions }).map((explanation) => ({
        ...explanation,
        text: explanationText(explanation),
      }));
      explained.push({ id: app.id, name: app.name, commands: commandsExplained });
    }
    return explained;
  }

  /** Every app installed for commands whose commands the member may use some of, in install order. */
  private async visibleApps(guild: Guild, channel: Channel, user: User): Promise<VisibleApp[]> {
    const member = memberOf(guild, user.id);
    if (!member) return [];
    const visibleApps: VisibleApp[] = [];
    for (const { app, commands, guildPermissions } of await this.installedApps(guild)) {
      const visible = visibleCommands({
        app,
        guild,
        member,
        user,
        channel,
        installed: true,
        commands,
        guildPermissions,
      });
      if (visible.length > 0) visibleApps.push({ app, commands: visible });
    }
    return visibleApps;
  }

  /** The apps installed in the guild for commands, in install order, with their commands and stored permissions there. */
  private async installedApps(guild: Guild): Promise<InstalledApp[]> {
    const installed: InstalledApp[] = [];
    for (const install of guild.installs) {
      if (!install.scopes.includes(COMMANDS_SCOPE) && !install.scopes.includes(BOT_SCOPE)) continue;
      const app = await this.store.world.getApplication(install.application_id);
      if (!app) continue;
      const commands = [
        ...(await this.store.commands.listCommands({ applicationId: app.id, guildId: null })),
        ...(await this.store.commands.listCommands({ applicationId: app.id, guildId: guild.id })),
      ];
      const guildPermissions = await this.store.commands.listCommandPermissions(app.id, guild.id);
      installed.push({ app, commands, guildPermissions });
    }
    return installed;
  }
}
