/**
 * The guild itself (docs/v10-behaviour.md#guild-edit): `PATCH /guilds/{id}` with MANAGE_GUILD,
 * written into the guild's document with its GUILD_UPDATE audit entry (1) and told to the guild's
 * bots as GUILD_UPDATE (GUILDS intent); `GET /guilds/{id}/preview` for any member.
 */
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { refuse } from '../../core/refusals.js';
import { hasAll, MANAGE_GUILD } from '../../core/permissions/bits.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import { guildMembers } from '../../core/world/guild-members.js';
import { toWireGuild } from '../../core/world/v10-objects.js';
import { viewerGuildPermissions, viewerId, viewerInGuild, type Viewer } from '../../core/world/viewer.js';
import type { WorldEvents } from '../../events/world-events.js';
import { AuditLogEvent, type AuditEntry } from '../audit-log/rules.js';
import type { AuditLog } from '../audit-log/service.js';
import { guildDirectory, visibleGuild, type WorldReadStore } from '../world/reads.js';
import { editedGuild, guildEditChanges, readGuildEdit } from './rules/guild-edit.js';
import { toWireGuildPreview } from './rules/guild-preview.js';
import type { GuildSettingsStore } from './store.js';

type WireObject = Record<string, unknown>;

export interface GuildEditParts {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  guildSettings: GuildSettingsStore;
  auditLog: AuditLog;
  events: WorldEvents;
}

export class GuildEditService {
  constructor(private readonly parts: GuildEditParts) {}

  /** `PATCH /guilds/{id}`: the guild object after the edit (nothing written or told when nothing changed). */
  async edit(viewer: Viewer, guildId: string, body: unknown, reason: string | null): Promise<WireObject> {
    const read = readGuildEdit(body);
    if (!read.ok) throw invalidFormBody(read.issues);
    const guild = await visibleGuild(this.parts, viewer, guildId);
    if (!hasAll(viewerGuildPermissions(guild, viewer), MANAGE_GUILD)) refuse('missing-permission');
    let audit: AuditEntry[] = [];
    const change = await this.parts.guildSettings.changeGuildSettings(guild.id, (stored) => {
      if (!viewerInGuild({ ...stored, members: guild.members }, viewer)) throw apiError('MissingAccess');
      const after = editedGuild(stored, read.value);
      if (!after.ok) throw invalidFormBody(after.issues);
      const changes = guildEditChanges(stored, after.value);
      audit =
        changes.length === 0
          ? []
          : [
              this.parts.auditLog.entry({
                guild_id: guild.id,
                user_id: viewerId(viewer),
                target_id: guild.id,
                action_type: AuditLogEvent.GuildUpdate,
                changes,
                reason,
              }),
            ];
      return { after: after.value, audit };
    });
    if (!change) throw apiError('UnknownGuild');
    const wire = toWireGuild(change.after);
    if (audit.length === 0) return wire;
    this.parts.events.publishAll([guildDispatch('GUILD_UPDATE', guild.id, null, wire)]);
    for (const entry of audit) this.parts.auditLog.announce(entry);
    return wire;
  }

  /** `GET /guilds/{id}/preview`: v10 answers it for members (and for discoverable guilds, which slashd has none of). */
  async preview(viewer: Viewer, guildId: string): Promise<WireObject> {
    const guild = await this.parts.world.getGuild(guildId);
    if (!guild) throw apiError('UnknownGuild');
    if (!viewerInGuild(guild, viewer)) throw apiError('UnknownGuild');
    const count = guildMembers(guild, await guildDirectory(this.parts.world, guild)).length;
    return toWireGuildPreview(guild, count);
  }
}
