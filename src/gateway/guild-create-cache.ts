/**
 * GUILD_CREATE payloads, built once per view and shared by the sessions that see a guild alike,
 * and the directory (users, applications) a guild's members are looked up in.
 */
import { createHash } from 'node:crypto';
import { Intent } from '../core/gateway/intents.js';
import { toWireGuildCreate } from '../core/world/guild-create.js';
import { directoryOf, idsNamedBy, type WorldDirectory } from '../core/world/guild-members.js';
import type { Application, Guild, User } from '../core/world/types.js';
import type { InteractionStore, StoredApplication } from '../store/store.js';
import { NO_STORED_COUNTERS, type StoredChannelCounters } from '../core/world/channel-counters.js';
import type { GatewayWorld, GuildScheduledEvents } from './gateway-options.js';
import type { Session } from './session.js';

/**
 * A GUILD_CREATE payload, and a digest of the names (users, bots and their profiles), the
 * scheduled events and the channels' message counters it was built with.
 */
interface GuildCreateView {
  names: string;
  payload: Record<string, unknown>;
}

export class GuildCreateCache {
  /** GUILD_CREATE payloads by guild instance and view (see `payload`). */
  private readonly byGuild = new WeakMap<Guild, Map<string, GuildCreateView>>();

  constructor(
    private readonly store: GatewayWorld,
    private readonly counters: Pick<InteractionStore, 'channelCounters'> | null = null,
    private readonly scheduledEvents: GuildScheduledEvents | null = null,
  ) {}

  /**
   * GUILD_CREATE for a session, built once per view: while the store hands out the same guild (its
   * read caches do until a write), sessions with the same app, members flag and large threshold
   * share the payload object, and so its JSON text (`jsonOf`). The names of the guild's bots and
   * the members' users are part of the view (a digest of them), as both are written apart from the
   * guild, and so are the scheduled events the bot sees and the channels' message counters (read
   * at once for the guild's channels: a message sent changes them, not the guild); a view keeps
   * only its latest payload.
   */
  async payload(guild: Guild, app: StoredApplication, session: Session): Promise<Record<string, unknown>> {
    const withMembers = (session.intents & Intent.GuildMembers) !== 0;
    const [apps, users, stored, events] = await Promise.all([
      this.guildApplications(guild),
      this.memberUsers(guild),
      this.storedCounters(guild),
      this.scheduledEvents ? this.scheduledEvents(guild, app.id) : [],
    ]);
    let byView = this.byGuild.get(guild);
    if (!byView) this.byGuild.set(guild, (byView = new Map<string, GuildCreateView>()));
    const bots = apps.map((a) => [a.id, a.name, a.bot_profile ?? null]);
    const key = JSON.stringify([app.id, withMembers, session.largeThreshold]);
    const names = createHash('sha256')
      .update(JSON.stringify([bots, users, [...stored], events]))
      .digest('base64');
    let kept = byView.get(key);
    if (kept?.names !== names) {
      const view = { withMembers, largeThreshold: session.largeThreshold };
      kept = { names, payload: toWireGuildCreate(guild, app.id, directoryOf(users, apps), view, stored, events) };
      byView.set(key, kept);
    }
    return kept.payload;
  }

  /** Where the guild's members are looked up: the world's users and the guild's applications. */
  async directory(guild: Guild): Promise<WorldDirectory> {
    const [users, apps] = await Promise.all([this.memberUsers(guild), this.guildApplications(guild)]);
    return directoryOf(users, apps);
  }

  /** The store's message counters of the guild's channels, in one read. */
  private async storedCounters(guild: Guild): Promise<StoredChannelCounters> {
    if (!this.counters) return NO_STORED_COUNTERS;
    return this.counters.channelCounters(guild.channels.map((c) => c.id));
  }

  /** The users of the guild's members, and no others. */
  private memberUsers(guild: Guild): Promise<User[]> {
    return this.store.getUsers(idsNamedBy(guild).userIds);
  }

  /** The applications installed in the guild (those of its bot members among them). */
  private async guildApplications(guild: Guild): Promise<Application[]> {
    const apps = await Promise.all(guild.installs.map((i) => this.store.getApplication(i.application_id)));
    return apps.filter((a): a is StoredApplication => a !== null);
  }
}
