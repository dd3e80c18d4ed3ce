/**
 * Checking the components an app sends, in a message or in a modal, as v10 does: each component's
 * `type` must be one that may stand where it is (else UNION_TYPE_CHOICES, naming those that may),
 * each kind has its own rules (one table, type → rules), and custom ids are unique in the tree.
 *
 * Components v2 (containers, sections, text displays, thumbnails, media galleries, files,
 * separators, under the IS_COMPONENTS_V2 flag) are rules in `COMPONENT_RULES` and a layout whose
 * top level takes them, with two bounds on the whole tree (./component-totals.ts).
 */
import { UNION_TYPE_CHOICES } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readList, readRecord, type JsonRecord } from '../../../core/io/read.js';
import { report, reportBadLength, reportRequired, type Issues } from '../../../core/io/report.js';
import { checkActionRow } from './action-row.js';
import { checkButton } from './button.js';
import {
  componentContext,
  type ComponentContext,
  type ComponentRule,
  type Surface,
} from '../../interactions/rules/component-context.js';
import { optionalInteger } from '../../interactions/rules/record-fields.js';
import { ComponentType } from './component-tree.js';
import {
  COMPONENT_ID_MAX,
  MESSAGE_COMPONENT_ROWS_MAX,
  MESSAGE_COMPONENTS_V2_TOTAL_MAX,
  MODAL_COMPONENTS_MAX,
  MODAL_COMPONENTS_MIN,
} from './limits.js';
import { checkLabel, checkTextDisplay, checkTextInput } from '../../interactions/rules/modal-components.js';
import { checkIdSelect, checkStringSelect } from './select-menus.js';
import {
  checkContainer,
  checkFile,
  checkMediaGallery,
  checkSection,
  checkSeparator,
  checkThumbnail,
  CONTAINER_CHILD_TYPES,
} from './layout-components.js';
import { checkComponentTotals } from './component-totals.js';

function idSelect(type: number): ComponentRule {
  return (select, path, ctx) => checkIdSelect(select, path, ctx, type);
}

/** The rules of each kind of component slashd accepts; where each may stand is said by its parent. */
const COMPONENT_RULES: Readonly<Record<number, ComponentRule>> = {
  [ComponentType.ActionRow]: checkActionRow,
  [ComponentType.Button]: checkButton,
  [ComponentType.StringSelect]: checkStringSelect,
  [ComponentType.TextInput]: checkTextInput,
  [ComponentType.UserSelect]: idSelect(ComponentType.UserSelect),
  [ComponentType.RoleSelect]: idSelect(ComponentType.RoleSelect),
  [ComponentType.MentionableSelect]: idSelect(ComponentType.MentionableSelect),
  [ComponentType.ChannelSelect]: idSelect(ComponentType.ChannelSelect),
  [ComponentType.TextDisplay]: checkTextDisplay,
  [ComponentType.Label]: checkLabel,
  [ComponentType.Section]: checkSection,
  [ComponentType.Thumbnail]: checkThumbnail,
  [ComponentType.MediaGallery]: checkMediaGallery,
  [ComponentType.File]: checkFile,
  [ComponentType.Separator]: checkSeparator,
  [ComponentType.Container]: checkContainer,
};

/** The top of a tree: which types may stand there, and how many components. */
export interface ComponentLayout {
  surface: Surface;
  topLevel: readonly number[];
  min: number;
  max: number;
}

/** A message without IS_COMPONENTS_V2: up to five action rows. */
export const MESSAGE_LAYOUT: ComponentLayout = {
  surface: 'message',
  topLevel: [ComponentType.ActionRow],
  min: 0,
  max: MESSAGE_COMPONENT_ROWS_MAX,
};

/** A message with IS_COMPONENTS_V2: containers and what they may hold, up to 40 components in all. */
export const MESSAGE_V2_LAYOUT: ComponentLayout = {
  surface: 'message',
  topLevel: [...CONTAINER_CHILD_TYPES, ComponentType.Container],
  min: 0,
  max: MESSAGE_COMPONENTS_V2_TOTAL_MAX,
};

/** A modal: 1-5 action rows (one text input each), labels and text displays. */
export const MODAL_LAYOUT: ComponentLayout = {
  surface: 'modal',
  topLevel: [ComponentType.ActionRow, ComponentType.TextDisplay, ComponentType.Label],
  min: MODAL_COMPONENTS_MIN,
  max: MODAL_COMPONENTS_MAX,
};

/** v10 names the allowed types as a Python tuple: "(1,)", "(2, 3, 5, 6, 7, 8)". */
function typeChoices(types: readonly number[]): string {
  return types.length === 1 ? `(${types[0]},)` : `(${types.join(', ')})`;
}

/** The component's type when it may stand here and slashd has its rules. */
function readComponentType(
  component: JsonRecord,
  path: IssuePath,
  types: readonly number[],
  issues: Issues,
): number | undefined {
  const type = fieldOf(component, 'type');
  if (isAbsent(type)) {
    reportRequired(issues, [...path, 'type']);
    return undefined;
  }
  if (typeof type === 'number' && types.includes(type) && COMPONENT_RULES[type] !== undefined) return type;
  report(issues, path, UNION_TYPE_CHOICES, `Value of field "type" must be one of ${typeChoices(types)}.`);
  return undefined;
}

/** One component at `path`, which may be one of `types`; gives it back when its type is one of them. */
function readComponent(
  raw: unknown,
  path: IssuePath,
  types: readonly number[],
  ctx: ComponentContext,
): JsonRecord | undefined {
  const component = readRecord(raw, path, ctx.issues);
  if (!component) return undefined;
  const type = readComponentType(component, path, types, ctx.issues);
  optionalInteger(component, 'id', 0, COMPONENT_ID_MAX, path, ctx.issues);
  if (type === undefined) return undefined;
  COMPONENT_RULES[type]?.(component, path, ctx);
  return component;
}

/** Checks a tree of components (a list at `path`) laid out as `layout` says. */
export function checkComponentTree(
  list: readonly unknown[],
  layout: ComponentLayout,
  path: IssuePath,
  issues: Issues,
): void {
  if (list.length < layout.min || list.length > layout.max) {
    reportBadLength(issues, path, layout.min, layout.max);
    return;
  }
  const ctx = componentContext(layout.surface, issues, readComponent);
  list.forEach((item, index) => ctx.nested(item, [...path, index], layout.topLevel));
  if (layout === MESSAGE_V2_LAYOUT) checkComponentTotals(list, path, issues);
}

/** A message's `components`, checked (laid out as components v2 when `componentsV2`); undefined when it is not a list. */
export function readMessageComponents(
  raw: unknown,
  path: IssuePath,
  issues: Issues,
  componentsV2 = false,
): readonly unknown[] | undefined {
  const list = readList(raw, path, issues);
  if (list) checkComponentTree(list, componentsV2 ? MESSAGE_V2_LAYOUT : MESSAGE_LAYOUT, path, issues);
  return list;
}
