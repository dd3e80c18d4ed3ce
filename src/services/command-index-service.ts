/**
 * What a member sees in a channel's command picker: every command of every app installed in the
 * guild (global and guild commands) that the permission engine lets this member use there.
 */
import { toWireCommand } from '../core/commands/wire.js';
import type { Locale } from '../core/locales.js';
import { COMMANDS_SCOPE, BOT_SCOPE } from '../core/permissions/install.js';
import { visibleCommands } from '../core/permissions/visible-commands.js';
import type { Channel, Guild, User } from '../core/world/types.js';
import type { Store } from '../store/store.js';

export interface CommandIndex {
  applications: Record<string, unknown>[];
  application_commands: Record<string, unknown>[];
}

export class CommandIndexService {
  constructor(private readonly store: Store) {}

  async build(guild: Guild, channel: Channel, user: User, locale: Locale | null): Promise<CommandIndex> {
    const member = guild.members.find((m) => m.user_id === user.id);
    const index: CommandIndex = { applications: [], application_commands: [] };
    if (!member) return index;
    for (const install of guild.installs) {
      if (!install.scopes.includes(COMMANDS_SCOPE) && !install.scopes.includes(BOT_SCOPE)) continue;
      const app = await this.store.getApplication(install.application_id);
      if (!app) continue;
      const commands = [
        ...(await this.store.listCommands({ applicationId: app.id, guildId: null })),
        ...(await this.store.listCommands({ applicationId: app.id, guildId: guild.id })),
      ];
      const visible = visibleCommands({
        app,
        guild,
        member,
        user,
        channel,
        installed: true,
        commands,
        guildPermissions: await this.store.listCommandPermissions(app.id, guild.id),
      });
      if (visible.length === 0) continue;
      index.applications.push({ id: app.id, name: app.name, icon: null, description: '', bot_id: app.id, flags: app.flags });
      for (const command of visible) index.application_commands.push(toWireCommand(command, { kind: 'localized', locale }));
    }
    return index;
  }
}
