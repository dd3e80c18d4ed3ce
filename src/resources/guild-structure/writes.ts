/**
 * One change of a guild's roles or channels by an app's bot: the store runs the pure change on the
 * guild as stored, in one transaction with its audit log entries (the reason of
 * `X-Audit-Log-Reason`), and the bots are told what changed (GUILD_ROLE_*, CHANNEL_* under GUILDS,
 * computed from the guild before and after by the world diff; GUILD_AUDIT_LOG_ENTRY_CREATE).
 */
import { botActor, type StructureActor } from './rules/actor.js';
import { structureAuditInputs } from './rules/audit.js';
import type { AuditEntry, AuditEntryInput } from '../audit-log/rules.js';
import { apiError } from '../../core/io/errors.js';
import { diffWorlds } from '../../core/world/diff.js';
import { botInGuild } from '../../core/world/guild-members.js';
import type { Guild, World } from '../../core/world/types.js';
import type { GuildStructure, GuildStructureStore } from './store.js';
import type { GuildMemberStore, InteractionStore } from '../../store/store.js';
import { withCounters, type CountersOf } from '../../core/world/channel-counters.js';
import type { AuditLog } from '../audit-log/service.js';
import type { WorldEvents } from '../../events/world-events.js';

/** The guild's structure changed (`guildStructure`), and the guild of a channel looked up (`members`). */
export interface StructureStore {
  readonly guildStructure: Pick<GuildStructureStore, 'changeGuildStructure'>;
  readonly members: Pick<GuildMemberStore, 'findGuildByChannelWithMembers'>;
  /** The channels' message counters, which the channel objects sent and answered carry. */
  readonly interactions: Pick<InteractionStore, 'channelCounters'>;
}

/**
 * What a change answers: the structure after it, what the route returns, and the audit log entries
 * of what the roles' and channels' diff does not name (an emoji's, a sticker's).
 */
export type StructurePlan<R> = (
  guild: Guild,
  actor: StructureActor,
) => { structure: GuildStructure; result: R; audit?: readonly AuditEntryInput[] };

/** The guild alone, as the diff reads it: its members and the world file's messages left out. */
function worldOf(guild: Guild): World {
  return { applications: [], users: [], guilds: [{ ...guild, members: [], messages: [] }], oauth2_tokens: [] };
}

export class GuildStructureWrites {
  constructor(
    private readonly store: StructureStore,
    private readonly events: WorldEvents,
    private readonly auditLog: AuditLog,
  ) {}

  /**
   * Runs `plan` for the app's bot in the guild, `reason` its audit log entries': 10004 for no such
   * guild, 50001 when the bot is not in it.
   */
  async change<R>(
    applicationId: string,
    guildId: string,
    reason: string | null,
    plan: StructurePlan<R>,
  ): Promise<{ after: Guild; result: R; counters: CountersOf }> {
    let audit: AuditEntry[] = [];
    const change = await this.store.guildStructure.changeGuildStructure(guildId, (guild) => {
      if (!botInGuild(guild, applicationId)) throw apiError('MissingAccess');
      const planned = plan(guild, botActor(guild, applicationId));
      const inputs = [
        ...structureAuditInputs(guild, planned.structure, applicationId, reason),
        ...(planned.audit ?? []),
      ];
      audit = inputs.map((input) => this.auditLog.entry(input));
      return { structure: planned.structure, result: planned.result, audit };
    });
    if (!change) throw apiError('UnknownGuild');
    // Both guilds' channels (a deleted one among them), in one read.
    const ids = new Set([...change.before.channels, ...change.after.channels].map((c) => c.id));
    const stored = await this.store.interactions.channelCounters([...ids]);
    this.events.publishAll(diffWorlds(worldOf(change.before), worldOf(change.after), stored));
    for (const entry of audit) this.auditLog.announce(entry);
    return { after: change.after, result: change.result, counters: withCounters(change.before, stored) };
  }

  /** The guild of a channel (10003 for a channel no guild has). */
  async guildIdOfChannel(channelId: string): Promise<string> {
    const guild = await this.store.members.findGuildByChannelWithMembers(channelId, []);
    if (!guild) throw apiError('UnknownChannel');
    return guild.id;
  }
}
