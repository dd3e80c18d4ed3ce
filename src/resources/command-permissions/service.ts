/**
 * Command permissions in a guild: reads for the app, edits for a user who may make them, each
 * edit one write followed by the APPLICATION_COMMAND_PERMISSIONS_UPDATE event.
 */
import type { StoredCommand } from '../../core/commands/model.js';
import { invalidFormBody, apiError } from '../../core/io/errors.js';
import { overwritesFor, type GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import { validatePermissionsBody } from '../../core/permissions/validate-permissions.js';
import { checkPermissionEditor, checkPermissionManager, editorRefusal } from '../../core/permissions/who-may-edit.js';
import type { Application, Guild, User } from '../../core/world/types.js';
import type { EventBus } from '../../events/bus.js';
import type { CommandStore } from '../../store/store.js';
import { memberOf } from '../../core/world/member-index.js';

export class PermissionsService {
  constructor(
    private readonly store: CommandStore,
    private readonly bus: EventBus,
  ) {}

  /**
   * The app reads its own permissions (`reader` null); a user session reads them as v10's client
   * does, only as a member who may manage them (checks 1 and 2 of docs/permissions.md).
   */
  private checkReader(guild: Guild, reader: User | null): void {
    if (!reader) return;
    const refusal = checkPermissionManager(guild, memberOf(guild, reader.id) ?? null);
    if (refusal) throw editorRefusal(refusal);
  }

  async list(app: Application, guild: Guild, reader: User | null = null): Promise<readonly GuildCommandPermissions[]> {
    this.checkReader(guild, reader);
    return this.store.listCommandPermissions(app.id, guild.id);
  }

  /** The command (global, or of this guild) a permissions path names; null for the app-level id. */
  private async target(app: Application, guild: Guild, targetId: string): Promise<StoredCommand | null> {
    if (targetId === app.id) return null;
    const command =
      (await this.store.getCommand({ applicationId: app.id, guildId: null }, targetId)) ??
      (await this.store.getCommand({ applicationId: app.id, guildId: guild.id }, targetId));
    if (!command) throw apiError('UnknownApplicationCommand');
    return command;
  }

  async get(
    app: Application,
    guild: Guild,
    targetId: string,
    reader: User | null = null,
  ): Promise<GuildCommandPermissions> {
    this.checkReader(guild, reader);
    await this.target(app, guild, targetId);
    const found = await this.store.getCommandPermissions(app.id, guild.id, targetId);
    if (!found) throw apiError('UnknownApplicationCommandPermissions');
    return found;
  }

  async put(
    app: Application,
    guild: Guild,
    editor: User,
    targetId: string,
    body: unknown,
  ): Promise<GuildCommandPermissions> {
    await this.target(app, guild, targetId);
    const validated = validatePermissionsBody(body, guild);
    if (!validated.ok) throw invalidFormBody(validated.issues);
    const member = memberOf(guild, editor.id) ?? null;
    const installed = isInstalledForCommands(guild, app.id);
    // Decided on what is stored at the moment of writing: a command deleted meanwhile is gone.
    const saved = await this.store.mutateCommandPermissions(app.id, guild.id, targetId, ({ permissions, command }) => {
      if (targetId !== app.id && !command) throw apiError('UnknownApplicationCommand');
      const refusal = checkPermissionEditor({
        app,
        guild,
        user: editor,
        member,
        command,
        commandPermissions: command ? overwritesFor(permissions, command.id) : null,
        appPermissions: overwritesFor(permissions, app.id),
        permissions: validated.value,
        installed,
      });
      if (refusal) throw editorRefusal(refusal);
      return validated.value;
    });
    this.bus.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', { applicationId: app.id, data: saved });
    return saved;
  }
}
