/**
 * slashd's command validation: pure functions from a request body to a normalized definition or
 * to every violation in it (an `Issue` per violation, with its JSON path and string code). No I/O
 * and no server imports, so bot authors can run it offline (`slashd lint`, `slashd/validation`).
 */
import type { CommandDefinition } from '../commands/model.js';
import type { Issue } from '../io/issue.js';
import { readBulkBody } from './bulk.js';
import type { BulkItem, BulkItemDraft } from './bulk-item.js';
import { readCommand } from './command.js';
import { resultOf, type Result } from '../io/result.js';
import type { ValidationContext } from './context.js';
import { readPatch } from './patch.js';
import { readOptionalSnowflake } from './snowflakes.js';
import { fieldOf, isRecord } from '../io/read.js';
import { issue } from '../io/issue.js';
import { LIST_TYPE_CONVERT } from '../io/codes.js';

export type { AppTraits, ValidationContext } from './context.js';
export type { Result } from '../io/result.js';
export type { BulkItem } from './bulk-item.js';
export type { TypeCountOverflow } from './counts.js';
export { findTypeCountOverflow } from './counts.js';
export { commandSize } from './size.js';
export * as codes from '../io/codes.js';
export * as limits from './limits.js';

/** POST create (an upsert by name and type; the caller matches). */
export function validateCreateCommand(body: unknown, ctx: ValidationContext): Result<CommandDefinition> {
  const issues: Issue[] = [];
  const definition = readCommand(body, [], { ...ctx, defaults: 'create' }, issues);
  return resultOf(definition, issues);
}

/** PATCH: provided fields replace whole values; returns the merged, fully re-validated definition. */
export function validatePatchCommand(
  body: unknown,
  existing: CommandDefinition,
  ctx: ValidationContext,
): Result<CommandDefinition> {
  const issues: Issue[] = [];
  return resultOf(readPatch(body, existing, ctx, issues), issues);
}

function isComplete(item: BulkItemDraft): item is BulkItem {
  return item.definition !== undefined;
}

/** PUT bulk overwrite: the whole list, in order. */
export function validateBulkOverwrite(body: unknown, ctx: ValidationContext): Result<BulkItem[]> {
  const issues: Issue[] = [];
  const items = readBulkBody(body, ctx, issues);
  const complete = items.filter(isComplete);
  return resultOf(complete.length === items.length ? complete : undefined, issues);
}

/**
 * A server's own list read back (`GET .../commands`, for a diff computed by the client): each
 * item as a bulk overwrite item; the list's own rules (its length, unique names and ids), which
 * the server applied when it stored the list, are not checked again.
 */
export function readServerCommandList(body: unknown, ctx: ValidationContext): Result<BulkItem[]> {
  const issues: Issue[] = [];
  if (!Array.isArray(body)) return resultOf<BulkItem[]>(undefined, [issue([], LIST_TYPE_CONVERT, 'Expected a list')]);
  const items = (body as unknown[]).map((value, index): BulkItemDraft => {
    const id = isRecord(value) ? readOptionalSnowflake(fieldOf(value, 'id'), [index, 'id'], issues) : null;
    const definition = readCommand(value, [index], { ...ctx, defaults: 'bulk' }, issues);
    return { id, definition };
  });
  const complete = items.filter(isComplete);
  return resultOf(complete.length === items.length ? complete : undefined, issues);
}
