/**
 * Changes to the world that carry consequences beyond the stored document: an application that
 * gains Activities (the EMBEDDED flag) gets its "Launch" entry point command, and bots are told
 * what changed (the v10 dispatches of `diffWorlds`, published through `WorldEvents`).
 */
import { APPLICATION_FLAG_EMBEDDED } from '../core/commands/model.js';
import { invalidFormBody, issue } from '../core/errors.js';
import { checkWorldConsistency, WORLD_DUPLICATE } from '../core/world/consistency.js';
import { diffWorlds } from '../core/world/diff.js';
import type { Application, Guild, User, World } from '../core/world/types.js';
import type { Store } from '../store/store.js';
import type { CommandsService } from './commands-service.js';
import type { WorldEvents } from './world-events.js';

function duplicate(field: string, what: string) {
  return invalidFormBody([issue([field], WORLD_DUPLICATE, `Another ${what} has this ${field} already`)]);
}

/** `addition` over `base`, object by object (same id: the addition's). */
function mergeWorlds(base: World, addition: World): World {
  const byId = <T>(a: T[], b: T[], id: (x: T) => string): T[] => {
    const replaced = new Set(b.map(id));
    return [...a.filter((x) => !replaced.has(id(x))), ...b];
  };
  return {
    applications: byId(base.applications, addition.applications, (a) => a.id),
    users: byId(base.users, addition.users, (u) => u.id),
    guilds: byId(base.guilds, addition.guilds, (g) => g.id),
    oauth2_tokens: byId(base.oauth2_tokens, addition.oauth2_tokens, (t) => t.access_token),
  };
}

export class WorldService {
  /** World changes run one at a time, so that each diff sees exactly its own change. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly commands: CommandsService,
    private readonly events?: WorldEvents,
  ) {}

  /** Runs one change of the world and publishes what it changed for bots. */
  private changing<T>(change: () => Promise<T>): Promise<T> {
    const run = async () => {
      if (!this.events) return change();
      const before = await this.store.exportWorld();
      const result = await change();
      this.events.publishAll(diffWorlds(before, await this.store.exportWorld()));
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  replace(world: World): Promise<void> {
    return this.changing(async () => {
      await this.store.replaceWorld(world);
      await this.afterApplicationsChanged(world.applications);
    });
  }

  /** Adds to the stored world, refusing a result with duplicate ids or secrets. */
  merge(world: World): Promise<void> {
    return this.changing(async () => {
      const combined = mergeWorlds(await this.store.exportWorld(), world);
      const issues = checkWorldConsistency(combined);
      if (issues.length > 0) throw invalidFormBody(issues);
      await this.store.mergeWorld(world);
      await this.afterApplicationsChanged(world.applications);
    });
  }

  putApplication(app: Application): Promise<void> {
    return this.changing(async () => {
      const holder = await this.store.findApplicationByBotToken(app.bot_token);
      if (holder && holder.id !== app.id) throw duplicate('bot_token', 'application');
      await this.store.putApplication(app);
      await this.afterApplicationsChanged([app]);
    });
  }

  putUser(user: User): Promise<void> {
    return this.changing(async () => {
      const holder = await this.store.findUserByToken(user.token);
      if (holder && holder.id !== user.id) throw duplicate('token', 'user');
      await this.store.putUser(user);
    });
  }

  putGuild(guild: Guild): Promise<void> {
    return this.changing(() => this.store.putGuild(guild));
  }

  deleteApplication(id: string): Promise<boolean> {
    return this.changing(() => this.store.deleteApplication(id));
  }

  deleteUser(id: string): Promise<boolean> {
    return this.changing(() => this.store.deleteUser(id));
  }

  deleteGuild(id: string): Promise<boolean> {
    return this.changing(() => this.store.deleteGuild(id));
  }

  private async afterApplicationsChanged(apps: Application[]): Promise<void> {
    for (const app of apps) {
      if ((app.flags & APPLICATION_FLAG_EMBEDDED) !== 0) await this.commands.ensureEntryPoint(app);
    }
  }
}
