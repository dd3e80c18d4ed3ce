/**
 * Application role connections (docs/v10-behaviour.md#role-connections): the metadata records an
 * app declares (what a linked role may require), and each user's connection to the app (its
 * platform name and values for those records), with v10's types and limits. Pure.
 */
import {
  ApplicationRoleConnectionMetadataType as MetadataType,
  type APIApplicationRoleConnection,
  type APIApplicationRoleConnectionMetadata,
} from 'discord-api-types/v10';
import { ROLE_CONNECTION_KEY_INVALID, ROLE_CONNECTION_VALUE_INVALID } from '../../core/io/codes.js';
import type { IssuePath } from '../../core/io/issue.js';
import { fieldOf, isAbsent, readInteger, readList, readRecord, readString } from '../../core/io/read.js';
import {
  report,
  reportBadLength,
  reportDuplicateValue,
  reportNotOneOf,
  reportTooLong,
  type Issues,
} from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { checkLength } from '../../core/validation/text.js';
import { readLocalizations } from '../../core/validation/localizations.js';
import type { TextRule } from '../../core/validation/names.js';

/** The most metadata records an application declares (v10: 5). */
export const METADATA_RECORDS_MAX = 5;
/** A record's key: 1 to 50 characters of a-z, 0-9 and `_`. */
export const METADATA_KEY_MAX = 50;
/** A record's name: 1 to 100 characters. */
export const METADATA_NAME_MAX = 100;
/** A record's description: 1 to 200 characters. */
export const METADATA_DESCRIPTION_MAX = 200;
/** A connection's platform name: at most 50 characters. */
export const PLATFORM_NAME_MAX = 50;
/** A connection's platform username: at most 100 characters. */
export const PLATFORM_USERNAME_MAX = 100;
/** A connection's metadata value: at most 100 characters. */
export const METADATA_VALUE_MAX = 100;

const METADATA_KEY = /^[a-z0-9_]+$/;
const METADATA_TYPES: readonly number[] = Object.values(MetadataType).filter((v): v is number => typeof v === 'number');
const INTEGER_TYPES: ReadonlySet<number> = new Set([
  MetadataType.IntegerLessThanOrEqual,
  MetadataType.IntegerGreaterThanOrEqual,
  MetadataType.IntegerEqual,
  MetadataType.IntegerNotEqual,
]);
const DATETIME_TYPES: ReadonlySet<number> = new Set([
  MetadataType.DatetimeLessThanOrEqual,
  MetadataType.DatetimeGreaterThanOrEqual,
]);

const checkName: TextRule = (text, path, issues) => checkLength(text, 1, METADATA_NAME_MAX, path, issues);
const checkDescription: TextRule = (text, path, issues) => checkLength(text, 1, METADATA_DESCRIPTION_MAX, path, issues);

/** `PUT /applications/{id}/role-connections/metadata`: the whole list, at most five, keys unique. */
export function readMetadataRecords(body: unknown): Result<APIApplicationRoleConnectionMetadata[]> {
  const issues: Issues = [];
  const list = readList(body, [], issues);
  if (!list) return fail(issues);
  if (list.length > METADATA_RECORDS_MAX) reportTooLong(issues, [], METADATA_RECORDS_MAX);
  const records: APIApplicationRoleConnectionMetadata[] = [];
  list.forEach((value, index) => {
    const record = readMetadataRecord(value, [index], issues);
    if (record && records.some((other) => other.key === record.key)) {
      reportDuplicateValue(issues, [index, 'key'], record.key);
    } else if (record) records.push(record);
  });
  return issues.length > 0 ? fail(issues) : ok(records);
}

function readMetadataRecord(value: unknown, path: IssuePath, issues: Issues) {
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const before = issues.length;
  const type = readInteger(fieldOf(record, 'type'), [...path, 'type'], issues);
  if (type !== undefined && !METADATA_TYPES.includes(type)) reportNotOneOf(issues, [...path, 'type'], METADATA_TYPES);
  const key = readString(fieldOf(record, 'key'), [...path, 'key'], issues);
  if (key !== undefined) checkKey(key, [...path, 'key'], issues);
  const name = readString(fieldOf(record, 'name'), [...path, 'name'], issues);
  if (name !== undefined) checkName(name, [...path, 'name'], issues);
  const description = readString(fieldOf(record, 'description'), [...path, 'description'], issues);
  if (description !== undefined) checkDescription(description, [...path, 'description'], issues);
  const nameLocalizations = readLocalizations(
    fieldOf(record, 'name_localizations'),
    [...path, 'name_localizations'],
    name,
    checkName,
    issues,
  );
  const descriptionLocalizations = readLocalizations(
    fieldOf(record, 'description_localizations'),
    [...path, 'description_localizations'],
    description,
    checkDescription,
    issues,
  );
  if (issues.length > before || type === undefined || key === undefined) return undefined;
  if (name === undefined || description === undefined) return undefined;
  return {
    type: type as MetadataType,
    key,
    name,
    ...(nameLocalizations ? { name_localizations: nameLocalizations } : {}),
    description,
    ...(descriptionLocalizations ? { description_localizations: descriptionLocalizations } : {}),
  };
}

function checkKey(key: string, path: IssuePath, issues: Issues): void {
  if (key.length < 1 || key.length > METADATA_KEY_MAX) reportBadLength(issues, path, 1, METADATA_KEY_MAX);
  else if (!METADATA_KEY.test(key)) {
    report(issues, path, ROLE_CONNECTION_KEY_INVALID, 'Keys may hold only a-z, 0-9 and _.');
  }
}

/**
 * `PUT /users/@me/applications/{id}/role-connection`: the platform's name and username, and a
 * value for records the app declared (each checked against its record's type).
 */
export function readRoleConnection(
  body: unknown,
  records: readonly APIApplicationRoleConnectionMetadata[],
): Result<APIApplicationRoleConnection> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  if (!record) return fail(issues);
  const platformName = readOptionalText(fieldOf(record, 'platform_name'), ['platform_name'], PLATFORM_NAME_MAX, issues);
  const platformUsername = readOptionalText(
    fieldOf(record, 'platform_username'),
    ['platform_username'],
    PLATFORM_USERNAME_MAX,
    issues,
  );
  const metadata: Record<string, string> = {};
  const raw = fieldOf(record, 'metadata');
  if (!isAbsent(raw)) {
    const values = readRecord(raw, ['metadata'], issues);
    for (const [key, value] of Object.entries(values ?? {})) {
      const declared = records.find((r) => r.key === key);
      const text = readMetadataValue(value, ['metadata', key], declared, issues);
      if (text !== undefined) metadata[key] = text;
    }
  }
  if (issues.length > 0) return fail(issues);
  return ok({ platform_name: platformName, platform_username: platformUsername, metadata });
}

function readOptionalText(value: unknown, path: IssuePath, max: number, issues: Issues): string | null {
  if (isAbsent(value)) return null;
  const text = readString(value, path, issues);
  if (text !== undefined && text.length > max) reportTooLong(issues, path, max);
  return text ?? null;
}

/** A value as v10 stores it: a string; integers and booleans may come as numbers. */
function readMetadataValue(
  value: unknown,
  path: IssuePath,
  declared: APIApplicationRoleConnectionMetadata | undefined,
  issues: Issues,
): string | undefined {
  if (!declared) {
    report(issues, path, ROLE_CONNECTION_KEY_INVALID, 'The application declares no metadata record of this key.');
    return undefined;
  }
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || text.length > METADATA_VALUE_MAX || !fitsType(text, declared.type)) {
    report(issues, path, ROLE_CONNECTION_VALUE_INVALID, `Not a value of a type ${declared.type} record.`);
    return undefined;
  }
  return text;
}

function fitsType(text: string, type: MetadataType): boolean {
  if (INTEGER_TYPES.has(type)) return /^-?\d+$/.test(text);
  if (DATETIME_TYPES.has(type)) return !Number.isNaN(Date.parse(text));
  return text === '0' || text === '1';
}

/** The connection of a user who has none: v10 answers nulls and no metadata. */
export const NO_ROLE_CONNECTION: APIApplicationRoleConnection = Object.freeze({
  platform_name: null,
  platform_username: null,
  metadata: {},
});
