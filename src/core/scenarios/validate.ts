/**
 * Checks a scenario as read from YAML (any value) before anything runs: each rule is one small
 * function that appends an issue at the path of what it checks (`steps.2.expect.0.message`), so a
 * wrong file is told everything wrong with it at once, by path.
 */
import { BASE_TYPE_CHOICES, SCENARIO_PATTERN_INVALID } from '../io/codes.js';
import type { Issue, IssuePath } from '../io/issue.js';
import {
  fieldOf,
  isAbsent,
  isRecord,
  readInteger,
  readList,
  readRecord,
  readString,
  type JsonRecord,
} from '../io/read.js';
import {
  report,
  reportAboveMax,
  reportBelowMin,
  reportNotOneOf,
  reportRequired,
  reportTooShort,
  type Issues,
} from '../io/report.js';
import { fail, ok, type Result } from '../io/result.js';
import { ACTION_KEYS, ANY_KINDS, EXPECTATION_KEYS, MATCHER_KEYS, type Scenario } from './types.js';
import { linearPattern } from './patterns.js';

/** Steps of one scenario at most: a recorded session of an hour is far below it. */
export const MAX_SCENARIO_STEPS = 1_000;
/** Expectations of one step at most. */
export const MAX_STEP_EXPECTATIONS = 100;
/** The longest wait for one expectation, in ms: a step waits for a bot, never for minutes. */
export const MAX_EXPECTATION_TIMEOUT_MS = 120_000;
/** Regular expressions of `matches` at most this long (they run against bot output, in the runner). */
export const MAX_PATTERN_LENGTH = 1_000;

const SCENARIO_FIELDS = new Set(['name', 'world', 'application', 'timeout', 'steps']);
const ACTOR_FIELDS = ['as', 'in', 'guild', 'name', 'timeout', 'expect'];
/** The fields a step of each kind may hold besides its action and the actor's. */
const STEP_FIELDS: Readonly<Record<string, readonly string[]>> = {
  invoke: ['target'],
  click: ['values'],
  submit: [],
  post: [],
  react: [],
  upload: [],
};

function onlyKnownFields(record: JsonRecord, allowed: ReadonlySet<string>, path: IssuePath, issues: Issues): void {
  for (const key of Object.keys(record)) {
    if (!allowed.has(key))
      report(issues, [...path, key], BASE_TYPE_CHOICES, `Unknown field; expected one of {${[...allowed].join(', ')}}.`);
  }
}

/** Exactly one of `keys` in `record`: which, or null after reporting. */
function exactlyOneOf(record: JsonRecord, keys: readonly string[], path: IssuePath, issues: Issues): string | null {
  const present = keys.filter((key) => Object.hasOwn(record, key));
  if (present.length === 1) return present[0]!;
  report(
    issues,
    path,
    BASE_TYPE_CHOICES,
    present.length === 0 ? `Must hold one of {${keys.join(', ')}}.` : `Must hold only one of {${present.join(', ')}}.`,
  );
  return null;
}

function checkTimeout(value: unknown, path: IssuePath, issues: Issues): void {
  if (isAbsent(value)) return;
  const timeout = readInteger(value, path, issues);
  if (timeout === undefined) return;
  if (timeout < 1) reportBelowMin(issues, path, 1);
  if (timeout > MAX_EXPECTATION_TIMEOUT_MS) reportAboveMax(issues, path, MAX_EXPECTATION_TIMEOUT_MS);
}

function checkOptionalString(record: JsonRecord, key: string, path: IssuePath, issues: Issues): void {
  const value = fieldOf(record, key);
  if (!isAbsent(value)) readString(value, [...path, key], issues);
}

function checkRequiredString(record: JsonRecord, key: string, path: IssuePath, issues: Issues): void {
  const value = fieldOf(record, key);
  if (isAbsent(value)) reportRequired(issues, [...path, key]);
  else if (readString(value, [...path, key], issues) === '') reportTooShort(issues, [...path, key], 1);
}

function checkWorld(value: unknown, path: IssuePath, issues: Issues): void {
  if (isAbsent(value) || typeof value === 'string') return;
  const world = readRecord(value, path, issues);
  if (world) checkRequiredString(world, 'snapshot', path, issues);
}

function checkStringMap(value: unknown, path: IssuePath, issues: Issues): void {
  const map = readRecord(value, path, issues);
  for (const [key, field] of Object.entries(map ?? {})) readString(field, [...path, key], issues);
}

function checkStringList(value: unknown, path: IssuePath, issues: Issues): void {
  readList(value, path, issues)?.forEach((item, index) => readString(item, [...path, index], issues));
}

function checkClickTarget(value: unknown, path: IssuePath, issues: Issues): void {
  if (typeof value === 'string') return;
  const target = readRecord(value, path, issues);
  const key = target ? exactlyOneOf(target, ['custom_id', 'label'], path, issues) : null;
  if (target && key) checkRequiredString(target, key, path, issues);
}

function checkUpload(value: unknown, path: IssuePath, issues: Issues): void {
  const upload = readRecord(value, path, issues);
  if (!upload) return;
  checkRequiredString(upload, 'file', path, issues);
  checkOptionalString(upload, 'content', path, issues);
  checkOptionalString(upload, 'name', path, issues);
}

/** Each action's own value. */
const ACTION_CHECKS: Readonly<Record<string, (value: unknown, path: IssuePath, issues: Issues) => void>> = {
  invoke: (value, path, issues) => {
    if (readString(value, path, issues) === '') reportTooShort(issues, path, 1);
  },
  click: checkClickTarget,
  submit: checkStringMap,
  post: (value, path, issues) => void readString(value, path, issues),
  react: (value, path, issues) => {
    if (readString(value, path, issues) === '') reportTooShort(issues, path, 1);
  },
  upload: checkUpload,
};

function checkPattern(pattern: unknown, path: IssuePath, issues: Issues): void {
  const text = readString(pattern, path, issues);
  if (text === undefined) return;
  if (text.length > MAX_PATTERN_LENGTH) reportAboveMax(issues, path, MAX_PATTERN_LENGTH);
  const compiled = linearPattern(text);
  if (!(compiled instanceof RegExp)) report(issues, path, SCENARIO_PATTERN_INVALID, compiled.problem);
}

/** A matcher object: one of MATCHER_KEYS alone (`{ matches: "^pong$" }`). */
export function isMatcher(value: unknown): value is JsonRecord {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (MATCHER_KEYS as readonly string[]).includes(keys[0]!);
}

/** An expected value, recursively: matchers are checked, the rest is any YAML value. */
function checkExpected(value: unknown, path: IssuePath, issues: Issues): void {
  if (isMatcher(value)) {
    if (Object.hasOwn(value, 'matches')) checkPattern(value.matches, [...path, 'matches'], issues);
    if (Object.hasOwn(value, 'contains')) readString(value.contains, [...path, 'contains'], issues);
    if (Object.hasOwn(value, 'any') && !ANY_KINDS.includes(value.any as never))
      reportNotOneOf(issues, [...path, 'any'], ANY_KINDS);
    return;
  }
  if (Array.isArray(value)) value.forEach((item, index) => checkExpected(item, [...path, index], issues));
  else if (isRecord(value))
    for (const [key, field] of Object.entries(value)) checkExpected(field, [...path, key], issues);
}

function checkRefusal(value: unknown, path: IssuePath, issues: Issues): void {
  const refusal = readRecord(value, path, issues);
  if (!refusal) return;
  onlyKnownFields(refusal, new Set(['status', 'code', 'reason']), path, issues);
  for (const key of ['status', 'code'])
    if (!isAbsent(fieldOf(refusal, key))) readInteger(refusal[key], [...path, key], issues);
  checkOptionalString(refusal, 'reason', path, issues);
}

function checkMember(value: unknown, path: IssuePath, issues: Issues): void {
  const member = readRecord(value, path, issues);
  if (!member) return;
  onlyKnownFields(member, new Set(['user', 'guild', 'has', 'lacks']), path, issues);
  checkRequiredString(member, 'user', path, issues);
  checkOptionalString(member, 'guild', path, issues);
  for (const key of ['has', 'lacks'])
    if (!isAbsent(fieldOf(member, key))) checkStringList(member[key], [...path, key], issues);
}

function checkEvent(value: unknown, path: IssuePath, issues: Issues): void {
  const event = readRecord(value, path, issues);
  if (!event) return;
  onlyKnownFields(event, new Set(['type', 'data']), path, issues);
  checkRequiredString(event, 'type', path, issues);
  if (Object.hasOwn(event, 'data')) checkExpected(event.data, [...path, 'data'], issues);
}

function checkExpectedRecord(value: unknown, path: IssuePath, issues: Issues): void {
  if (readRecord(value, path, issues)) checkExpected(value, path, issues);
}

/** Each expectation's own value. */
const EXPECTATION_CHECKS: Readonly<Record<string, (value: unknown, path: IssuePath, issues: Issues) => void>> = {
  message: checkExpectedRecord,
  ephemeral: checkExpectedRecord,
  modal: checkExpectedRecord,
  refusal: checkRefusal,
  member: checkMember,
  event: checkEvent,
};

function checkExpectation(value: unknown, path: IssuePath, issues: Issues): void {
  const expectation = readRecord(value, path, issues);
  const kind = expectation ? exactlyOneOf(expectation, EXPECTATION_KEYS, path, issues) : null;
  if (!expectation || !kind) return;
  onlyKnownFields(expectation, new Set([kind]), path, issues);
  EXPECTATION_CHECKS[kind]!(expectation[kind], [...path, kind], issues);
}

function checkExpectations(value: unknown, path: IssuePath, issues: Issues): void {
  if (isAbsent(value)) return;
  const list = readList(value, path, issues);
  if (!list) return;
  if (list.length > MAX_STEP_EXPECTATIONS) reportAboveMax(issues, path, MAX_STEP_EXPECTATIONS);
  list.forEach((item, index) => checkExpectation(item, [...path, index], issues));
}

function checkStep(value: unknown, path: IssuePath, issues: Issues): void {
  const step = readRecord(value, path, issues);
  const kind = step ? exactlyOneOf(step, ACTION_KEYS, path, issues) : null;
  if (!step || !kind) return;
  onlyKnownFields(step, new Set([kind, ...ACTOR_FIELDS, ...STEP_FIELDS[kind]!]), path, issues);
  ACTION_CHECKS[kind]!(step[kind], [...path, kind], issues);
  checkRequiredString(step, 'as', path, issues);
  for (const key of ['in', 'guild', 'name', 'target']) checkOptionalString(step, key, path, issues);
  if (!isAbsent(fieldOf(step, 'values'))) checkStringList(step.values, [...path, 'values'], issues);
  checkTimeout(fieldOf(step, 'timeout'), [...path, 'timeout'], issues);
  checkExpectations(fieldOf(step, 'expect'), [...path, 'expect'], issues);
}

function checkSteps(value: unknown, path: IssuePath, issues: Issues): void {
  if (isAbsent(value)) return reportRequired(issues, path);
  const steps = readList(value, path, issues);
  if (!steps) return;
  if (steps.length === 0) reportTooShort(issues, path, 1);
  if (steps.length > MAX_SCENARIO_STEPS) reportAboveMax(issues, path, MAX_SCENARIO_STEPS);
  steps.forEach((step, index) => checkStep(step, [...path, index], issues));
}

/** The scenario when `value` is one, else every issue found, each at its path. */
export function validateScenario(value: unknown): Result<Scenario> {
  const issues: Issue[] = [];
  const root = readRecord(value, [], issues);
  if (!root) return fail(issues);
  onlyKnownFields(root, SCENARIO_FIELDS, [], issues);
  checkOptionalString(root, 'name', [], issues);
  checkOptionalString(root, 'application', [], issues);
  checkWorld(fieldOf(root, 'world'), ['world'], issues);
  checkTimeout(fieldOf(root, 'timeout'), ['timeout'], issues);
  checkSteps(fieldOf(root, 'steps'), ['steps'], issues);
  return issues.length > 0 ? fail(issues) : ok(root as unknown as Scenario);
}

/** One line per issue: `steps.2.as: This field is required`. */
export function describeIssues(issues: readonly Issue[]): string[] {
  return issues.map((found) => `${found.path.length > 0 ? found.path.join('.') : '(the scenario)'}: ${found.message}`);
}
