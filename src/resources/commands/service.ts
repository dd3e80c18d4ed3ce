/**
 * Command registration: validation (pure), a plan over the scope's state (pure), applied by the
 * store in one transaction. A list is serialized once per scope and view: the store keeps the
 * answer's bytes until the scope changes.
 */
import { listAnswerBytes, localizationViewKey, type LocalizationView } from './rules/wire.js';
import {
  planBulkOverwrite,
  planCreate,
  planDelete,
  planEdit,
  planEnsureEntryPoint,
  type PlanContext,
} from './rules/plans.js';
import type { CommandDefinition, CommandScope, StoredCommand } from '../../core/commands/model.js';
import { diffBulkOverwrite, type BulkOverwriteDiff } from './rules/diff.js';
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import {
  validateBulkOverwrite,
  validateCreateCommand,
  validatePatchCommand,
  type ValidationContext,
} from '../../core/validation/index.js';
import type { Application } from '../../core/world/types.js';
import type { CommandStore } from '../../store/store.js';

export interface CommandsServiceDeps {
  store: CommandStore;
  ids: SnowflakeGenerator;
  now?: () => number;
  /** Most creates per scope and UTC day (v10's 200 by default; Infinity: no limit). */
  dailyCreatesMax?: number;
}

function validationContext(app: Application, scope: CommandScope): ValidationContext {
  return {
    scope: scope.guildId === null ? 'global' : 'guild',
    app: { flags: app.flags, integration_types: app.integration_types, discoverable: app.discoverable },
  };
}

export class CommandsService {
  private readonly now: () => number;

  constructor(private readonly deps: CommandsServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  private planContext(scope: CommandScope): PlanContext {
    const context: PlanContext = { scope, nextId: () => this.deps.ids.next(), now: this.now() };
    if (this.deps.dailyCreatesMax !== undefined) context.dailyCreatesMax = this.deps.dailyCreatesMax;
    return context;
  }

  /**
   * The scope's list as JSON bytes in the requested localization view, which the store keeps until
   * the scope changes: encoding a 100-command list costs more than the rest of the request.
   */
  async listJson(scope: CommandScope, view: LocalizationView): Promise<Buffer> {
    return this.deps.store.listCommandsRendered(scope, localizationViewKey(view), (commands) =>
      listAnswerBytes(commands, view),
    );
  }

  async get(scope: CommandScope, commandId: string): Promise<StoredCommand> {
    const command = await this.deps.store.getCommand(scope, commandId);
    if (!command) throw apiError('UnknownApplicationCommand');
    return command;
  }

  async create(
    app: Application,
    scope: CommandScope,
    body: unknown,
  ): Promise<{ created: boolean; command: StoredCommand }> {
    const definition = orThrow(validateCreateCommand(body, validationContext(app, scope)));
    return this.deps.store.mutateCommands(scope, (state) => planCreate(this.planContext(scope), state, definition));
  }

  async edit(app: Application, scope: CommandScope, commandId: string, body: unknown): Promise<StoredCommand> {
    const ctx = validationContext(app, scope);
    const patch = (existing: CommandDefinition) => orThrow(validatePatchCommand(body, existing, ctx));
    return this.deps.store.mutateCommands(scope, (state) => planEdit(this.planContext(scope), state, commandId, patch));
  }

  async delete(scope: CommandScope, commandId: string): Promise<void> {
    await this.deps.store.mutateCommands(scope, (state) => planDelete(state, commandId));
  }

  async bulkOverwrite(app: Application, scope: CommandScope, body: unknown): Promise<StoredCommand[]> {
    const entries = orThrow(validateBulkOverwrite(body, validationContext(app, scope)));
    return this.deps.store.mutateCommands(scope, (state) => planBulkOverwrite(this.planContext(scope), state, entries));
  }

  /**
   * What `bulkOverwrite` would do with this body, written nowhere: the scope's list and today's
   * create count are read (no lock, no transaction), and the planner's answer becomes the diff.
   */
  async bulkOverwriteDryRun(app: Application, scope: CommandScope, body: unknown): Promise<BulkOverwriteDiff> {
    const entries = orThrow(validateBulkOverwrite(body, validationContext(app, scope)));
    const [commands, createsToday] = await Promise.all([
      this.deps.store.listCommands(scope),
      this.deps.store.countCreatesToday(scope),
    ]);
    return diffBulkOverwrite(scope, { commands, createsToday }, entries, this.now(), this.deps.dailyCreatesMax);
  }

  /** The app's creates counted today are forgotten, in every scope (an admin's reset of the daily limit). */
  async resetCreatesToday(applicationId: string): Promise<void> {
    await this.deps.store.resetCreatesToday(applicationId);
  }

  async ensureEntryPoint(app: Application): Promise<StoredCommand | null> {
    const scope = { applicationId: app.id, guildId: null };
    return this.deps.store.mutateCommands(scope, (state) =>
      planEnsureEntryPoint(this.planContext(scope), state, app.integration_types),
    );
  }
}
