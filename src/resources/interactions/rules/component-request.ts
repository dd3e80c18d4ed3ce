/**
 * The bodies of `POST /interactions` for a click (type 3, MESSAGE_COMPONENT) and a modal
 * submission (type 5, MODAL_SUBMIT), read for shape only. Whether the message, its component or
 * the modal exist and accept what is sent is decided by `core/interactions/component-click.ts`
 * and `modal-submit.ts` against what the app sent.
 */
import type { IssuePath } from '../../../core/io/issue.js';
import {
  fieldOf,
  isAbsent,
  readInteger,
  readList,
  readOptional,
  readRecord,
  readRequired,
  readSnowflake,
  readString,
  type JsonRecord,
} from '../../../core/io/read.js';
import { reportBadLength, reportTooLong, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import {
  COMPONENT_CUSTOM_ID_LENGTH_MAX,
  MODAL_SUBMIT_FIELDS_MAX,
  SELECT_VALUE_LENGTH_MAX,
  SELECT_VALUES_MAX,
  TEXT_INPUT_VALUE_LENGTH_MAX,
} from '../../messages/rules/limits.js';
import { readNonce } from './request.js';

/** Where a click or a submission happens: the fields every user-side body names. */
interface Place {
  /** Optional: the app is the one that sent the message (or the modal); when given it must be that app. */
  application_id: string | null;
  guild_id: string | null;
  channel_id: string;
  nonce: string | null;
}

export interface ComponentRequest extends Place {
  type: 3;
  message_id: string;
  data: { custom_id: string; component_type: number; values: string[] | null };
}

/** One text input as the user filled it in, with where it was in the body (for errors). */
export interface SubmittedField {
  custom_id: string;
  value: string;
  path: IssuePath;
}

export interface ModalSubmitRequest extends Place {
  type: 5;
  data: { custom_id: string; fields: SubmittedField[] };
}

function readCustomId(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  const text = readString(value, path, issues);
  if (text !== undefined && (text.length < 1 || text.length > COMPONENT_CUSTOM_ID_LENGTH_MAX)) {
    reportBadLength(issues, path, 1, COMPONENT_CUSTOM_ID_LENGTH_MAX);
    return undefined;
  }
  return text;
}

function readValues(value: unknown, path: IssuePath, issues: Issues): string[] | undefined {
  const list = readList(value, path, issues);
  if (!list) return undefined;
  if (list.length > SELECT_VALUES_MAX) {
    reportTooLong(issues, path, SELECT_VALUES_MAX);
    return undefined;
  }
  const values: string[] = [];
  list.forEach((item, index) => {
    const text = readString(item, [...path, index], issues);
    if (text === undefined) return;
    if (text.length > SELECT_VALUE_LENGTH_MAX) reportTooLong(issues, [...path, index], SELECT_VALUE_LENGTH_MAX);
    values.push(text);
  });
  return values;
}

type ReadPlace = Omit<Place, 'channel_id'> & { channel_id: string | undefined };

function readPlace(record: JsonRecord, issues: Issues): ReadPlace {
  return {
    application_id: readOptional<string | null>(
      fieldOf(record, 'application_id'),
      ['application_id'],
      issues,
      readSnowflake,
      null,
    ),
    guild_id: readOptional<string | null>(fieldOf(record, 'guild_id'), ['guild_id'], issues, readSnowflake, null),
    channel_id: readRequired(fieldOf(record, 'channel_id'), ['channel_id'], issues, readSnowflake),
    nonce: readOptional<string | null>(fieldOf(record, 'nonce'), ['nonce'], issues, readNonce, null),
  };
}

function isPlace(place: ReadPlace): place is Place {
  return place.channel_id !== undefined;
}

/** A click: `message_id`, and `data.custom_id`, `data.component_type`, `data.values` (selects). */
export function readComponentRequest(body: JsonRecord): Result<ComponentRequest> {
  const issues: Issues = [];
  const place = readPlace(body, issues);
  const messageId = readRequired(fieldOf(body, 'message_id'), ['message_id'], issues, readSnowflake);
  const data = readRequired(fieldOf(body, 'data'), ['data'], issues, readRecord);
  const customId = data && readRequired(fieldOf(data, 'custom_id'), ['data', 'custom_id'], issues, readCustomId);
  const componentType =
    data && readRequired(fieldOf(data, 'component_type'), ['data', 'component_type'], issues, readInteger);
  const values = data
    ? readOptional<string[] | null>(fieldOf(data, 'values'), ['data', 'values'], issues, readValues, null)
    : null;
  if (issues.length > 0 || !isPlace(place) || !messageId || customId === undefined || componentType === undefined) {
    return fail(issues);
  }
  return ok({
    ...place,
    type: 3,
    message_id: messageId,
    data: { custom_id: customId, component_type: componentType, values },
  });
}

function readTextValue(value: unknown, path: IssuePath, issues: Issues): string | undefined {
  const text = readString(value, path, issues);
  if (text !== undefined && text.length > TEXT_INPUT_VALUE_LENGTH_MAX) {
    reportTooLong(issues, path, TEXT_INPUT_VALUE_LENGTH_MAX);
    return undefined;
  }
  return text;
}

/** One submitted input: `{custom_id, value}` (a text input; `type` is not needed to read it). */
function readField(raw: unknown, path: IssuePath, issues: Issues, into: SubmittedField[]): void {
  const input = readRecord(raw, path, issues);
  if (!input) return;
  const customId = readRequired(fieldOf(input, 'custom_id'), [...path, 'custom_id'], issues, readCustomId);
  const value = readRequired(fieldOf(input, 'value'), [...path, 'value'], issues, readTextValue);
  if (customId !== undefined && value !== undefined) into.push({ custom_id: customId, value, path });
}

/**
 * The submitted components, in the layouts v10 clients send: action rows holding text inputs
 * (`{type: 1, components: [{type: 4, custom_id, value}]}`) or labels holding one
 * (`{type: 18, component: {...}}`).
 */
function readSubmittedFields(value: unknown, path: IssuePath, issues: Issues): SubmittedField[] | undefined {
  const list = readList(value, path, issues);
  if (!list) return undefined;
  if (list.length > MODAL_SUBMIT_FIELDS_MAX) {
    reportTooLong(issues, path, MODAL_SUBMIT_FIELDS_MAX);
    return undefined;
  }
  const fields: SubmittedField[] = [];
  list.forEach((item, index) => {
    const itemPath = [...path, index];
    const top = readRecord(item, itemPath, issues);
    if (!top) return;
    const inner = fieldOf(top, 'component');
    if (!isAbsent(inner)) return readField(inner, [...itemPath, 'component'], issues, fields);
    const children = fieldOf(top, 'components');
    if (isAbsent(children)) return readField(top, itemPath, issues, fields);
    const rowPath = [...itemPath, 'components'];
    const row = readList(children, rowPath, issues);
    if (!row) return;
    if (row.length > 1) reportTooLong(issues, rowPath, 1);
    row.forEach((child, childIndex) => readField(child, [...rowPath, childIndex], issues, fields));
  });
  return fields;
}

/** A modal submission: `data.custom_id` of the modal, and `data.components` as filled in. */
export function readModalSubmitRequest(body: JsonRecord): Result<ModalSubmitRequest> {
  const issues: Issues = [];
  const place = readPlace(body, issues);
  const data = readRequired(fieldOf(body, 'data'), ['data'], issues, readRecord);
  const customId = data && readRequired(fieldOf(data, 'custom_id'), ['data', 'custom_id'], issues, readCustomId);
  const fields = data && readRequired(fieldOf(data, 'components'), ['data', 'components'], issues, readSubmittedFields);
  if (issues.length > 0 || !isPlace(place) || customId === undefined || !fields) return fail(issues);
  return ok({ ...place, type: 5, data: { custom_id: customId, fields } });
}
