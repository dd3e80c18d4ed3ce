/**
 * Message components as the app sent them (v10 "Component Reference"): layouts nest (action rows,
 * and in components v2 containers, sections with an accessory, labels), so a component is found
 * by searching the whole tree. The tree is the app's stored JSON: every read here is defensive.
 */
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { COMPONENT_TREE_DEPTH_MAX } from './limits.js';
import { isRecord as isObject } from '../../../core/io/read.js';

/** Button styles that send no interaction: LINK opens a URL, PREMIUM a purchase. */
export const NON_INTERACTIVE_BUTTON_STYLES: readonly number[] = [ButtonStyle.Link, ButtonStyle.Premium];

/** Types that send a MESSAGE_COMPONENT interaction when used. */
export const INTERACTIVE_COMPONENT_TYPES: readonly number[] = [
  ComponentType.Button,
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
];

/** Selects whose values are ids of users, roles or channels. */
export const ID_SELECT_TYPES: readonly number[] = [
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
];

export type ComponentObject = Readonly<Record<string, unknown>>;

/** The children of a layout component: `components` (rows, containers), `component` (labels), `accessory` (sections). */
function childrenOf(component: ComponentObject): unknown[] {
  const children: unknown[] = [];
  if (Array.isArray(component.components)) children.push(...(component.components as unknown[]));
  if (isObject(component.component)) children.push(component.component);
  if (isObject(component.accessory)) children.push(component.accessory);
  return children;
}

/** The first component of the tree whose `custom_id` is `customId` (depth first, in order). */
export function findComponent(tree: readonly unknown[], customId: string): ComponentObject | null {
  const visit = (nodes: readonly unknown[], depth: number): ComponentObject | null => {
    if (depth > COMPONENT_TREE_DEPTH_MAX) return null;
    for (const node of nodes) {
      if (!isObject(node)) continue;
      if (node.custom_id === customId) return node;
      const found = visit(childrenOf(node), depth + 1);
      if (found) return found;
    }
    return null;
  };
  return visit(tree, 0);
}

/** Every component of the tree with its nesting, in order (text inputs of a modal, for instance). */
export function eachComponent(tree: readonly unknown[], visit: (component: ComponentObject) => void): void {
  const walk = (nodes: readonly unknown[], depth: number): void => {
    if (depth > COMPONENT_TREE_DEPTH_MAX) return;
    for (const node of nodes) {
      if (!isObject(node)) continue;
      visit(node);
      walk(childrenOf(node), depth + 1);
    }
  };
  walk(tree, 0);
}

/** A number field of a component, or the default when it is absent or not a whole number. */
export function integerField(component: ComponentObject, key: string, fallback: number): number {
  const value = component[key];
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

/** Selects, whose `min_values` and `max_values` v10 fills in (1 each) when a message is stored. */
const SELECT_TYPES: readonly number[] = [ComponentType.StringSelect, ...ID_SELECT_TYPES];

/** What v10 returns for the optional fields of components v2 an app left out (or sent as null). */
const STORED_DEFAULTS: Readonly<Record<number, Readonly<Record<string, unknown>>>> = {
  [ComponentType.Container]: { accent_color: null, spoiler: false },
  [ComponentType.Thumbnail]: { description: null, spoiler: false },
  [ComponentType.File]: { spoiler: false },
  [ComponentType.Separator]: { spacing: 1, divider: true },
};
/** The same for a media gallery's items. */
const MEDIA_ITEM_DEFAULTS: Readonly<Record<string, unknown>> = { description: null, spoiler: false };

/** Fills each field of `defaults` that `record` leaves out or null; gives `record` back. */
function withDefaults(record: Record<string, unknown>, defaults: Readonly<Record<string, unknown>> | undefined) {
  for (const [key, value] of Object.entries(defaults ?? {})) {
    if (record[key] === undefined || record[key] === null) record[key] = value;
  }
  return record;
}

/**
 * The components as v10 stores and returns them: every component gets a numeric `id` (numbered in
 * tree order, skipping the ids the app chose), selects their `min_values` / `max_values`, and
 * components v2 their defaults (`STORED_DEFAULTS`).
 * What the app sent is not changed: the result is a copy.
 */
export function normalizeComponents(tree: readonly unknown[]): Record<string, unknown>[] {
  const taken = new Set<number>();
  eachComponent(tree, (component) => {
    if (typeof component.id === 'number') taken.add(component.id);
  });
  let next = 1;
  const nextId = (): number => {
    while (taken.has(next)) next += 1;
    taken.add(next);
    return next;
  };
  const copy = (node: unknown, depth: number): unknown => {
    if (!isObject(node) || depth > COMPONENT_TREE_DEPTH_MAX) return node;
    const out: Record<string, unknown> = { ...node };
    if (typeof out.id !== 'number') out.id = nextId();
    if (typeof out.type === 'number' && SELECT_TYPES.includes(out.type)) {
      out.min_values = integerField(node, 'min_values', 1);
      out.max_values = integerField(node, 'max_values', 1);
    }
    if (typeof out.type === 'number') withDefaults(out, STORED_DEFAULTS[out.type]);
    if (out.type === ComponentType.MediaGallery && Array.isArray(node.items)) {
      out.items = (node.items as unknown[]).map((item) =>
        isObject(item) ? withDefaults({ ...item }, MEDIA_ITEM_DEFAULTS) : item,
      );
    }
    if (Array.isArray(node.components)) {
      out.components = (node.components as unknown[]).map((child) => copy(child, depth + 1));
    }
    if (isObject(node.component)) out.component = copy(node.component, depth + 1);
    if (isObject(node.accessory)) out.accessory = copy(node.accessory, depth + 1);
    return out;
  };
  return tree.map((node) => copy(node, 0) as Record<string, unknown>);
}
