/**
 * What a member sees in a channel's command picker: every command of every app installed in the
 * guild (global and guild commands) that the permission engine lets this member use there.
 */
import type { StoredCommand } from '../../core/commands/model.js';
import {
  localizationViewKey,
  toWireCommand,
  toWireCommandJson,
  type LocalizationView,
  type WireCommand,
} from '../commands/rules/wire.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { Locale } from '../../core/locales.js';
import { COMMANDS_SCOPE, BOT_SCOPE } from '../../core/permissions/install.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import {
  explainCommands,
  explainGroupDmCommands,
  explainGuildUserInstallCommands,
  withUserInstallExplanations,
  type CommandExplanation,
} from '../../core/permissions/explain.js';
import { explanationText } from '../../core/permissions/explain-wording.js';
import { visibleCommands } from '../../core/permissions/visible-commands.js';
import { memberFacts, type MemberFacts } from '../../core/permissions/member-facts.js';
import type { Application, Channel, Guild, Member, User } from '../../core/world/types.js';
import type { CommandStore, OAuth2GrantStore, WorldStore } from '../../store/store.js';
import {
  isUserInstallable,
  userInstallAllowsInGroupDm,
  userInstallAllowsInGuild,
} from '../../core/permissions/user-install.js';
import { dmAuthorization } from '../interactions/rules/dm-access.js';
import { memberOf } from '../../core/world/member-index.js';
import { CommandIndexCache, splitCacheBudget, type IndexAppInputs } from './cache.js';
import { heldByTimeout } from '../members/rules/member-rules.js';
import { InvocationReason } from '../../core/permissions/invocation.js';
import { Verdict } from '../../core/permissions/explain.js';

/** An app as the command index lists it (an endpoint v10 does not document: the shape its clients read). */
export interface CommandIndexApplication {
  id: string;
  name: string;
  icon: null;
  description: string;
  bot_id: string;
  flags: number;
}

/** `GET /channels/{id}/application-command-index` and its guild and user forms. */
export interface CommandIndex {
  applications: CommandIndexApplication[];
  application_commands: WirePayload<WireCommand>[];
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
function wireApplication(app: Application): CommandIndexApplication {
  return { id: app.id, name: app.name, icon: null, description: '', bot_id: app.id, flags: app.flags };
}

function localized(locale: Locale | null): LocalizationView {
  return { kind: 'localized', locale };
}

/** The store reads the index needs (all cached by the store but the application and the user's installs). */
export interface CommandIndexStore {
  world: Pick<WorldStore, 'getApplication' | 'listApplications'>;
  commands: Pick<CommandStore, 'listCommands' | 'listCommandPermissions'>;
  oauth2Grants: Pick<OAuth2GrantStore, 'listUserInstalls' | 'getUserAuthorization'>;
}

/** An app the user installed to their account, and its global commands (the only ones a user install brings). */
export interface UserInstallInputs {
  readonly app: Application;
  readonly globalCommands: readonly StoredCommand[];
}

/** One member in one channel, as the picker reads them. */
export interface PickerScene {
  readonly guild: Guild;
  readonly channel: Channel;
  readonly member: Member;
  readonly user: User;
  readonly facts: MemberFacts;
}

export interface CommandIndexOptions {
  /** The most bytes of answers kept (default: the picker's share of the default cache budget); 0 keeps none. */
  cacheBytes?: number | undefined;
  /** The clock a member's timeout is read at (default: the system's). */
  now?: (() => number) | undefined;
}

/** The index of a member who may use no command: a timed-out one. */
const EMPTY_INDEX_JSON = '{"applications":[],"application_commands":[]}';

export class CommandIndexService {
  private readonly cache: CommandIndexCache;
  private readonly now: () => number;

  constructor(
    private readonly store: CommandIndexStore,
    options: CommandIndexOptions = {},
  ) {
    this.cache = new CommandIndexCache(options.cacheBytes ?? splitCacheBudget(undefined).index);
    this.now = options.now ?? Date.now;
  }

  /** v10: a timed-out member uses no command, so the picker lists none (administrators are never held). */
  private held(guild: Guild, member: Member): boolean {
    return heldByTimeout(guild, member, this.now());
  }

  /** The picker's cache: lookups answered from it, and those built (the hit ratio on /metrics). */
  cacheCounts(): { cache: string; hits: number; misses: number }[] {
    return [{ cache: 'command_index', ...this.cache.counts() }];
  }

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
    return indexJson(await this.visibleApps(guild, channel, user), localized(locale));
  }

  /**
   * The member of `guild` that `user` is, in `channel`, with the facts the engine reads (kept per
   * frozen guild, channel, member and user); null when the user is no member of the guild.
   */
  sceneOf(guild: Guild, channel: Channel, user: User): PickerScene | null {
    const member = memberOf(guild, user.id);
    if (!member) return null;
    const facts = this.cache.factsOf(guild, channel, member, user, () => memberFacts(guild, channel, member, user));
    return { guild, channel, member, user, facts };
  }

  /**
   * The index as the bytes sent: those of `buildJson`, kept (command-index-cache.ts) by what they
   * are made of, so that opening the same picker again with nothing changed costs the store's
   * reads (cache hits themselves) and no decision or encoding.
   */
  async buildBytes(scene: PickerScene, locale: Locale | null): Promise<Buffer> {
    const { guild, channel, member, user, facts } = scene;
    // Before the cache: a timeout ends with time, which no key of the cache holds.
    if (this.held(guild, member)) return Buffer.from(EMPTY_INDEX_JSON);
    const view = localized(locale);
    const inputs = await this.readInputs(guild);
    const userInstalls = await this.readUserInstalls(user);
    const key = this.cache.keyOf(localizationViewKey(view), facts, inputs, userInstalls);
    const cached = key === null ? undefined : this.cache.get(key);
    if (cached) return cached;
    const visible = withUserInstalls(visibleAppsOf(inputs, guild, channel, member, user), userInstalls, {
      guild,
      channel,
      member,
      user,
    });
    const bytes = Buffer.from(indexJson(visible, view));
    if (key !== null) this.cache.set(key, bytes);
    return bytes;
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
   * (core/permissions/explain.ts), grouped by app in install order, then the apps the user
   * installed to their account (their global commands, by the user-install rule), then every
   * other app with a USER_INSTALL command (hidden: not installed to the account): the same apps,
   * commands, stored permissions and rules the index decides on, so a command is shown or refused
   * exactly when the index lists it. The caller has checked that the user may view the channel.
   */
  async explain(guild: Guild, channel: Channel, user: User): Promise<AppExplanation[]> {
    const member = memberOf(guild, user.id);
    if (!member) return [];
    const held = this.held(guild, member);
    const where = { guild, member, user, channel };
    const userInstalls = await this.readUserInstalls(user);
    const ownInstall = new Map(userInstalls.map((install) => [install.app.id, install]));
    const explained: { app: Application; explanations: CommandExplanation[] }[] = [];
    const inGuild = new Set<string>();
    for (const { app, commands, guildPermissions } of await this.installedApps(guild)) {
      inGuild.add(app.id);
      const guildSide = explainCommands({ app, ...where, installed: true, commands, guildPermissions });
      // An app of both kinds: a command its guild install hides, the user's own install may bring.
      const own = ownInstall.get(app.id);
      const explanations = own
        ? withUserInstallExplanations(
            guildSide,
            explainGuildUserInstallCommands({ app, ...where }, true, own.globalCommands),
          )
        : guildSide;
      explained.push({ app, explanations });
    }
    // Then the apps only the user's install brings here, and those it would bring if installed.
    for (const { app, globalCommands, installed } of await this.userInstallCandidates(userInstalls, inGuild)) {
      explained.push({
        app,
        explanations: explainGuildUserInstallCommands({ app, ...where }, installed, globalCommands),
      });
    }
    return explained.map(({ app, explanations }) =>
      worded(app, held ? explanations.map(timedOutExplanation) : explanations),
    );
  }

  /**
   * Every app installed for commands whose commands the member may use some of, in install order,
   * then the apps the user installed to their account that bring more (ascending id).
   */
  private async visibleApps(guild: Guild, channel: Channel, user: User): Promise<VisibleApp[]> {
    const member = memberOf(guild, user.id);
    if (!member || this.held(guild, member)) return [];
    const visible = visibleAppsOf(await this.readInputs(guild), guild, channel, member, user);
    return withUserInstalls(visible, await this.readUserInstalls(user), { guild, channel, member, user });
  }

  /** The apps the user installed to their account, with their global commands. */
  private async readUserInstalls(user: User): Promise<UserInstallInputs[]> {
    const inputs: UserInstallInputs[] = [];
    for (const applicationId of await this.store.oauth2Grants.listUserInstalls(user.id)) {
      const app = await this.store.world.getApplication(applicationId);
      if (!app) continue;
      inputs.push({ app, globalCommands: await this.store.commands.listCommands({ applicationId, guildId: null }) });
    }
    return inputs;
  }

  /**
   * The picker of the user's DM with an app's bot (context BOT_DM): the app's global commands
   * that work there, through the guild-install side or the user's own install of the app (the
   * rule invocations follow, interactions/rules/dm-access.ts).
   */
  async dmIndexBytes(applicationId: string, user: User, locale: Locale | null): Promise<Buffer> {
    const app = await this.store.world.getApplication(applicationId);
    if (!app) return Buffer.from(EMPTY_INDEX_JSON);
    const userInstalled = (await this.store.oauth2Grants.getUserAuthorization(app.id, user.id))?.user_install ?? false;
    const globalCommands = await this.store.commands.listCommands({ applicationId, guildId: null });
    const commands = globalCommands.filter((command) => dmAuthorization(command, userInstalled) !== null);
    return Buffer.from(indexJson(commands.length > 0 ? [{ app, commands }] : [], localized(locale)));
  }

  /**
   * "Why not?" in a group DM: every app with a user-installable command, the ones the user
   * installed to their account first, each global command with its verdict and reason.
   */
  async explainGroupDm(user: User): Promise<AppExplanation[]> {
    const candidates = await this.userInstallCandidates(await this.readUserInstalls(user), new Set());
    return candidates.map(({ app, globalCommands, installed }) =>
      worded(app, explainGroupDmCommands(app, user, installed, globalCommands)),
    );
  }

  /**
   * The apps a user install could bring where none of `excluded` is (the apps installed in the
   * guild): the user's own installs first (in the picker's order), then every other app with a
   * USER_INSTALL command, not installed to the user's account, for "Why not?" to say so.
   */
  private async userInstallCandidates(
    userInstalls: readonly UserInstallInputs[],
    excluded: ReadonlySet<string>,
  ): Promise<(UserInstallInputs & { installed: boolean })[]> {
    const installedIds = new Set(userInstalls.map(({ app }) => app.id));
    const candidates = userInstalls
      .filter(({ app }) => !excluded.has(app.id))
      .map((install) => ({ ...install, installed: true }));
    for (const app of await this.store.world.listApplications()) {
      if (installedIds.has(app.id) || excluded.has(app.id)) continue;
      const globalCommands = await this.store.commands.listCommands({ applicationId: app.id, guildId: null });
      if (globalCommands.some((command) => isUserInstallable(app, command))) {
        candidates.push({ app, globalCommands, installed: false });
      }
    }
    return candidates;
  }

  /**
   * The picker of a group DM the user is a recipient of (context PRIVATE_CHANNEL): no app is
   * installed there, so only the apps the user installed to their account bring commands, those
   * whose contexts allow a group DM (ascending app id).
   */
  async groupDmIndexBytes(user: User, locale: Locale | null): Promise<Buffer> {
    const visible: VisibleApp[] = [];
    for (const { app, globalCommands } of await this.readUserInstalls(user)) {
      const commands = globalCommands.filter((command) => userInstallAllowsInGroupDm(app, user, command));
      if (commands.length > 0) visible.push({ app, commands });
    }
    return Buffer.from(indexJson(visible, localized(locale)));
  }

  /** What the index is made of, read from the store: each app installed for commands, in install order. */
  private async readInputs(guild: Guild): Promise<AppInputs[]> {
    const inputs: AppInputs[] = [];
    for (const install of guild.installs) {
      if (!install.scopes.includes(COMMANDS_SCOPE) && !install.scopes.includes(BOT_SCOPE)) continue;
      const app = await this.store.world.getApplication(install.application_id);
      if (!app) continue;
      inputs.push({
        app,
        globalCommands: await this.store.commands.listCommands({ applicationId: app.id, guildId: null }),
        guildCommands: await this.store.commands.listCommands({ applicationId: app.id, guildId: guild.id }),
        permissions: await this.store.commands.listCommandPermissions(app.id, guild.id),
      });
    }
    return inputs;
  }

  /** The apps installed in the guild for commands, in install order, with their commands and stored permissions there. */
  private async installedApps(guild: Guild): Promise<InstalledApp[]> {
    return (await this.readInputs(guild)).map(({ app, globalCommands, guildCommands, permissions }) => ({
      app,
      commands: [...globalCommands, ...guildCommands],
      guildPermissions: permissions,
    }));
  }
}

/** One app's explanations with their sentences. */
function worded(app: Application, explanations: readonly CommandExplanation[]): AppExplanation {
  return {
    id: app.id,
    name: app.name,
    commands: explanations.map((explanation) => ({ ...explanation, text: explanationText(explanation) })),
  };
}

/** The command as a timed-out member's "Why not?" tells it: hidden, for the timeout. */
function timedOutExplanation(explanation: CommandExplanation): CommandExplanation {
  return { ...explanation, verdict: Verdict.Hidden, reason: { kind: InvocationReason.TimedOut } };
}

/** One app and the lists read for it. */
interface AppInputs extends IndexAppInputs {
  readonly globalCommands: readonly StoredCommand[];
  readonly guildCommands: readonly StoredCommand[];
  readonly permissions: readonly GuildCommandPermissions[];
}

/** The apps of `inputs` with the commands of each the member may use, those with none left out. */
function visibleAppsOf(
  inputs: readonly AppInputs[],
  guild: Guild,
  channel: Channel,
  member: Member,
  user: User,
): VisibleApp[] {
  const visibleApps: VisibleApp[] = [];
  for (const { app, globalCommands, guildCommands, permissions } of inputs) {
    const visible = visibleCommands({
      app,
      guild,
      member,
      user,
      channel,
      installed: true,
      commands: [...globalCommands, ...guildCommands],
      guildPermissions: permissions,
    });
    if (visible.length > 0) visibleApps.push({ app, commands: visible });
  }
  return visibleApps;
}

/**
 * The apps of the guild's index, and the commands each app the user installed to their account
 * brings here (v10: in any guild its commands' contexts allow, the app there or not): an app of
 * both kinds lists its commands once, the guild's first.
 */
function withUserInstalls(
  visible: readonly VisibleApp[],
  userInstalls: readonly UserInstallInputs[],
  where: { guild: Guild; channel: Channel; member: Member; user: User },
): VisibleApp[] {
  const merged = [...visible];
  for (const { app, globalCommands } of userInstalls) {
    const scene = { app, ...where };
    const brought = globalCommands.filter((command) => userInstallAllowsInGuild(scene, command));
    if (brought.length === 0) continue;
    const at = merged.findIndex((entry) => entry.app.id === app.id);
    if (at === -1) {
      merged.push({ app, commands: brought });
      continue;
    }
    const listed = merged[at]!;
    const ids = new Set(listed.commands.map((command) => command.id));
    merged[at] = { app: listed.app, commands: [...listed.commands, ...brought.filter((c) => !ids.has(c.id))] };
  }
  return merged;
}

/** The JSON text of the index of `visibleApps`, from each command's cached JSON. */
function indexJson(visibleApps: readonly VisibleApp[], view: LocalizationView): string {
  const applications: string[] = [];
  const commands: string[] = [];
  for (const visible of visibleApps) {
    applications.push(JSON.stringify(wireApplication(visible.app)));
    for (const command of visible.commands) commands.push(toWireCommandJson(command, view));
  }
  return `{"applications":[${applications.join(',')}],"application_commands":[${commands.join(',')}]}`;
}
