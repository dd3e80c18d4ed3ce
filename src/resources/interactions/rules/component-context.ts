/**
 * What a component rule is handed besides the component: where the tree stands (a message or a
 * modal), how to check a nested component, and the custom ids already used in this tree.
 */
import { BUTTON_COMPONENT_CUSTOM_ID_REQUIRED, COMPONENT_CUSTOM_ID_DUPLICATED } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, type JsonRecord } from '../../../core/io/read.js';
import { report, reportRequired, type Issues } from '../../../core/io/report.js';
import { optionalText } from './record-fields.js';
import { COMPONENT_CUSTOM_ID_LENGTH_MAX, COMPONENT_CUSTOM_ID_LENGTH_MIN } from '../../messages/rules/limits.js';

/** The tree a component belongs to: a message's components or a modal's. */
export type Surface = 'message' | 'modal';

export interface ComponentContext {
  readonly issues: Issues;
  readonly surface: Surface;
  /** Checks a nested component, which may be one of `types`; gives it back when it is an object. */
  nested(raw: unknown, path: IssuePath, types: readonly number[]): JsonRecord | undefined;
  /** Records a custom id of this tree; a second use of one is reported at `path`. */
  claimCustomId(customId: string, path: IssuePath): void;
}

/** One kind of component's rules (its `type` and `id` are checked before). */
export type ComponentRule = (component: JsonRecord, path: IssuePath, ctx: ComponentContext) => void;

/** A new context over `issues`, whose nested components are checked by `check`. */
export function componentContext(
  surface: Surface,
  issues: Issues,
  check: (raw: unknown, path: IssuePath, types: readonly number[], ctx: ComponentContext) => JsonRecord | undefined,
): ComponentContext {
  const customIds = new Set<string>();
  const ctx: ComponentContext = {
    issues,
    surface,
    nested: (raw, path, types) => check(raw, path, types, ctx),
    claimCustomId: (customId, path) => {
      if (customIds.has(customId)) {
        report(issues, path, COMPONENT_CUSTOM_ID_DUPLICATED, 'Component custom id cannot be duplicated');
      }
      customIds.add(customId);
    },
  };
  return ctx;
}

const CUSTOM_ID_BOUNDS = { min: COMPONENT_CUSTOM_ID_LENGTH_MIN, max: COMPONENT_CUSTOM_ID_LENGTH_MAX };

/**
 * The component's `custom_id`, within its bounds and claimed for this tree. Missing, a button's is
 * BUTTON_COMPONENT_CUSTOM_ID_REQUIRED (v10's own code), any other component's BASE_TYPE_REQUIRED.
 */
export function readCustomId(
  component: JsonRecord,
  path: IssuePath,
  ctx: ComponentContext,
  whenMissing: 'button' | 'field',
): string | undefined {
  const fieldPath = [...path, 'custom_id'];
  if (isAbsent(fieldOf(component, 'custom_id'))) {
    if (whenMissing === 'button') {
      report(ctx.issues, fieldPath, BUTTON_COMPONENT_CUSTOM_ID_REQUIRED, 'A custom id is required');
    } else reportRequired(ctx.issues, fieldPath);
    return undefined;
  }
  const customId = optionalText(component, 'custom_id', CUSTOM_ID_BOUNDS, path, ctx.issues);
  if (customId !== undefined) ctx.claimCustomId(customId, fieldPath);
  return customId;
}
