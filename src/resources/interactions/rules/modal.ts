/**
 * The data of a MODAL response (type 9): a form the client shows (docs/v10-behaviour.md#interactions).
 * Its components are checked as v10 does (./message-components.ts): action rows of one text input,
 * labels around one input, text displays.
 */
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readList, readRecord, readString, type JsonRecord } from '../../../core/io/read.js';
import { reportRequired, type Issues } from '../../../core/io/report.js';
import { checkLength } from '../../../core/validation/text.js';
import { checkComponentTree, MODAL_LAYOUT } from '../../messages/rules/message-components.js';
import {
  MODAL_CUSTOM_ID_LENGTH_MAX,
  MODAL_CUSTOM_ID_LENGTH_MIN,
  MODAL_TITLE_LENGTH_MAX,
  MODAL_TITLE_LENGTH_MIN,
} from '../../messages/rules/limits.js';

function readRequiredText(
  data: JsonRecord,
  key: string,
  min: number,
  max: number,
  path: IssuePath,
  issues: Issues,
): string | undefined {
  const raw = fieldOf(data, key);
  const fieldPath = [...path, key];
  if (isAbsent(raw)) {
    reportRequired(issues, fieldPath);
    return undefined;
  }
  const text = readString(raw, fieldPath, issues);
  if (text !== undefined) checkLength(text, min, max, fieldPath, issues);
  return text;
}

function readComponents(data: JsonRecord, path: IssuePath, issues: Issues): readonly unknown[] | undefined {
  const raw = fieldOf(data, 'components');
  const listPath = [...path, 'components'];
  if (isAbsent(raw)) {
    reportRequired(issues, listPath);
    return undefined;
  }
  const list = readList(raw, listPath, issues);
  if (list) checkComponentTree(list, MODAL_LAYOUT, listPath, issues);
  return list;
}

export function readModal(raw: unknown, path: IssuePath, issues: Issues): Record<string, unknown> | undefined {
  if (isAbsent(raw)) {
    reportRequired(issues, path);
    return undefined;
  }
  const data = readRecord(raw, path, issues);
  if (!data) return undefined;
  const customId = readRequiredText(
    data,
    'custom_id',
    MODAL_CUSTOM_ID_LENGTH_MIN,
    MODAL_CUSTOM_ID_LENGTH_MAX,
    path,
    issues,
  );
  const title = readRequiredText(data, 'title', MODAL_TITLE_LENGTH_MIN, MODAL_TITLE_LENGTH_MAX, path, issues);
  const components = readComponents(data, path, issues);
  return { custom_id: customId, title, components };
}
