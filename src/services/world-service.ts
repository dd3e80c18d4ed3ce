/**
 * Changes to the world that carry consequences beyond the stored document: an application that
 * gains Activities (the EMBEDDED flag) gets its "Launch" entry point command.
 */
import { APPLICATION_FLAG_EMBEDDED } from '../core/commands/model.js';
import { invalidFormBody } from '../core/io/errors.js';
import { issue } from '../core/io/issue.js';
import { WORLD_DUPLICATE } from '../core/io/codes.js';
import { checkWorldConsistency } from '../core/world/consistency.js';
import type { Application, User, World } from '../core/world/types.js';
import type { Store } from '../store/store.js';
import type { CommandsService } from './commands-service.js';

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
  constructor(
    private readonly store: Store,
    private readonly commands: CommandsService,
  ) {}

  async replace(world: World): Promise<void> {
    await this.store.replaceWorld(world);
    await this.afterApplicationsChanged(world.applications);
  }

  /** Adds to the stored world, refusing a result with duplicate ids or secrets. */
  async merge(world: World): Promise<void> {
    const combined = mergeWorlds(await this.store.exportWorld(), world);
    const issues = checkWorldConsistency(combined);
    if (issues.length > 0) throw invalidFormBody(issues);
    await this.store.mergeWorld(world);
    await this.afterApplicationsChanged(world.applications);
  }

  async putApplication(app: Application): Promise<void> {
    const holder = await this.store.findApplicationByBotToken(app.bot_token);
    if (holder && holder.id !== app.id) throw duplicate('bot_token', 'application');
    await this.store.putApplication(app);
    await this.afterApplicationsChanged([app]);
  }

  async putUser(user: User): Promise<void> {
    const holder = await this.store.findUserByToken(user.token);
    if (holder && holder.id !== user.id) throw duplicate('token', 'user');
    await this.store.putUser(user);
  }

  private async afterApplicationsChanged(apps: Application[]): Promise<void> {
    for (const app of apps) {
      if ((app.flags & APPLICATION_FLAG_EMBEDDED) !== 0) await this.commands.ensureEntryPoint(app);
    }
  }
}
