/**
 * `default_member_permissions`: a permission bit set, sent as a decimal string or (discord.py) a
 * JSON integer, stored as a decimal string without leading zeros (docs/v10-behaviour.md#compatibility-decisions).
 */
import type { IssuePath } from '../io/issue.js';
import { isAbsent } from '../io/read.js';
import { PERMISSIONS_BITS_MAX, PERMISSIONS_INTEGER_MAX } from './limits.js';
import { reportAboveMax, reportBelowMin, reportNotInteger, type Issues } from '../io/report.js';

const DECIMAL = /^\d+$/;
const NEGATIVE_DECIMAL = /^-\d+$/;

/** Digits of the largest 64-bit value: a longer number (leading zeros aside) is out of range unread. */
const PERMISSIONS_DIGITS_MAX = PERMISSIONS_BITS_MAX.toString().length;

function fitsPermissionBits(digits: string): boolean {
  return digits.length <= PERMISSIONS_DIGITS_MAX && BigInt(digits) <= PERMISSIONS_BITS_MAX;
}

/** A set beyond 64 bits is stored nowhere: bits no permission has would be compared later. */
function readPermissionString(text: string, path: IssuePath, issues: Issues): string | null {
  if (DECIMAL.test(text)) {
    const digits = text.replace(/^0+(?=\d)/, '');
    if (fitsPermissionBits(digits)) return digits;
    reportAboveMax(issues, path, PERMISSIONS_BITS_MAX);
  } else if (NEGATIVE_DECIMAL.test(text)) reportBelowMin(issues, path, 0);
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
