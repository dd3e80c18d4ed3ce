/**
 * Changes to the world that carry consequences beyond the stored document: an application that
 * gains Activities (the EMBEDDED flag) gets its "Launch" entry point command.
 */
import { APPLICATION_FLAG_EMBEDDED } from '../core/commands/model.js';
import type { Application, World } from '../core/world/types.js';
import type { Store } from '../store/store.js';
import type { CommandsService } from './commands-service.js';

export class WorldService {
  constructor(
    private readonly store: Store,
    private readonly commands: CommandsService,
  ) {}

  async replace(world: World): Promise<void> {
    await this.store.replaceWorld(world);
    await this.afterApplicationsChanged(world.applications);
  }

  async merge(world: World): Promise<void> {
    await this.store.mergeWorld(world);
    await this.afterApplicationsChanged(world.applications);
  }

  async putApplication(app: Application): Promise<void> {
    await this.store.putApplication(app);
    await this.afterApplicationsChanged([app]);
  }

  private async afterApplicationsChanged(apps: Application[]): Promise<void> {
    for (const app of apps) {
      if ((app.flags & APPLICATION_FLAG_EMBEDDED) !== 0) await this.commands.ensureEntryPoint(app);
    }
  }
}
