/**
 * Guilds, their channels, roles and members, users, and the caller's guilds, as the REST reads of
 * bots handling interactions see them (docs/v10-behaviour.md#endpoints). A bot reads a guild it is
 * in (installed with the `bot` scope), a user one they are a member of; anyone else gets 50001,
 * an unknown guild 10004.
 */
import { ApplicationFlags } from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import { isThread } from '../../core/permissions/channels.js';
import { isSnowflake } from '../../core/snowflake.js';
import { findGuildMember, guildMembers } from '../../core/world/guild-members.js';
import { compareSnowflakes, selectPage, type Page } from '../../core/world/page-query.js';
import type { Application, Guild } from '../../core/world/types.js';
import {
  toWireGuild,
  toWireGuildChannel,
  toWireGuildMember,
  toWireMyGuild,
  toWireRoles,
} from '../../core/world/v10-objects.js';
import { viewerGuildPermissions, viewerId, viewerInGuild, type Viewer } from '../../core/world/viewer.js';
import { toWirePublicBot, toWirePublicUser } from '../../core/world/wire.js';
import type { InteractionStore, WorldStore } from '../../store/store.js';
import { withCounters } from '../../core/world/channel-counters.js';
import type { Locale } from '../../core/locales.js';
import { checkPermissionManager, editorRefusal } from '../../core/permissions/who-may-edit.js';
import { memberOf } from '../../core/world/member-index.js';
import type { User } from '../../core/world/types.js';
import type { CommandIndex, CommandIndexService } from '../command-index/service.js';
import { guildDirectory, visibleGuild, visibleGuildWithAllMembers, type WorldReadStore } from '../world/reads.js';

type WireObject = Record<string, unknown>;

/** Application flags that enable the privileged GUILD_MEMBERS intent (v10: listing members needs one). */
const MEMBERS_INTENT_FLAGS = ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited;

function hasMembersIntent(app: Application): boolean {
  return (app.flags & MEMBERS_INTENT_FLAGS) !== 0;
}

/** The guild's command index the permission editor lists (command-index-service.ts). */
export type GuildCommandIndex = Pick<CommandIndexService, 'guildIndex'>;

/** What the guild reads look up: the reads of every REST read, and the list of guilds. */
export type GuildsStore = WorldReadStore & {
  readonly world: Pick<WorldStore, 'listGuilds'>;
  /** The channels' message counters (`last_message_id`), read at once for a guild's list. */
  readonly interactions: Pick<InteractionStore, 'channelCounters'>;
};

export class GuildsService {
  constructor(
    private readonly store: GuildsStore,
    private readonly commandIndex: GuildCommandIndex | null = null,
  ) {}

  /**
   * Every command of the apps installed in the guild, for a member who may manage command
   * permissions there (the permission editor, as v10's client lists them in the server settings).
   */
  async guildCommandIndex(user: User, guildId: string, locale: Locale | null): Promise<CommandIndex> {
    const guild = await visibleGuild(this.store, { kind: 'user', userId: user.id }, guildId);
    const refusal = checkPermissionManager(guild, memberOf(guild, user.id) ?? null);
    if (refusal) throw editorRefusal(refusal);
    if (!this.commandIndex) throw new Error('GuildsService built without the command index');
    return this.commandIndex.guildIndex(guild, locale);
  }

  /** `guild` holds every member. */
  private async memberCount(guild: Guild): Promise<number> {
    return guildMembers(guild, await guildDirectory(this.store.world, guild)).length;
  }

  async guild(viewer: Viewer, guildId: string, withCounts: boolean): Promise<WireObject> {
    const guild = withCounts
      ? await visibleGuildWithAllMembers(this.store, viewer, guildId)
      : await visibleGuild(this.store, viewer, guildId);
    const wire = toWireGuild(guild);
    if (withCounts) {
      wire.approximate_member_count = await this.memberCount(guild);
      wire.approximate_presence_count = 0;
    }
    return wire;
  }

  /** Every channel but threads (v10 lists threads elsewhere), whatever the caller may view in them. */
  async channels(viewer: Viewer, guildId: string): Promise<WireObject[]> {
    const guild = await visibleGuild(this.store, viewer, guildId);
    const channels = guild.channels.filter((c) => !isThread(c));
    const counters = withCounters(guild, await this.store.interactions.channelCounters(channels.map((c) => c.id)));
    return channels.map((c) => toWireGuildChannel(guild, c, counters));
  }

  async roles(viewer: Viewer, guildId: string): Promise<WireObject[]> {
    return toWireRoles(await visibleGuild(this.store, viewer, guildId));
  }

  async member(viewer: Viewer, guildId: string, userId: string): Promise<WireObject> {
    const guild = await visibleGuild(this.store, viewer, guildId, [userId]);
    const view = findGuildMember(guild, userId, await guildDirectory(this.store.world, guild, userId));
    if (!view) throw apiError('UnknownMember');
    return toWireGuildMember(guild, view);
  }

  /**
   * The member list, ascending by user id after `after`: for bots only, and only with the
   * GUILD_MEMBERS intent enabled for the app (v10 refuses with Missing Access otherwise).
   */
  async members(app: Application, guildId: string, page: Page): Promise<WireObject[]> {
    const guild = await visibleGuildWithAllMembers(this.store, { kind: 'bot', applicationId: app.id }, guildId);
    if (!hasMembersIntent(app)) throw apiError('MissingAccess');
    const after = page.after ?? '0';
    return guildMembers(guild, await guildDirectory(this.store.world, guild))
      .filter((view) => compareSnowflakes(view.member.user_id, after) > 0)
      .slice(0, page.limit)
      .map((view) => toWireGuildMember(guild, view));
  }

  /** v10: ascending by id, `before` or `after` a guild id, at most `page.limit`. */
  async myGuilds(viewer: Viewer, page: Page, withCounts: boolean): Promise<WireObject[]> {
    // Without a cursor the list starts at the lowest id, as `after=0` would.
    const cursored = page.before === undefined && page.after === undefined ? { ...page, after: '0' } : page;
    const mine = (await this.store.world.listGuilds()).filter((guild) => viewerInGuild(guild, viewer));
    const chosen = selectPage(mine, cursored, (g) => g.id).sort((a, b) => compareSnowflakes(a.id, b.id));
    const wire: WireObject[] = [];
    for (const guild of chosen) {
      const count = withCounts ? await this.memberCount(guild) : undefined;
      const isOwner = guild.owner_id === viewerId(viewer);
      wire.push(toWireMyGuild(guild, isOwner, viewerGuildPermissions(guild, viewer), count));
    }
    return wire;
  }

  /** Any user (or a bot, by its application id) to any caller, as in v10. */
  async user(id: string): Promise<WireObject> {
    if (!isSnowflake(id)) throw apiError('UnknownUser');
    const user = await this.store.world.getUser(id);
    if (user) return toWirePublicUser(user);
    const app = await this.store.world.getApplication(id);
    if (app) return toWirePublicBot(app);
    throw apiError('UnknownUser');
  }
}
