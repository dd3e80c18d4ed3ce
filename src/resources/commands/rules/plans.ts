/**
 * Pure decisions over one scope's commands: given what is stored now (read inside the store's
 * transaction) they say what to write, or refuse with an ApiError before anything is written.
 */
import type { ApiError } from '../../../core/io/errors.js';
import { apiError } from '../../../core/io/errors.js';
import { findTypeCountOverflow } from '../../../core/validation/index.js';
import type { CommandMutation, ScopeState } from './mutation.js';
import {
  CommandType,
  EntryPointHandler,
  sameDefinition,
  type CommandDefinition,
  type CommandScope,
  type StoredCommand,
} from '../../../core/commands/model.js';

/** Most commands one scope may create in a UTC day (v10 API, Limits). */
export const DAILY_COMMAND_CREATES_MAX = 200;

const MS_PER_DAY = 86_400_000;

export interface PlanContext {
  scope: CommandScope;
  /** A fresh snowflake: ids of new commands and new versions. */
  nextId: () => string;
  now: number;
  /** Most creates per scope and UTC day: v10's 200 unless the server was told otherwise (Infinity: none). */
  dailyCreatesMax?: number;
}

export interface Planned<R> {
  mutation: CommandMutation;
  result: R;
}

function emptyMutation(): CommandMutation {
  return { insert: [], update: [], delete: [], dropPermissionsOf: [], countedCreates: 0 };
}

function dailyLimitReached(ctx: PlanContext, limit: number): ApiError {
  const retryAfter = (MS_PER_DAY - (ctx.now % MS_PER_DAY)) / 1000;
  return apiError('MaxDailyApplicationCommandCreates', {
    params: { limit, application: ctx.scope.applicationId },
    extra: { retry_after: retryAfter, global: false },
  });
}

function checkDailyCreates(state: ScopeState, creates: number, ctx: PlanContext): void {
  const limit = ctx.dailyCreatesMax ?? DAILY_COMMAND_CREATES_MAX;
  if (creates > 0 && state.createsToday + creates > limit) throw dailyLimitReached(ctx, limit);
}

function checkTypeCounts(definitions: CommandDefinition[], scope: CommandScope): void {
  const overflow = findTypeCountOverflow(definitions, scope.guildId === null ? 'global' : 'guild');
  if (overflow) {
    throw apiError('MaxApplicationCommands', { params: { limit: overflow.limit } });
  }
}

function newCommand(ctx: PlanContext, definition: CommandDefinition): StoredCommand {
  const id = ctx.nextId();
  return { id, application_id: ctx.scope.applicationId, guild_id: ctx.scope.guildId, version: id, definition };
}

/** The same command with a new definition; the version moves only if the definition changed. */
function revise(ctx: PlanContext, existing: StoredCommand, definition: CommandDefinition): StoredCommand {
  if (sameDefinition(existing.definition, definition)) return existing;
  return { ...existing, version: ctx.nextId(), definition };
}

function isRename(before: CommandDefinition, after: CommandDefinition): boolean {
  return before.name !== after.name;
}

/** POST: an upsert by name within type and scope. */
export function planCreate(
  ctx: PlanContext,
  state: ScopeState,
  definition: CommandDefinition,
): Planned<{ created: boolean; command: StoredCommand }> {
  const mutation = emptyMutation();
  const existing = state.commands.find(
    (c) => c.definition.type === definition.type && c.definition.name === definition.name,
  );
  if (existing) {
    const command = revise(ctx, existing, definition);
    if (command !== existing) mutation.update.push(command);
    return { mutation, result: { created: false, command } };
  }
  checkTypeCounts([...state.commands.map((c) => c.definition), definition], ctx.scope);
  checkDailyCreates(state, 1, ctx);
  const command = newCommand(ctx, definition);
  mutation.insert.push(command);
  mutation.countedCreates = 1;
  return { mutation, result: { created: true, command } };
}

/** PATCH: `patch` turns the stored definition into the new one (validation included). */
export function planEdit(
  ctx: PlanContext,
  state: ScopeState,
  commandId: string,
  patch: (existing: CommandDefinition) => CommandDefinition,
): Planned<StoredCommand> {
  const existing = state.commands.find((c) => c.id === commandId);
  if (!existing) throw apiError('UnknownApplicationCommand');
  const definition = patch(existing.definition);
  const clash = state.commands.some(
    (c) => c.id !== commandId && c.definition.type === definition.type && c.definition.name === definition.name,
  );
  if (clash) {
    throw apiError('ApplicationCommandNameExists');
  }
  const mutation = emptyMutation();
  const command = revise(ctx, existing, definition);
  if (command !== existing) mutation.update.push(command);
  if (isRename(existing.definition, definition)) mutation.dropPermissionsOf.push(commandId);
  return { mutation, result: command };
}

export function planDelete(state: ScopeState, commandId: string): Planned<StoredCommand> {
  const existing = state.commands.find((c) => c.id === commandId);
  if (!existing) throw apiError('UnknownApplicationCommand');
  const mutation = emptyMutation();
  mutation.delete.push(commandId);
  mutation.dropPermissionsOf.push(commandId);
  return { mutation, result: existing };
}

export interface BulkEntry {
  id: string | null;
  definition: CommandDefinition;
}

/**
 * PUT: the list replaces the scope (docs/v10-behaviour.md#endpoints). Items match by id first, then by name and
 * type; matched commands keep their ids (and versions when unchanged); the rest are deleted.
 */
export function planBulkOverwrite(ctx: PlanContext, state: ScopeState, entries: BulkEntry[]): Planned<StoredCommand[]> {
  const hadEntryPoint = state.commands.some((c) => c.definition.type === CommandType.PrimaryEntryPoint);
  if (hadEntryPoint && !entries.some((e) => e.definition.type === CommandType.PrimaryEntryPoint)) {
    throw apiError('CannotRemoveEntryPoint');
  }
  checkTypeCounts(
    entries.map((e) => e.definition),
    ctx.scope,
  );

  const unmatched = new Map(state.commands.map((c) => [c.id, c]));
  const matches: (StoredCommand | undefined)[] = entries.map((entry) => {
    const byId = entry.id === null ? undefined : unmatched.get(entry.id);
    if (byId && byId.definition.type === entry.definition.type) {
      unmatched.delete(byId.id);
      return byId;
    }
    return undefined;
  });
  entries.forEach((entry, index) => {
    if (matches[index]) return;
    const byName = [...unmatched.values()].find(
      (c) => c.definition.type === entry.definition.type && c.definition.name === entry.definition.name,
    );
    if (byName) {
      unmatched.delete(byName.id);
      matches[index] = byName;
    }
  });

  const creates = matches.filter((m) => m === undefined).length;
  checkDailyCreates(state, creates, ctx);

  const mutation = emptyMutation();
  const result = entries.map((entry, index) => {
    const existing = matches[index];
    if (!existing) {
      const command = newCommand(ctx, entry.definition);
      mutation.insert.push(command);
      return command;
    }
    const command = revise(ctx, existing, entry.definition);
    if (command !== existing) mutation.update.push(command);
    if (isRename(existing.definition, entry.definition)) mutation.dropPermissionsOf.push(existing.id);
    return command;
  });
  for (const gone of unmatched.values()) {
    mutation.delete.push(gone.id);
    mutation.dropPermissionsOf.push(gone.id);
  }
  mutation.countedCreates = creates;
  return { mutation, result };
}

/** The command an app gets when it gains Activities (v10 API, Entry point handler types). */
export function launchCommandDefinition(integrationTypes: number[]): CommandDefinition {
  return {
    type: CommandType.PrimaryEntryPoint,
    name: 'Launch',
    name_localizations: null,
    description: '',
    description_localizations: null,
    options: [],
    default_member_permissions: null,
    dm_permission: true,
    default_permission: true,
    nsfw: false,
    integration_types: [...integrationTypes],
    contexts: [0, 1, 2],
    handler: EntryPointHandler.DiscordLaunchActivity,
  };
}

/** Creates the "Launch" entry point unless the app already has one; not counted as a daily create. */
export function planEnsureEntryPoint(
  ctx: PlanContext,
  state: ScopeState,
  integrationTypes: number[],
): Planned<StoredCommand | null> {
  const mutation = emptyMutation();
  if (state.commands.some((c) => c.definition.type === CommandType.PrimaryEntryPoint))
    return { mutation, result: null };
  const command = newCommand(ctx, launchCommandDefinition(integrationTypes));
  mutation.insert.push(command);
  return { mutation, result: command };
}
