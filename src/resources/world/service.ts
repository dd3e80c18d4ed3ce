/**
 * The world as the admin API and the HTTP guards see it, and changes to it that carry
 * consequences beyond the stored document: an application that gains Activities (the EMBEDDED
 * flag) gets its "Launch" entry point command, and bots are told what changed (the v10 dispatches
 * of `diffWorlds`, published through `WorldEvents`).
 */
import { createHash } from 'node:crypto';
import { hasActivities } from '../../core/commands/model.js';
import { WORLD_DUPLICATE, WORLD_UNKNOWN_REFERENCE } from '../../core/io/codes.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { issue } from '../../core/io/issue.js';
import { atMergedIndexes, checkAddition } from '../../core/world/addition-consistency.js';
import { diffWorlds } from '../../core/world/diff.js';
import {
  additionChange,
  applyChange,
  isEmptyChange,
  replacementChange,
  summarize,
  type WorldChangeSummary,
  type WorldFileSource,
  noChange,
  readWorldFileRecord,
  worldFileRecordText,
} from '../../core/world/world-change.js';
import { membersPage } from '../../core/world/member-index.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import { isSnowflake } from '../../core/snowflake.js';
import type { Application, Guild, Member, OAuth2Token, User, World } from '../../core/world/types.js';
import {
  DuplicateTokenError,
  type GuildMemberStore,
  type InteractionStore,
  type IssuedToken,
  type WorldStore,
} from '../../store/store.js';
import { SEED_WORLD_DIGEST, WORLD_FILE_DIGEST, type StoreMetaRecord } from '../../store/rows.js';
import { BannedUserError } from '../members/store.js';
import type { CommandsService } from '../commands/service.js';
import type { WorldEvents } from '../../events/world-events.js';
import { additionContext, changeSlices, keptCounts, storedVersionsOf, withoutKeys } from './changes.js';
import type { EntitlementStore } from '../entitlements/store.js';

function duplicate(field: string, what: string) {
  return invalidFormBody([issue([field], WORLD_DUPLICATE, `Another ${what} has this ${field} already`)]);
}

/**
 * The store's refusal of a token another node stored after this one's check: the list of the
 * object named (which of them, only the database knew).
 */
function asDuplicateInChange(error: unknown): never {
  if (!(error instanceof DuplicateTokenError)) throw error;
  const list = error.holder === 'user' ? 'users' : 'applications';
  const field = error.holder === 'user' ? 'token' : 'bot_token';
  throw invalidFormBody([issue([list], WORLD_DUPLICATE, `Another ${error.holder} has this ${field} already`)]);
}

/** The store's refusal of a duplicate token, as the same error the check before the write gives. */
function asDuplicate(field: string, what: string) {
  return (error: unknown): never => {
    throw error instanceof DuplicateTokenError ? duplicate(field, what) : error;
  };
}

/**
 * Which part of the world a change can touch, so that only that part is read before and after it
 * (never the whole world): these guilds, with their members' users and installed applications.
 */
interface ChangeScope {
  guildIds: readonly string[];
  /**
   * Only this member of each guild is compared (a user's or one member's change): the others are
   * the same before and after, so they are neither read nor diffed. Messages are left out too.
   */
  onlyMember?: string;
  /** Members are not compared at all (an application's change: only its bot member can change). */
  membersOf?: 'bots';
  /**
   * Only users change (a user's own write): the guilds read before stand for after too, as every
   * guild change goes through this service's queue, and only the users are read again.
   */
  usersOnly?: boolean;
}

export class WorldService {
  /** World changes run one at a time, so that each diff sees exactly its own change. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: WorldStore,
    /** A guild's members: read with the guild, written one by one (the admin API's member writes). */
    private readonly members: Pick<
      GuildMemberStore,
      'getGuildWithMembers' | 'guildIdsOfMember' | 'putGuildMember' | 'deleteGuildMember'
    >,
    private readonly commands: CommandsService,
    private readonly events: WorldEvents,
    /** The channels' message counters, carried by the CHANNEL_* and THREAD_* dispatches of a change. */
    private readonly counters: Pick<InteractionStore, 'channelCounters'>,
    /** The monetization sandbox's SKUs: an application's `skus` are put there when it is written. */
    private readonly skus: Pick<EntitlementStore, 'putSkus'>,
  ) {}

  /**
   * Publishes the dispatches of a change from `before` to `after`: the channels they carry hold
   * their counters, read once for every channel of `after` (as every other read of a channel), and
   * the bots they name show what each set of itself (`PATCH /users/@me`), which no world holds.
   */
  private async publish(before: World, after: World): Promise<void> {
    const channelIds = after.guilds.flatMap((guild) => guild.channels.map((channel) => channel.id));
    const profiles = new Map((await this.store.listApplications()).map((app) => [app.id, app.bot_profile]));
    const shown = (world: World): World => ({
      ...world,
      applications: world.applications.map((app) => {
        const profile = profiles.get(app.id);
        return profile ? { ...app, bot_profile: profile } : app;
      }),
    });
    this.events.publishAll(diffWorlds(shown(before), shown(after), await this.counters.channelCounters(channelIds)));
  }

  /** Runs `run` after the world changes queued before it. */
  private queued<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs one change of the world and publishes what it changed for bots. */
  private changing<T>(change: () => Promise<T>): Promise<T> {
    return this.queued(async () => {
      const before = await this.store.exportWorld();
      const result = await change();
      await this.publish(before, await this.store.exportWorld());
      return result;
    });
  }

  /**
   * Runs one change whose consequences stay inside `scope` (read before the change, and used for
   * both sides) and publishes what it changed for bots, diffing only that part of the world.
   */
  private changingIn<T>(scope: () => Promise<ChangeScope>, change: () => Promise<T>): Promise<T> {
    return this.queued(async () => {
      const where = await scope();
      const before = await this.slice(where);
      const result = await change();
      const after = where.usersOnly
        ? { ...before, users: await this.store.getUsers(before.users.map((u) => u.id).concat(where.onlyMember ?? [])) }
        : await this.slice(where);
      await this.publish(before, after);
      return result;
    });
  }

  /** The guilds of the scope as the diff needs them, with exactly the users and applications they name. */
  private async slice(scope: ChangeScope): Promise<World> {
    const guilds: Guild[] = [];
    for (const id of scope.guildIds) {
      // Only the members compared are read: a member's change in a guild of 100,000 reads one row.
      if (scope.membersOf === 'bots' || scope.onlyMember !== undefined) {
        const named = scope.membersOf === 'bots' || scope.onlyMember === undefined ? [] : [scope.onlyMember];
        const guild = await this.members.getGuildWithMembers(id, named);
        if (guild) guilds.push({ ...guild, messages: [] });
      } else {
        const guild = await this.store.getGuild(id);
        if (guild) guilds.push(guild);
      }
    }
    const userIds = new Set(guilds.flatMap((g) => g.members.map((m) => m.user_id)));
    if (scope.onlyMember !== undefined) userIds.add(scope.onlyMember);
    const appIds = new Set(guilds.flatMap((g) => g.installs.map((i) => i.application_id)));
    const applications: Application[] = [];
    for (const id of appIds) {
      const app = await this.store.getApplication(id);
      if (app) applications.push(app);
    }
    return { applications, users: await this.store.getUsers([...userIds]), guilds, oauth2_tokens: [] };
  }

  /** The guilds an application is installed in: where its bot can join, leave or be renamed. */
  private async guildsInstalling(applicationId: string): Promise<ChangeScope> {
    const guilds = await this.store.listGuilds();
    const guildIds = guilds.filter((g) => g.installs.some((i) => i.application_id === applicationId)).map((g) => g.id);
    return { guildIds, membersOf: 'bots' };
  }

  /** The guilds a user is a member of, that member alone compared. */
  private async guildsOfUser(userId: string): Promise<ChangeScope> {
    return { guildIds: await this.members.guildIdsOfMember(userId), onlyMember: userId, usersOnly: true };
  }

  export(): Promise<World> {
    return this.store.exportWorld();
  }

  replace(world: World): Promise<void> {
    return this.changing(async () => {
      await this.store.replaceWorld(world);
      await this.afterApplicationsChanged(world.applications);
    });
  }

  /**
   * Adds `addition` to the stored world, refusing a result with duplicate ids or secrets or with
   * references to nothing; only what differs from the stored objects is written, and bots hear of
   * that alone. Reads only the objects the addition names or refers to, never the whole world.
   */
  merge(addition: World): Promise<WorldChangeSummary> {
    return this.queued(() => this.mergeNow(addition));
  }

  /**
   * Merges `seed` (the demo world of `serve --demo`) unless this very seed was merged before, so a
   * restart keeps whatever the admin API, the console and the apps changed since; a seed that
   * differs (a new version's demo) is merged once. Null when skipped.
   */
  seed(seed: World): Promise<WorldChangeSummary | null> {
    return this.queued(async () => {
      const digest = createHash('sha256').update(JSON.stringify(seed)).digest('hex');
      if ((await this.store.seedWorldDigest()) === digest) return null;
      return this.mergeNow(seed, { name: SEED_WORLD_DIGEST, value: digest });
    });
  }

  private async mergeNow(addition: World, record?: StoreMetaRecord): Promise<WorldChangeSummary> {
    const stored = await storedVersionsOf(this.store, addition);
    const issues = checkAddition(addition, await additionContext(this.store, addition));
    if (issues.length > 0) {
      throw invalidFormBody(atMergedIndexes(issues, await keptCounts(this.store, addition, stored)));
    }
    const { change, unchanged } = additionChange(addition, stored);
    if (isEmptyChange(change)) {
      if (record) await this.store.applyWorldChange(change, record);
    } else {
      const slices = await changeSlices(this.store, this.members, change, stored);
      await this.store.applyWorldChange(change, record).catch(asDuplicateInChange);
      await this.publish(slices.before, slices.after);
      await this.afterApplicationsChanged(change.put.applications);
    }
    return summarize(change, unchanged, false);
  }

  /**
   * The stored world becomes the file's (`serve --world`): nothing is read or written when the file
   * is the one imported last and nothing changed the world since. Its mark (size and times) says
   * so without reading the file; else its digest does (the mark is then recorded); else only what
   * differs is written. Null when the import was skipped.
   */
  importWorldFile(file: WorldFileSource): Promise<WorldChangeSummary | null> {
    return this.queued(async () => {
      const recorded = readWorldFileRecord(await this.store.worldFileDigest());
      if (recorded !== null && file.mark !== null && recorded.mark === file.mark) return null;
      const digest = file.digest();
      const record = worldFileRecordText({ digest, mark: file.mark });
      if (recorded?.digest === digest) {
        await this.store.applyWorldChange(noChange(), { name: WORLD_FILE_DIGEST, value: record });
        return null;
      }
      const next = file.read();
      const before = await this.store.exportWorld();
      const { change, unchanged } = replacementChange(before, next);
      await this.store.applyWorldChange(change, { name: WORLD_FILE_DIGEST, value: record });
      await this.publish(before, applyChange(before, change));
      await this.afterApplicationsChanged(change.put.applications);
      return summarize(change, unchanged, true);
    });
  }

  putApplication(app: Application): Promise<void> {
    return this.changingIn(
      () => this.guildsInstalling(app.id),
      async () => {
        const holder = await this.store.findApplicationByBotToken(app.bot_token);
        if (holder && holder.id !== app.id) throw duplicate('bot_token', 'application');
        // Another node may store the token between the check and the write: the store refuses it.
        await this.store.putApplication(app).catch(asDuplicate('bot_token', 'application'));
        await this.afterApplicationsChanged([app]);
      },
    );
  }

  putUser(user: User): Promise<void> {
    return this.changingIn(
      () => this.guildsOfUser(user.id),
      async () => {
        await this.checkUserToken(user);
        await this.store.putUser(user).catch(asDuplicate('token', 'user'));
      },
    );
  }

  /**
   * Changes a stored user with `update` (which sees the user as stored when the change runs, after
   * the changes queued before it); null when there is no such user.
   */
  updateUser(id: string, update: (user: User) => User): Promise<User | null> {
    return this.changingIn(
      () => this.guildsOfUser(id),
      async () => {
        const existing = await this.store.getUser(id);
        if (!existing) return null;
        const user = update(existing);
        await this.checkUserToken(user);
        await this.store.putUser(user).catch(asDuplicate('token', 'user'));
        return user;
      },
    );
  }

  private async checkUserToken(user: User): Promise<void> {
    const holder = await this.store.findUserByToken(user.token);
    if (holder && holder.id !== user.id) throw duplicate('token', 'user');
  }

  putGuild(guild: Guild): Promise<void> {
    return this.changingIn(
      async () => ({ guildIds: [guild.id] }),
      () => this.store.putGuild(guild),
    );
  }

  /**
   * Changes one guild's document with `change` (the authorization endpoint installing an app), and
   * tells the bots (an app joining: GUILD_CREATE and APPLICATION_GUILD). False when there is no such guild.
   */
  changeGuild(guildId: string, change: (guild: Guild) => Guild): Promise<boolean> {
    return this.changingIn(
      async () => ({ guildIds: [guildId] }),
      async () => {
        const guild = await this.store.getGuild(guildId);
        if (!guild) return false;
        await this.store.putGuild(change(guild));
        return true;
      },
    );
  }

  /**
   * Adds or replaces one member of a guild; the other members are not read or sent. False when the
   * guild does not exist; refused when the member's user does not (as a world file's member is).
   */
  putGuildMember(guildId: string, member: Member): Promise<boolean> {
    return this.changingIn(
      async () => ({ guildIds: [guildId], onlyMember: member.user_id }),
      async () => {
        if (!(await this.members.getGuildWithMembers(guildId, []))) return false;
        if (!(await this.store.getUser(member.user_id))) {
          throw invalidFormBody([issue(['user_id'], WORLD_UNKNOWN_REFERENCE, `Unknown user: ${member.user_id}`)]);
        }
        return this.members.putGuildMember(guildId, member).catch((error: unknown) => {
          throw error instanceof BannedUserError ? apiError('UserBanned') : error;
        });
      },
    );
  }

  deleteGuildMember(guildId: string, userId: string): Promise<boolean> {
    return this.changingIn(
      async () => ({ guildIds: [guildId], onlyMember: userId }),
      () => this.members.deleteGuildMember(guildId, userId),
    );
  }

  deleteApplication(id: string): Promise<boolean> {
    return this.changingIn(
      () => this.guildsInstalling(id),
      () => this.store.deleteApplication(id),
    );
  }

  deleteUser(id: string): Promise<boolean> {
    return this.changingIn(
      () => this.guildsOfUser(id),
      () => this.store.deleteUser(id),
    );
  }

  deleteGuild(id: string): Promise<boolean> {
    return this.changingIn(
      async () => ({ guildIds: [id] }),
      () => this.store.deleteGuild(id),
    );
  }

  /** One page of a guild's members in ascending user id order, after `after`; null for an unknown guild. */
  async listGuildMembers(guildId: string, page: { limit: number; after: string | null }): Promise<Member[] | null> {
    const guild = await this.store.getGuild(guildId);
    return guild && membersPage(guild, page.after, page.limit);
  }

  async listApplications(): Promise<Application[]> {
    return (await this.store.listApplications()).map(withoutKeys);
  }

  async getApplication(id: string): Promise<Application | null> {
    const app = await this.store.getApplication(id);
    return app && withoutKeys(app);
  }

  listUsers(): Promise<User[]> {
    return this.store.listUsers();
  }

  getUser(id: string): Promise<User | null> {
    return this.store.getUser(id);
  }

  listGuilds(): Promise<Guild[]> {
    return this.store.listGuilds();
  }

  getGuild(id: string): Promise<Guild | null> {
    return this.store.getGuild(id);
  }

  /**
   * The guild `guildId` names if the app is installed there for commands, holding only the members
   * of `memberIds`; null otherwise (or for a malformed id).
   */
  async installedGuild(
    applicationId: string,
    guildId: string,
    memberIds: readonly string[] = [],
  ): Promise<Guild | null> {
    const guild = isSnowflake(guildId) ? await this.members.getGuildWithMembers(guildId, memberIds) : null;
    return guild && isInstalledForCommands(guild, applicationId) ? guild : null;
  }

  listOAuth2Tokens(): Promise<IssuedToken[]> {
    return this.store.listOAuth2Tokens();
  }

  /** A pre-issued token, as the world file has them: it never expires. */
  putOAuth2Token(token: OAuth2Token): Promise<void> {
    return this.store.putOAuth2Token({ ...token, expires_at: null });
  }

  private async afterApplicationsChanged(apps: Application[]): Promise<void> {
    for (const app of apps) {
      if (hasActivities(app)) await this.commands.ensureEntryPoint(app);
      if (app.skus !== undefined) {
        await this.skus.putSkus(
          app.id,
          app.skus.map((sku) => ({ ...sku, application_id: app.id })),
        );
      }
    }
  }
}
