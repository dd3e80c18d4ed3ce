/**
 * What a modal holds besides action rows: text inputs (type 4; in an action row, or in a label),
 * labels (type 18) around one input, and text displays (type 10) of plain text.
 */
import { ComponentType } from 'discord-api-types/v10';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readInteger, type JsonRecord } from '../../../core/io/read.js';
import { reportAboveMax, reportNotOneOf, reportRequired, type Issues } from '../../../core/io/report.js';
import { readCustomId, type ComponentContext } from './component-context.js';
import { optionalFlag, optionalInteger, optionalText, requiredText } from './record-fields.js';
import {
  LABEL_DESCRIPTION_LENGTH_MAX,
  LABEL_DESCRIPTION_LENGTH_MIN,
  LABEL_LENGTH_MAX,
  LABEL_LENGTH_MIN,
  TEXT_DISPLAY_CONTENT_LENGTH_MAX,
  TEXT_DISPLAY_CONTENT_LENGTH_MIN,
  TEXT_INPUT_LABEL_LENGTH_MAX,
  TEXT_INPUT_LABEL_LENGTH_MIN,
  TEXT_INPUT_MAX_LENGTH_MIN,
  TEXT_INPUT_PLACEHOLDER_LENGTH_MAX,
  TEXT_INPUT_VALUE_LENGTH_MAX,
} from '../../messages/rules/limits.js';

/** Text input styles: SHORT (one line) and PARAGRAPH. */
const TEXT_INPUT_STYLES: readonly number[] = [1, 2];

/** What a label may hold: an input that takes a value (slashd submits text inputs and selects). */
export const LABEL_CHILD_TYPES: readonly number[] = [
  ComponentType.TextInput,
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
];

function readTextInputStyle(input: JsonRecord, path: IssuePath, issues: Issues): void {
  const raw = fieldOf(input, 'style');
  const stylePath = [...path, 'style'];
  if (isAbsent(raw)) {
    reportRequired(issues, stylePath);
    return;
  }
  const style = readInteger(raw, stylePath, issues);
  if (style !== undefined && !TEXT_INPUT_STYLES.includes(style)) reportNotOneOf(issues, stylePath, TEXT_INPUT_STYLES);
}

/** `min_length` (0-4000) and `max_length` (1-4000), the first not above the second. */
function checkLengthBounds(input: JsonRecord, path: IssuePath, issues: Issues): void {
  const min = optionalInteger(input, 'min_length', 0, TEXT_INPUT_VALUE_LENGTH_MAX, path, issues);
  const max = optionalInteger(
    input,
    'max_length',
    TEXT_INPUT_MAX_LENGTH_MIN,
    TEXT_INPUT_VALUE_LENGTH_MAX,
    path,
    issues,
  );
  if (min !== undefined && max !== undefined && min > max) reportAboveMax(issues, [...path, 'min_length'], max);
}

/** Checks a text input. */
export function checkTextInput(input: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const { issues } = ctx;
  readCustomId(input, path, ctx, 'field');
  readTextInputStyle(input, path, issues);
  optionalText(input, 'label', { min: TEXT_INPUT_LABEL_LENGTH_MIN, max: TEXT_INPUT_LABEL_LENGTH_MAX }, path, issues);
  optionalText(input, 'placeholder', { min: 0, max: TEXT_INPUT_PLACEHOLDER_LENGTH_MAX }, path, issues);
  optionalText(input, 'value', { min: 0, max: TEXT_INPUT_VALUE_LENGTH_MAX }, path, issues);
  optionalFlag(input, 'required', path, issues);
  checkLengthBounds(input, path, issues);
}

/** Checks a label: its text, and the one input it holds. */
export function checkLabel(label: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  requiredText(label, 'label', { min: LABEL_LENGTH_MIN, max: LABEL_LENGTH_MAX }, path, ctx.issues);
  const descriptionBounds = { min: LABEL_DESCRIPTION_LENGTH_MIN, max: LABEL_DESCRIPTION_LENGTH_MAX };
  optionalText(label, 'description', descriptionBounds, path, ctx.issues);
  const child = fieldOf(label, 'component');
  if (isAbsent(child)) reportRequired(ctx.issues, [...path, 'component']);
  else ctx.nested(child, [...path, 'component'], LABEL_CHILD_TYPES);
}

/** Checks a text display. */
export function checkTextDisplay(display: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const bounds = { min: TEXT_DISPLAY_CONTENT_LENGTH_MIN, max: TEXT_DISPLAY_CONTENT_LENGTH_MAX };
  requiredText(display, 'content', bounds, path, ctx.issues);
}
