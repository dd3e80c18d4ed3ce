/**
 * What a member sees in a channel's command picker: every command of every app installed in the
 * guild (global and guild commands) that the permission engine lets this member use there.
 */
import type { StoredCommand } from '../core/commands/model.js';
import { toWireCommand, toWireCommandJson, type LocalizationView } from '../core/commands/wire.js';
import type { Locale } from '../core/locales.js';
import { COMMANDS_SCOPE, BOT_SCOPE } from '../core/permissions/install.js';
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

  /** Every app installed for commands whose commands the member may use some of, in install order. */
  private async visibleApps(guild: Guild, channel: Channel, user: User): Promise<VisibleApp[]> {
    const member = memberOf(guild, user.id);
    if (!member) return [];
    const visibleApps: VisibleApp[] = [];
    for (const install of guild.installs) {
      if (!install.scopes.includes(COMMANDS_SCOPE) && !install.scopes.includes(BOT_SCOPE)) continue;
      const app = await this.store.world.getApplication(install.application_id);
      if (!app) continue;
      const commands = [
        ...(await this.store.commands.listCommands({ applicationId: app.id, guildId: null })),
        ...(await this.store.commands.listCommands({ applicationId: app.id, guildId: guild.id })),
      ];
      const visible = visibleCommands({
        app,
        guild,
        member,
        user,
        channel,
        installed: true,
        commands,
        guildPermissions: await this.store.commands.listCommandPermissions(app.id, guild.id),
      });
      if (visible.length > 0) visibleApps.push({ app, commands: visible });
    }
    return visibleApps;
  }
}
