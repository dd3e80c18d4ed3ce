/**
 * Reading a fault from the admin API's body: one small rule per field, every issue at its path.
 * A field that does not apply to the kind is refused rather than ignored, so a mistyped fault
 * never silently does nothing.
 */
import { FAULT_EXPIRY_REQUIRED, FAULT_FIELD_NOT_ALLOWED, FAULT_UNTIL_INVALID } from '../io/codes.js';
import {
  fieldOf,
  isAbsent,
  readBoolean,
  readInteger,
  readNumber,
  readRecord,
  readRequired,
  readSnowflake,
  readString,
} from '../io/read.js';
import { report, reportAboveMax, reportBelowMin, reportNotOneOf, reportTooLong, type Issues } from '../io/report.js';
import { resultOf, type Result } from '../io/result.js';
import { FAULT_KINDS, familyOf, type FaultKind, type FaultSpec } from './fault.js';
import {
  FAULT_SERVER_STATUSES,
  MAX_FAULT_COUNT,
  MAX_FAULT_LATENCY_MS,
  MAX_FAULT_LIFETIME_MS,
  MAX_FAULT_RETRY_AFTER_S,
  MAX_FAULT_TARGET_LENGTH,
} from './limits.js';

/** Which optional fields each kind takes (the rest are refused for it). */
const FIELDS_OF_KIND: Readonly<Record<FaultKind, readonly string[]>> = {
  latency: ['route', 'latency_ms'],
  rate_limit: ['route', 'retry_after', 'global'],
  server_error: ['route', 'status'],
  drop: [],
  duplicate: [],
  late: ['latency_ms'],
  reconnect: ['event'],
  invalid_session: ['event', 'resumable'],
  close: ['event', 'close_code'],
  client_gave_up: [],
};
const KIND_FIELDS = ['route', 'event', 'latency_ms', 'retry_after', 'global', 'status', 'close_code', 'resumable'];

/** The close codes a `close` fault may use: a normal close, or an application code (4000-4999). */
const MIN_APP_CLOSE_CODE = 4000;
const MAX_APP_CLOSE_CODE = 4999;

function readKind(body: Record<string, unknown>, issues: Issues): FaultKind | undefined {
  const kind = readRequired(fieldOf(body, 'kind'), ['kind'], issues, readString);
  if (kind === undefined) return undefined;
  if ((FAULT_KINDS as readonly string[]).includes(kind)) return kind as FaultKind;
  reportNotOneOf(issues, ['kind'], FAULT_KINDS);
  return undefined;
}

function refuseForeignFields(body: Record<string, unknown>, kind: FaultKind, issues: Issues): void {
  for (const field of KIND_FIELDS) {
    if (!isAbsent(fieldOf(body, field)) && !FIELDS_OF_KIND[kind].includes(field)) {
      report(issues, [field], FAULT_FIELD_NOT_ALLOWED, `Not a field of a ${kind} fault.`);
    }
  }
}

/** An integer in `min..max`, or `fallback` when absent. */
function readBounded(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  fallback: number,
  issues: Issues,
): number {
  const value = fieldOf(body, field);
  if (isAbsent(value)) return fallback;
  const read = readInteger(value, [field], issues);
  if (read === undefined) return fallback;
  if (read < min) reportBelowMin(issues, [field], min);
  else if (read > max) reportAboveMax(issues, [field], max);
  return read;
}

function readTarget(body: Record<string, unknown>, field: 'route' | 'event', issues: Issues): string | null {
  const value = fieldOf(body, field);
  if (isAbsent(value)) return null;
  const text = readString(value, [field], issues);
  if (text === undefined) return null;
  if (text.length > MAX_FAULT_TARGET_LENGTH) reportTooLong(issues, [field], MAX_FAULT_TARGET_LENGTH);
  return text;
}

function readRetryAfter(body: Record<string, unknown>, issues: Issues): number {
  const value = fieldOf(body, 'retry_after');
  if (isAbsent(value)) return 1;
  const seconds = readNumber(value, ['retry_after'], issues);
  if (seconds === undefined) return 1;
  if (seconds <= 0) reportBelowMin(issues, ['retry_after'], 0.001);
  else if (seconds > MAX_FAULT_RETRY_AFTER_S) reportAboveMax(issues, ['retry_after'], MAX_FAULT_RETRY_AFTER_S);
  return seconds;
}

function readStatus(body: Record<string, unknown>, issues: Issues): number {
  const value = fieldOf(body, 'status');
  if (isAbsent(value)) return 500;
  const status = readInteger(value, ['status'], issues);
  if (status !== undefined && !(FAULT_SERVER_STATUSES as readonly number[]).includes(status)) {
    reportNotOneOf(issues, ['status'], FAULT_SERVER_STATUSES);
  }
  return status ?? 500;
}

function readProbability(body: Record<string, unknown>, issues: Issues): number {
  const value = fieldOf(body, 'probability');
  if (isAbsent(value)) return 1;
  const probability = readNumber(value, ['probability'], issues);
  if (probability === undefined) return 1;
  if (probability < 0) reportBelowMin(issues, ['probability'], 0);
  else if (probability > 1) reportAboveMax(issues, ['probability'], 1);
  return probability;
}

/** `until`: an ISO 8601 time after `now` and at most a day ahead. */
function readUntil(body: Record<string, unknown>, now: number, issues: Issues): number | null {
  const value = fieldOf(body, 'until');
  if (isAbsent(value)) return null;
  const text = readString(value, ['until'], issues);
  if (text === undefined) return null;
  const at = Date.parse(text);
  if (!Number.isFinite(at) || at <= now || at > now + MAX_FAULT_LIFETIME_MS) {
    report(issues, ['until'], FAULT_UNTIL_INVALID, 'Must be an ISO 8601 time in the next 24 hours.');
    return null;
  }
  return at;
}

function readFlag(body: Record<string, unknown>, field: string, fallback: boolean, issues: Issues): boolean {
  const value = fieldOf(body, field);
  return isAbsent(value) ? fallback : (readBoolean(value, [field], issues) ?? fallback);
}

/** A fault from the body of `POST /admin/faults`; `now` bounds `until`. */
export function parseFault(input: unknown, now: number): Result<FaultSpec> {
  const issues: Issues = [];
  const body = readRecord(input, [], issues);
  if (!body) return resultOf<FaultSpec>(undefined, issues);
  const applicationId = readRequired(fieldOf(body, 'application_id'), ['application_id'], issues, readSnowflake);
  const kind = readKind(body, issues);
  if (kind !== undefined) refuseForeignFields(body, kind, issues);
  const count = isAbsent(fieldOf(body, 'count')) ? null : readBounded(body, 'count', 1, MAX_FAULT_COUNT, 1, issues);
  const until = readUntil(body, now, issues);
  if (count === null && until === null && isAbsent(fieldOf(body, 'until'))) {
    report(issues, ['count'], FAULT_EXPIRY_REQUIRED, 'A fault needs `count` or `until`.');
  }
  // Every field is read, whatever else is wrong, so one answer names every issue.
  const family = kind === undefined ? null : familyOf(kind);
  const fields = {
    route: family === 'http' ? readTarget(body, 'route', issues) : null,
    event: family === 'gateway' ? readTarget(body, 'event', issues) : null,
    latency_ms: readBounded(body, 'latency_ms', 0, MAX_FAULT_LATENCY_MS, 1000, issues),
    retry_after: readRetryAfter(body, issues),
    global: readFlag(body, 'global', false, issues),
    status: readStatus(body, issues),
    close_code: readBounded(body, 'close_code', MIN_APP_CLOSE_CODE, MAX_APP_CLOSE_CODE, 4000, issues),
    resumable: readFlag(body, 'resumable', false, issues),
    count,
    until,
    seed: readBounded(body, 'seed', 0, 0xffff_ffff, 0, issues),
    probability: readProbability(body, issues),
  };
  const spec: FaultSpec | undefined =
    applicationId === undefined || kind === undefined ? undefined : { application_id: applicationId, kind, ...fields };
  return resultOf(spec, issues);
}
