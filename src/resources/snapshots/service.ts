/**
 * Snapshots of the whole state for tests (the admin API's /snapshots and /reset, and
 * `slashd/testing`): take one, restore it in one transaction, reset to the state at start-up or
 * to a given world. A restore is not told to connected gateway clients (no dispatches): a test
 * starts its bots after the reset that opens it.
 */
import { apiError } from '../../core/io/errors.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { World } from '../../core/world/types.js';
import { SNAPSHOT_ID, type SnapshotStore } from './store.js';
import type { WorldService } from '../world/service.js';

/** The most snapshots kept at once besides the start-up one: each is a copy of every table. */
export const MAX_SNAPSHOTS = 32;
/** The id of the snapshot taken at start-up (`--snapshot-at-start`), which `reset` restores. */
export const START_SNAPSHOT_ID = '0';

export class SnapshotService {
  constructor(
    private readonly store: SnapshotStore,
    private readonly world: WorldService,
    private readonly ids: SnowflakeGenerator,
  ) {}

  /** The state now, as a new snapshot; refused when MAX_SNAPSHOTS are kept. */
  async take(): Promise<{ id: string }> {
    const kept = (await this.store.listSnapshots()).filter((id) => id !== START_SNAPSHOT_ID);
    if (kept.length >= MAX_SNAPSHOTS) throw apiError('MaxSnapshots', { params: { limit: MAX_SNAPSHOTS } });
    const id = this.ids.next();
    await this.store.saveSnapshot(id);
    return { id };
  }

  async list(): Promise<{ id: string }[]> {
    return (await this.store.listSnapshots()).map((id) => ({ id }));
  }

  async restore(id: string): Promise<void> {
    if (!SNAPSHOT_ID.test(id) || !(await this.store.restoreSnapshot(id))) throw apiError('UnknownSnapshot');
  }

  async remove(id: string): Promise<void> {
    if (!SNAPSHOT_ID.test(id) || !(await this.store.deleteSnapshot(id))) throw apiError('UnknownSnapshot');
  }

  /** The state now becomes what `reset` returns to. */
  async markStart(): Promise<void> {
    await this.store.saveSnapshot(START_SNAPSHOT_ID);
  }

  /**
   * Back to the state at start-up; with `world`, to that world alone (no commands, no messages),
   * which connected bots are told about as any world change.
   */
  async reset(world?: World): Promise<void> {
    if (world) {
      await this.store.clearState();
      await this.world.replace(world);
      return;
    }
    if (!(await this.store.restoreSnapshot(START_SNAPSHOT_ID))) throw apiError('NoStartSnapshot');
  }
}
