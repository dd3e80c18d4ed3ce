/**
 * Checking a click (interaction type 3) against the message's components: the component with that
 * `custom_id` exists anywhere in the tree, has that type, is enabled and sends interactions (no
 * link or premium button), and a select's values fit it (string selects: among its options; user,
 * role, mentionable and channel selects: ids of things the user could pick; always within
 * `min_values..max_values`, no repeats). Every id value is recorded for `data.resolved`.
 */
import { ComponentType } from 'discord-api-types/v10';
import { OptionType, type OptionDefinition, type OptionTypeValue } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { isSnowflake } from '../../../core/snowflake.js';
import {
  INTERACTION_COMPONENT_DISABLED,
  INTERACTION_COMPONENT_NOT_INTERACTIVE,
  INTERACTION_COMPONENT_TYPE_MISMATCH,
  INTERACTION_COMPONENT_UNKNOWN,
  INTERACTION_COMPONENT_VALUES_NOT_ALLOWED,
  INTERACTION_SELECT_VALUE_INVALID,
} from '../../../core/io/codes.js';
import {
  report,
  reportBadLength,
  reportDuplicateValue,
  reportNotSnowflake,
  reportRequired,
  type Issues,
} from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import {
  findComponent,
  ID_SELECT_TYPES,
  integerField,
  INTERACTIVE_COMPONENT_TYPES,
  NON_INTERACTIVE_BUTTON_STYLES,
  type ComponentObject,
} from '../../messages/rules/component-tree.js';
import type { InvocationTarget, ReferencedIds } from './invocation-types.js';
import { resolveOptionId } from './option-resolution.js';
import { emptyReferences } from '../../messages/rules/references.js';

/** What a click sends, as the user sent it. */
export interface ClickData {
  custom_id: string;
  component_type: number;
  values: string[] | null;
}

export interface CheckedClick {
  custom_id: string;
  component_type: number;
  /** Selects only. */
  values: string[] | undefined;
  /** Ids the values name, for `data.resolved`. */
  referenced: ReferencedIds;
}

const CUSTOM_ID_PATH: IssuePath = ['data', 'custom_id'];
const TYPE_PATH: IssuePath = ['data', 'component_type'];
const VALUES_PATH: IssuePath = ['data', 'values'];

/** The option type whose resolution rules an id select shares. */
const OPTION_TYPE_OF_SELECT: Readonly<Record<number, OptionTypeValue>> = {
  [ComponentType.UserSelect]: OptionType.User,
  [ComponentType.RoleSelect]: OptionType.Role,
  [ComponentType.MentionableSelect]: OptionType.Mentionable,
  [ComponentType.ChannelSelect]: OptionType.Channel,
};

/** The component behind the click, if it can be used at all; reports why not otherwise. */
function usableComponent(tree: readonly unknown[], data: ClickData, issues: Issues): ComponentObject | null {
  const component = findComponent(tree, data.custom_id);
  if (!component) {
    report(
      issues,
      CUSTOM_ID_PATH,
      INTERACTION_COMPONENT_UNKNOWN,
      `No component has the custom_id "${data.custom_id}".`,
    );
    return null;
  }
  const type = component.type;
  const style = component.style;
  if (
    typeof type !== 'number' ||
    !INTERACTIVE_COMPONENT_TYPES.includes(type) ||
    (type === ComponentType.Button && typeof style === 'number' && NON_INTERACTIVE_BUTTON_STYLES.includes(style))
  ) {
    report(issues, CUSTOM_ID_PATH, INTERACTION_COMPONENT_NOT_INTERACTIVE, 'This component sends no interaction.');
    return null;
  }
  if (type !== data.component_type) {
    report(issues, TYPE_PATH, INTERACTION_COMPONENT_TYPE_MISMATCH, `The component is of type ${type}.`);
    return null;
  }
  if (component.disabled === true) {
    report(issues, CUSTOM_ID_PATH, INTERACTION_COMPONENT_DISABLED, 'This component is disabled.');
    return null;
  }
  return component;
}

/** `min_values` (default 1) to `max_values` (default 1) values, none twice. */
function checkValueCount(component: ComponentObject, values: readonly string[], issues: Issues): void {
  const min = integerField(component, 'min_values', 1);
  const max = integerField(component, 'max_values', 1);
  if (values.length < min || values.length > max) reportBadLength(issues, VALUES_PATH, min, max);
  values.forEach((value, index) => {
    if (values.indexOf(value) !== index) reportDuplicateValue(issues, [...VALUES_PATH, index], value);
  });
}

function optionValues(component: ComponentObject): string[] {
  const options = Array.isArray(component.options) ? (component.options as unknown[]) : [];
  const values: string[] = [];
  for (const option of options) {
    const value = (option as { value?: unknown } | null)?.value;
    if (typeof value === 'string') values.push(value);
  }
  return values;
}

function checkStringValues(component: ComponentObject, values: readonly string[], issues: Issues): void {
  const allowed = optionValues(component);
  values.forEach((value, index) => {
    if (!allowed.includes(value)) {
      report(issues, [...VALUES_PATH, index], INTERACTION_SELECT_VALUE_INVALID, `"${value}" is not an option.`);
    }
  });
}

/** Id selects resolve like options of the same kind (a channel select's `channel_types` included). */
function checkIdValues(
  component: ComponentObject,
  values: readonly string[],
  target: InvocationTarget,
  references: ReferencedIds,
  issues: Issues,
): void {
  const channelTypes = Array.isArray(component.channel_types)
    ? (component.channel_types as unknown[]).filter((t): t is number => typeof t === 'number')
    : undefined;
  const option = {
    type: OPTION_TYPE_OF_SELECT[component.type as number],
    name: '',
    name_localizations: null,
    description: '',
    description_localizations: null,
    ...(channelTypes ? { channel_types: channelTypes } : {}),
  } as OptionDefinition;
  const scope = { target, references };
  values.forEach((value, index) => {
    const path = [...VALUES_PATH, index];
    if (!isSnowflake(value)) reportNotSnowflake(issues, path, value);
    else resolveOptionId(value, option, path, scope, issues);
  });
}

function checkValues(
  component: ComponentObject,
  data: ClickData,
  target: InvocationTarget,
  references: ReferencedIds,
  issues: Issues,
): void {
  if (component.type === ComponentType.Button) {
    if (data.values !== null) {
      report(issues, VALUES_PATH, INTERACTION_COMPONENT_VALUES_NOT_ALLOWED, 'A button sends no values.');
    }
    return;
  }
  if (data.values === null) {
    reportRequired(issues, VALUES_PATH);
    return;
  }
  checkValueCount(component, data.values, issues);
  if (component.type === ComponentType.StringSelect) checkStringValues(component, data.values, issues);
  else if (ID_SELECT_TYPES.includes(component.type as number)) {
    checkIdValues(component, data.values, target, references, issues);
  }
}

/**
 * Checks a click on a message whose components are `tree`; `target` holds what id values may name
 * (the guild as the user sees it, the channel, the users the values name).
 */
export function checkClick(tree: readonly unknown[], data: ClickData, target: InvocationTarget): Result<CheckedClick> {
  const issues: Issues = [];
  const component = usableComponent(tree, data, issues);
  if (!component) return fail(issues);
  const references = emptyReferences();
  checkValues(component, data, target, references, issues);
  if (issues.length > 0) return fail(issues);
  return ok({
    custom_id: data.custom_id,
    component_type: data.component_type,
    values: component.type === ComponentType.Button ? undefined : (data.values ?? []),
    referenced: references,
  });
}
