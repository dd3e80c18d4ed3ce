/**
 * The bounds a components v2 message puts on its whole tree, beyond each component's own: how many
 * components it holds (nested ones included) and how much text its text displays hold together.
 * Each is reported once, at the message's `components`.
 */
import { ComponentType } from 'discord-api-types/v10';
import { COMPONENTS_TOTAL_COUNT_EXCEEDED, TEXT_DISPLAYS_TOTAL_LENGTH_EXCEEDED } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { report, type Issues } from '../../../core/io/report.js';
import { codePointLength } from '../../../core/validation/text.js';
import { eachComponent } from './component-tree.js';
import { MESSAGE_COMPONENTS_V2_TOTAL_MAX, TEXT_DISPLAYS_TOTAL_LENGTH_MAX } from './limits.js';

function checkComponentCount(tree: readonly unknown[], path: IssuePath, issues: Issues): void {
  let count = 0;
  eachComponent(tree, () => {
    count += 1;
  });
  if (count > MESSAGE_COMPONENTS_V2_TOTAL_MAX) {
    report(
      issues,
      path,
      COMPONENTS_TOTAL_COUNT_EXCEEDED,
      `A message can have at most ${MESSAGE_COMPONENTS_V2_TOTAL_MAX} components, nested ones included (it has ${count}).`,
    );
  }
}

function checkTextTotal(tree: readonly unknown[], path: IssuePath, issues: Issues): void {
  let length = 0;
  eachComponent(tree, (component) => {
    if (component.type === ComponentType.TextDisplay && typeof component.content === 'string') {
      length += codePointLength(component.content);
    }
  });
  if (length > TEXT_DISPLAYS_TOTAL_LENGTH_MAX) {
    report(
      issues,
      path,
      TEXT_DISPLAYS_TOTAL_LENGTH_EXCEEDED,
      `The text displays of a message can hold at most ${TEXT_DISPLAYS_TOTAL_LENGTH_MAX} characters together (they hold ${length}).`,
    );
  }
}

/** Checks the bounds of a components v2 tree (the message's `components` at `path`). */
export function checkComponentTotals(tree: readonly unknown[], path: IssuePath, issues: Issues): void {
  checkComponentCount(tree, path, issues);
  checkTextTotal(tree, path, issues);
}
