/**
 * Select menus: a string select (type 3) offers its own 1-25 options; user (5), role (6),
 * mentionable (7) and channel (8) selects offer what the client finds, and may preselect some
 * (`default_values`). Every select has a `custom_id` and takes `min_values..max_values` values.
 */
import {
  SELECT_COMPONENT_OPTION_VALUE_DUPLICATED,
  SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES,
} from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import {
  fieldOf,
  isAbsent,
  readList,
  readRecord,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import {
  report,
  reportAboveMax,
  reportBadLength,
  reportNotOneOf,
  reportRequired,
  reportTooLong,
  reportTooShort,
  type Issues,
} from '../../../core/io/report.js';
import { readEnumList } from '../../../core/validation/lists.js';
import { CHANNEL_TYPES } from '../../../core/validation/values.js';
import { readCustomId, type ComponentContext } from '../../interactions/rules/component-context.js';
import { checkComponentEmoji } from './component-emoji.js';
import { optionalFlag, optionalInteger, optionalText, requiredText } from '../../interactions/rules/record-fields.js';
import { ComponentType } from './component-tree.js';
import {
  SELECT_DEFAULT_VALUES_MAX,
  SELECT_MAX_VALUES_MIN,
  SELECT_MIN_VALUES_MIN,
  SELECT_OPTION_DESCRIPTION_LENGTH_MAX,
  SELECT_OPTION_LABEL_LENGTH_MAX,
  SELECT_OPTION_LABEL_LENGTH_MIN,
  SELECT_OPTION_VALUE_LENGTH_MAX,
  SELECT_OPTION_VALUE_LENGTH_MIN,
  SELECT_OPTIONS_MAX,
  SELECT_OPTIONS_MIN,
  SELECT_PLACEHOLDER_LENGTH_MAX,
  SELECT_VALUES_MAX,
} from './limits.js';

interface ValueBounds {
  min: number;
  max: number;
}

/** `min_values` (0-25, default 1) and `max_values` (1-25, default 1), the first not above the second. */
function readValueBounds(select: JsonRecord, path: IssuePath, issues: Issues): ValueBounds | undefined {
  const before = issues.length;
  const min = optionalInteger(select, 'min_values', SELECT_MIN_VALUES_MIN, SELECT_VALUES_MAX, path, issues) ?? 1;
  const max = optionalInteger(select, 'max_values', SELECT_MAX_VALUES_MIN, SELECT_VALUES_MAX, path, issues) ?? 1;
  if (issues.length > before) return undefined;
  if (min <= max) return { min, max };
  reportAboveMax(issues, [...path, 'min_values'], max);
  return undefined;
}

/** What every select has; gives its value bounds when they are sound. */
function checkSelectFields(select: JsonRecord, path: IssuePath, ctx: ComponentContext): ValueBounds | undefined {
  readCustomId(select, path, ctx, 'field');
  optionalText(select, 'placeholder', { min: 0, max: SELECT_PLACEHOLDER_LENGTH_MAX }, path, ctx.issues);
  optionalFlag(select, 'disabled', path, ctx.issues);
  optionalFlag(select, 'required', path, ctx.issues);
  return readValueBounds(select, path, ctx.issues);
}

/** One option; gives its value and whether it is selected by default. */
function readOption(raw: unknown, path: IssuePath, issues: Issues): { value: string | undefined; isDefault: boolean } {
  const option = readRecord(raw, path, issues);
  if (!option) return { value: undefined, isDefault: false };
  const labelBounds = { min: SELECT_OPTION_LABEL_LENGTH_MIN, max: SELECT_OPTION_LABEL_LENGTH_MAX };
  requiredText(option, 'label', labelBounds, path, issues);
  const valueBounds = { min: SELECT_OPTION_VALUE_LENGTH_MIN, max: SELECT_OPTION_VALUE_LENGTH_MAX };
  const value = requiredText(option, 'value', valueBounds, path, issues);
  optionalText(option, 'description', { min: 0, max: SELECT_OPTION_DESCRIPTION_LENGTH_MAX }, path, issues);
  const emoji = fieldOf(option, 'emoji');
  if (!isAbsent(emoji)) checkComponentEmoji(emoji, [...path, 'emoji'], issues);
  return { value, isDefault: optionalFlag(option, 'default', path, issues) === true };
}

/** The options (1-25, values distinct); gives how many there are and how many are defaults. */
function readOptions(
  select: JsonRecord,
  path: IssuePath,
  issues: Issues,
): { count: number; defaults: number } | undefined {
  const raw = fieldOf(select, 'options');
  const listPath = [...path, 'options'];
  if (isAbsent(raw)) {
    reportRequired(issues, listPath);
    return undefined;
  }
  const list = readList(raw, listPath, issues);
  if (!list) return undefined;
  if (list.length < SELECT_OPTIONS_MIN || list.length > SELECT_OPTIONS_MAX) {
    reportBadLength(issues, listPath, SELECT_OPTIONS_MIN, SELECT_OPTIONS_MAX);
    return undefined;
  }
  const values = new Set<string>();
  let defaults = 0;
  list.forEach((raw, index) => {
    const { value, isDefault } = readOption(raw, [...listPath, index], issues);
    if (isDefault) defaults += 1;
    if (value === undefined) return;
    if (values.has(value)) {
      const message = 'The option value is already used by another option.';
      report(issues, [...listPath, index, 'value'], SELECT_COMPONENT_OPTION_VALUE_DUPLICATED, message);
    }
    values.add(value);
  });
  return { count: list.length, defaults };
}

function reportTooManyDefaults(issues: Issues, path: IssuePath, max: number): void {
  const message = `At most ${max} values may be selected by default (max_values).`;
  report(issues, path, SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES, message);
}

/** Checks a string select. */
export function checkStringSelect(select: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const bounds = checkSelectFields(select, path, ctx);
  const options = readOptions(select, path, ctx.issues);
  if (!bounds || !options) return;
  // v10 asks for at least as many options as the user may pick.
  if (options.count < bounds.max) reportTooShort(ctx.issues, [...path, 'options'], bounds.max);
  else if (options.defaults > bounds.max) reportTooManyDefaults(ctx.issues, [...path, 'options'], bounds.max);
}

/** The `type` each id select's `default_values` may name. */
const DEFAULT_VALUE_TYPES: Readonly<Record<number, readonly string[]>> = {
  [ComponentType.UserSelect]: ['user'],
  [ComponentType.RoleSelect]: ['role'],
  [ComponentType.MentionableSelect]: ['user', 'role'],
  [ComponentType.ChannelSelect]: ['channel'],
};

function checkDefaultValue(raw: unknown, allowed: readonly string[], path: IssuePath, issues: Issues): void {
  const entry = readRecord(raw, path, issues);
  if (!entry) return;
  const id = fieldOf(entry, 'id');
  if (isAbsent(id)) reportRequired(issues, [...path, 'id']);
  else readSnowflake(id, [...path, 'id'], issues);
  const type = fieldOf(entry, 'type');
  if (isAbsent(type)) reportRequired(issues, [...path, 'type']);
  else {
    const name = readString(type, [...path, 'type'], issues);
    if (name !== undefined && !allowed.includes(name)) reportNotOneOf(issues, [...path, 'type'], allowed);
  }
}

/** `default_values`: at most 25, and no more than `max_values`; gives how many. */
function checkDefaultValues(select: JsonRecord, type: number, path: IssuePath, issues: Issues): number {
  const raw = fieldOf(select, 'default_values');
  if (isAbsent(raw)) return 0;
  const listPath = [...path, 'default_values'];
  const list = readList(raw, listPath, issues);
  if (!list) return 0;
  if (list.length > SELECT_DEFAULT_VALUES_MAX) {
    reportTooLong(issues, listPath, SELECT_DEFAULT_VALUES_MAX);
    return 0;
  }
  const allowed = DEFAULT_VALUE_TYPES[type] ?? [];
  list.forEach((entry, index) => checkDefaultValue(entry, allowed, [...listPath, index], issues));
  return list.length;
}

/** Checks a user, role, mentionable or channel select; `type` is which. */
export function checkIdSelect(select: JsonRecord, path: IssuePath, ctx: ComponentContext, type: number): void {
  const bounds = checkSelectFields(select, path, ctx);
  const defaults = checkDefaultValues(select, type, path, ctx.issues);
  if (bounds && defaults > bounds.max) reportTooManyDefaults(ctx.issues, [...path, 'default_values'], bounds.max);
  const channelTypes = fieldOf(select, 'channel_types');
  if (type === ComponentType.ChannelSelect && !isAbsent(channelTypes)) {
    readEnumList(channelTypes, [...path, 'channel_types'], CHANNEL_TYPES, 0, ctx.issues);
  }
}
