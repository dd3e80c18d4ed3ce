/**
 * `default_member_permissions`: a permission bit set, sent as a decimal string or (discord.py) a
 * JSON integer, stored as a decimal string without leading zeros (facts, section 12).
 */
import type { IssuePath } from '../errors.js';
import { isAbsent } from './json.js';
import { PERMISSIONS_INTEGER_MAX } from './limits.js';
import { reportAboveMax, reportBelowMin, reportNotInteger, type Issues } from './report.js';

const DECIMAL = /^\d+$/;
const NEGATIVE_DECIMAL = /^-\d+$/;

function readPermissionString(text: string, path: IssuePath, issues: Issues): string | null {
  if (DECIMAL.test(text)) return text.replace(/^0+(?=\d)/, '');
  if (NEGATIVE_DECIMAL.test(text)) reportBelowMin(issues, path, 0);
  else reportNotInteger(issues, path, text);
  return null;
}

/** Integers past 2^53 − 1 have lost bits in JSON parsing; those sets must come as strings. */
function readPermissionInteger(value: number, path: IssuePath, issues: Issues): string | null {
  if (!Number.isInteger(value)) reportNotInteger(issues, path, value);
  else if (value < 0) reportBelowMin(issues, path, 0);
  else if (value > PERMISSIONS_INTEGER_MAX) reportAboveMax(issues, path, PERMISSIONS_INTEGER_MAX);
  else return String(value);
  return null;
}

export function readDefaultMemberPermissions(value: unknown, path: IssuePath, issues: Issues): string | null {
  if (isAbsent(value)) return null;
  if (typeof value === 'string') return readPermissionString(value, path, issues);
  if (typeof value === 'number') return readPermissionInteger(value, path, issues);
  reportNotInteger(issues, path, value);
  return null;
}
