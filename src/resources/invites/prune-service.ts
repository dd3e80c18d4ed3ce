/**
 * Prune (docs/v10-behaviour.md#invites): `GET /guilds/{id}/prune` counts the members a prune would
 * remove, `POST` removes them in one write with its MEMBER_PRUNE audit entry and tells the bots
 * (GUILD_MEMBER_REMOVE each). Both need KICK_MEMBERS and MANAGE_GUILD, as in v10.
 */
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { refuse } from '../../core/refusals.js';
import { hasAll, KICK_MEMBERS, MANAGE_GUILD } from '../../core/permissions/bits.js';
import { guildDispatch } from '../../core/world/dispatch.js';
import type { Guild } from '../../core/world/types.js';
import { appBasePermissions, toWireMemberUser } from '../../core/world/v10-objects.js';
import { botInGuild } from '../../core/world/guild-members.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { WorldStore } from '../../store/store.js';
import { AuditLogEvent } from '../audit-log/rules.js';
import type { AuditLog } from '../audit-log/service.js';
import { prunableMembers, readPruneBody, readPruneQuery, type PruneRequest } from './prune-rules.js';
import type { InviteStore } from './store.js';
import type { Result } from '../../core/io/result.js';

export interface PruneParts {
  world: Pick<WorldStore, 'getGuild' | 'getUser'>;
  invites: Pick<InviteStore, 'removeMembers'>;
  auditLog: AuditLog;
  events: WorldEvents;
  now: () => number;
}

export class PruneService {
  constructor(private readonly parts: PruneParts) {}

  /** The guild with every member, where the app's bot may prune. */
  private async prunableGuild(applicationId: string, guildId: string): Promise<Guild> {
    const guild = await this.parts.world.getGuild(guildId);
    if (!guild) throw apiError('UnknownGuild');
    if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
    if (!hasAll(appBasePermissions(guild, applicationId), KICK_MEMBERS | MANAGE_GUILD)) refuse('missing-permission');
    return guild;
  }

  private request(read: Result<PruneRequest>): PruneRequest {
    if (!read.ok) throw invalidFormBody(read.issues);
    return read.value;
  }

  async count(applicationId: string, guildId: string, query: Parameters<typeof readPruneQuery>[0]) {
    const request = this.request(readPruneQuery(query));
    const guild = await this.prunableGuild(applicationId, guildId);
    return { pruned: prunableMembers(guild, request, this.parts.now()).length };
  }

  async prune(applicationId: string, guildId: string, body: unknown, reason: string | null) {
    const request = this.request(readPruneBody(body));
    const guild = await this.prunableGuild(applicationId, guildId);
    const members = prunableMembers(guild, request, this.parts.now());
    const entry = this.parts.auditLog.entry({
      guild_id: guild.id,
      user_id: applicationId,
      target_id: null,
      action_type: AuditLogEvent.MemberPrune,
      options: { delete_member_days: String(request.days), members_removed: String(members.length) },
      reason,
    });
    const removed = new Set(
      await this.parts.invites.removeMembers(
        guild.id,
        members.map((m) => m.user_id),
        entry,
      ),
    );
    const events = [];
    for (const member of members.filter((m) => removed.has(m.user_id))) {
      const user = (await this.parts.world.getUser(member.user_id)) ?? undefined;
      events.push(
        guildDispatch('GUILD_MEMBER_REMOVE', guild.id, null, {
          guild_id: guild.id,
          user: toWireMemberUser({ member, user, bot: undefined }),
        }),
      );
    }
    this.parts.events.publishAll(events);
    this.parts.auditLog.announce(entry);
    return { pruned: request.computeCount ? removed.size : null };
  }
}
