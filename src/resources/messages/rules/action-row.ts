/**
 * An action row (type 1): 1-5 components side by side. In a message it holds buttons (up to five)
 * or one select; in a modal, one text input. A select or a text input fills the whole row.
 */
import { ComponentType } from 'discord-api-types/v10';
import { COMPONENT_LAYOUT_WIDTH_EXCEEDED } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import type { JsonRecord } from '../../../core/io/read.js';
import { report } from '../../../core/io/report.js';
import { requiredList } from '../../interactions/rules/record-fields.js';
import type { ComponentContext, Surface } from '../../interactions/rules/component-context.js';
import { ACTION_ROW_COMPONENTS_MAX, ACTION_ROW_COMPONENTS_MIN, ACTION_ROW_WIDTH, BUTTON_WIDTH } from './limits.js';

/** What an action row may hold, by where it stands. */
const ROW_CHILD_TYPES: Readonly<Record<Surface, readonly number[]>> = {
  message: [
    ComponentType.Button,
    ComponentType.StringSelect,
    ComponentType.UserSelect,
    ComponentType.RoleSelect,
    ComponentType.MentionableSelect,
    ComponentType.ChannelSelect,
  ],
  modal: [ComponentType.TextInput],
};

function widthOf(component: JsonRecord): number {
  return component.type === ComponentType.Button ? BUTTON_WIDTH : ACTION_ROW_WIDTH;
}

/** Checks an action row and what it holds. */
export function checkActionRow(row: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const listPath = [...path, 'components'];
  const bounds = { min: ACTION_ROW_COMPONENTS_MIN, max: ACTION_ROW_COMPONENTS_MAX };
  const list = requiredList(row, 'components', bounds, path, ctx.issues);
  if (!list) return;
  let width = 0;
  list.forEach((item, index) => {
    const childPath = [...listPath, index];
    const child = ctx.nested(item, childPath, ROW_CHILD_TYPES[ctx.surface]);
    if (!child) return;
    const fits = width <= ACTION_ROW_WIDTH;
    width += widthOf(child);
    // Reported once, at the first component that does not fit.
    if (fits && width > ACTION_ROW_WIDTH) {
      report(
        ctx.issues,
        childPath,
        COMPONENT_LAYOUT_WIDTH_EXCEEDED,
        'The specified component exceeds the maximum width',
      );
    }
  });
}
