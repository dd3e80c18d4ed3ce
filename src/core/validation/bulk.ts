/**
 * Bulk overwrite bodies (docs/v10-behaviour.md#endpoints): an array of at most 130 create bodies, each with an
 * optional `id`; within the list, names are unique per type and ids are unique.
 */
import type { BulkItemDraft } from './bulk-item.js';
import { APPLICATION_COMMANDS_DUPLICATE_ID, APPLICATION_COMMANDS_DUPLICATE_NAME } from '../io/codes.js';
import { readCommand } from './command.js';
import type { ValidationContext } from './context.js';
import { fieldOf, isRecord, readList } from '../io/read.js';
import { BULK_COMMANDS_MAX } from './limits.js';
import { report, reportTooLong, type Issues } from '../io/report.js';
import { readOptionalSnowflake } from './snowflakes.js';

function readBulkItem(value: unknown, index: number, ctx: ValidationContext, issues: Issues): BulkItemDraft {
  const id = isRecord(value) ? readOptionalSnowflake(fieldOf(value, 'id'), [index, 'id'], issues) : null;
  const definition = readCommand(value, [index], { ...ctx, defaults: 'bulk' }, issues);
  return { id, definition };
}

/** The second and later commands with a name already used by their type are reported at their name. */
function checkUniqueNamesPerType(items: readonly BulkItemDraft[], issues: Issues): void {
  const seen = new Set<string>();
  items.forEach(({ definition }, index) => {
    if (!definition || definition.name === '') return;
    const key = `${definition.type}:${definition.name}`;
    if (seen.has(key)) {
      report(issues, [index, 'name'], APPLICATION_COMMANDS_DUPLICATE_NAME, 'Application command names must be unique');
    }
    seen.add(key);
  });
}

/** Two items naming one id would both claim that command. */
function checkUniqueIds(items: readonly BulkItemDraft[], issues: Issues): void {
  const seen = new Set<string>();
  items.forEach(({ id }, index) => {
    if (id === null) return;
    if (seen.has(id)) {
      report(issues, [index, 'id'], APPLICATION_COMMANDS_DUPLICATE_ID, 'Application command ids must be unique');
    }
    seen.add(id);
  });
}

export function readBulkBody(body: unknown, ctx: ValidationContext, issues: Issues): BulkItemDraft[] {
  const list = readList(body, [], issues);
  if (!list) return [];
  if (list.length > BULK_COMMANDS_MAX) reportTooLong(issues, [], BULK_COMMANDS_MAX);
  // Array.from, unlike map, visits the holes of a sparse array (as undefined).
  const items = Array.from(list, (value, index) => readBulkItem(value, index, ctx, issues));
  checkUniqueNamesPerType(items, issues);
  checkUniqueIds(items, issues);
  return items;
}
