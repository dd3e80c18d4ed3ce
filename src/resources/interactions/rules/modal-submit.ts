/**
 * Checking a modal submission (interaction type 5) against the modal the app sent: every submitted
 * field is a text input of that modal (each once), every required input is filled in, and each
 * value fits the input's `min_length..max_length`. The result is `data.components` as the app
 * receives it: the modal's layout (action rows or labels) with each text input's `value`.
 *
 * Decision: only text inputs take values; any other component of a modal (a select in a label, a
 * text display) is delivered with its type, id and custom_id only.
 */
import type { ComponentType as APIComponentType } from 'discord-api-types/v10';
import type { IssuePath } from '../../../core/io/issue.js';
import { INTERACTION_MODAL_FIELD_REQUIRED, INTERACTION_MODAL_FIELD_UNKNOWN } from '../../../core/io/codes.js';
import { report, reportBadLength, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { nullRecord } from '../../../core/records.js';
import {
  ComponentType,
  eachComponent,
  integerField,
  type ComponentObject,
} from '../../messages/rules/component-tree.js';
import { TEXT_INPUT_VALUE_LENGTH_MAX } from '../../messages/rules/limits.js';

/** One field as the user filled it in (see `core/invocation/component-request.ts`). */
export interface SubmittedValue {
  custom_id: string;
  value: string;
  path: IssuePath;
}

/**
 * A component of `data.components` as v10 delivers it: the modal's layout (an action row or a
 * label holding its child, or a leaf) with each text input's `value`. discord-api-types has one
 * interface per submitted component type; slashd echoes whatever layout the app's modal had (checked
 * when the app sent it, `modal.ts`), so one shape, each field present by type.
 */
export interface WireSubmittedComponent {
  type: APIComponentType;
  id?: number;
  custom_id?: string;
  value?: string;
  components?: WireSubmittedComponent[];
  component?: WireSubmittedComponent;
}

type WireComponent = WireSubmittedComponent;

/** A stored component's type and id: integers, as the component rules checked them when the app sent the modal. */
function typeOf(component: ComponentObject): APIComponentType {
  return component.type as APIComponentType;
}
function idOf(component: ComponentObject): number {
  return component.id as number;
}

const COMPONENTS_PATH: IssuePath = ['data', 'components'];

function textInputsOf(modalComponents: readonly unknown[]): Map<string, ComponentObject> {
  const inputs = new Map<string, ComponentObject>();
  eachComponent(modalComponents, (component) => {
    if (component.type === ComponentType.TextInput && typeof component.custom_id === 'string') {
      inputs.set(component.custom_id, component);
    }
  });
  return inputs;
}

function codePoints(text: string): number {
  return [...text].length;
}

/** The submitted values by custom_id; reports ids the modal does not have and ids given twice. */
function submittedValues(
  inputs: ReadonlyMap<string, ComponentObject>,
  fields: readonly SubmittedValue[],
  issues: Issues,
): Record<string, string> {
  const values = nullRecord<string>();
  for (const field of fields) {
    if (!inputs.has(field.custom_id) || field.custom_id in values) {
      report(
        issues,
        [...field.path, 'custom_id'],
        INTERACTION_MODAL_FIELD_UNKNOWN,
        `The modal has no other text input "${field.custom_id}".`,
      );
      continue;
    }
    values[field.custom_id] = field.value;
  }
  return values;
}

function checkInput(input: ComponentObject, value: string | undefined, path: IssuePath, issues: Issues): void {
  const required = input.required !== false;
  if (value === undefined || value === '') {
    if (required) {
      report(
        issues,
        path,
        INTERACTION_MODAL_FIELD_REQUIRED,
        `The text input "${String(input.custom_id)}" is required.`,
      );
    }
    return;
  }
  const min = integerField(input, 'min_length', 0);
  const max = integerField(input, 'max_length', TEXT_INPUT_VALUE_LENGTH_MAX);
  const length = codePoints(value);
  if (length < min || length > max) reportBadLength(issues, path, min, max);
}

function wireLeaf(component: ComponentObject, values: Readonly<Record<string, string>>): WireComponent {
  const wire: WireComponent = { type: typeOf(component) };
  if (component.id !== undefined) wire.id = idOf(component);
  if (typeof component.custom_id === 'string') wire.custom_id = component.custom_id;
  if (component.type === ComponentType.TextInput && typeof component.custom_id === 'string') {
    wire.value = values[component.custom_id] ?? '';
  }
  return wire;
}

/** The modal's layout with the values in it, as v10 delivers `data.components`. */
function wireComponents(
  modalComponents: readonly unknown[],
  values: Readonly<Record<string, string>>,
): WireComponent[] {
  return modalComponents.flatMap((raw): WireComponent[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const top = raw as ComponentObject;
    const wire: WireComponent = { type: typeOf(top) };
    if (top.id !== undefined) wire.id = idOf(top);
    if (Array.isArray(top.components)) {
      wire.components = (top.components as unknown[])
        .filter((child): child is ComponentObject => typeof child === 'object' && child !== null)
        .map((child) => wireLeaf(child, values));
    } else if (typeof top.component === 'object' && top.component !== null) {
      wire.component = wireLeaf(top.component as ComponentObject, values);
    } else {
      return [wireLeaf(top, values)];
    }
    return [wire];
  });
}

/** Checks `fields` against the modal's `components`; gives `data.components` for the app. */
export function checkModalSubmit(
  modalComponents: readonly unknown[],
  fields: readonly SubmittedValue[],
): Result<WireComponent[]> {
  const issues: Issues = [];
  const inputs = textInputsOf(modalComponents);
  const values = submittedValues(inputs, fields, issues);
  for (const [customId, input] of inputs) {
    const field = fields.find((candidate) => candidate.custom_id === customId);
    checkInput(input, values[customId], field ? [...field.path, 'value'] : COMPONENTS_PATH, issues);
  }
  if (issues.length > 0) return fail(issues);
  return ok(wireComponents(modalComponents, values));
}
