/**
 * PATCH bodies (v10 API, Edit ... Command): every field is optional and a provided field replaces the
 * stored value whole; the merged command is then validated as a create. `type` may be sent only
 * unchanged (discord.js sends it; docs/v10-behaviour.md#compatibility-decisions).
 */
import type { CommandDefinition } from '../commands/model.js';
import { APPLICATION_COMMAND_TYPE_IMMUTABLE } from '../io/codes.js';
import { readCommand } from './command.js';
import type { ValidationContext } from './context.js';
import { fieldOf, isAbsent, readRecord } from '../io/read.js';
import { report, type Issues } from '../io/report.js';

/** The fields a PATCH may replace; anything else in the body is ignored. */
const PATCHABLE_FIELDS = [
  'name',
  'name_localizations',
  'description',
  'description_localizations',
  'options',
  'default_member_permissions',
  'dm_permission',
  'default_permission',
  'integration_types',
  'contexts',
  'nsfw',
  'handler',
] as const;

function checkTypeUnchanged(value: unknown, existingType: number, issues: Issues): void {
  if (!isAbsent(value) && value !== existingType) {
    report(
      issues,
      ['type'],
      APPLICATION_COMMAND_TYPE_IMMUTABLE,
      'The type of an application command cannot be changed',
    );
  }
}

export function readPatch(
  body: unknown,
  existing: CommandDefinition,
  ctx: ValidationContext,
  issues: Issues,
): CommandDefinition | undefined {
  const record = readRecord(body, [], issues);
  if (!record) return undefined;
  checkTypeUnchanged(fieldOf(record, 'type'), existing.type, issues);
  const merged: Record<string, unknown> = { ...existing };
  for (const field of PATCHABLE_FIELDS) {
    if (Object.hasOwn(record, field)) merged[field] = record[field];
  }
  return readCommand(merged, [], { ...ctx, defaults: 'create' }, issues);
}
