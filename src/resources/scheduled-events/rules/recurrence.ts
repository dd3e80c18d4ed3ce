/**
 * A scheduled event's recurrence rule as v10 validates it: the rule's shape, then the combinations
 * v10 supports ("system limitations" of the recurrence rule object): daily on every day or on one
 * of the listed sets of weekdays, weekly (every week or every other week) on one weekday, monthly on
 * one nth weekday, yearly on one day of one month (weekdays only in daily and weekly rules, nth
 * weekdays only in monthly ones); `end`, `count` and `by_year_day` are v10's to
 * fill, never the caller's.
 */
import {
  GuildScheduledEventRecurrenceRuleFrequency as Frequency,
  GuildScheduledEventRecurrenceRuleWeekday as Weekday,
  type APIGuildScheduledEventRecurrenceRule,
} from 'discord-api-types/v10';
import { GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { isAbsent, isRecord, readInteger, readList, type JsonRecord } from '../../../core/io/read.js';
import { report, reportNotObject, reportNotOneOf, type Issues } from '../../../core/io/report.js';
import { readDateTime } from './date-time.js';

/** The rule as stored: v10's fields, `start` in epoch ms. */
export interface RecurrenceRule {
  start: number;
  frequency: Frequency;
  interval: number;
  by_weekday: Weekday[] | null;
  by_n_weekday: { n: number; day: Weekday }[] | null;
  by_month: number[] | null;
  by_month_day: number[] | null;
}

/** The sets of weekdays a daily rule may name (v10): Mon-Fri, Tue-Sat, Sun-Thu, Fri-Sat, Sat-Sun, Sun-Mon. */
const DAILY_WEEKDAY_SETS: readonly (readonly Weekday[])[] = [
  [Weekday.Monday, Weekday.Tuesday, Weekday.Wednesday, Weekday.Thursday, Weekday.Friday],
  [Weekday.Tuesday, Weekday.Wednesday, Weekday.Thursday, Weekday.Friday, Weekday.Saturday],
  [Weekday.Sunday, Weekday.Monday, Weekday.Tuesday, Weekday.Wednesday, Weekday.Thursday],
  [Weekday.Friday, Weekday.Saturday],
  [Weekday.Saturday, Weekday.Sunday],
  [Weekday.Sunday, Weekday.Monday],
];
/** The intervals a weekly rule may have: every week, or every other week. */
const WEEKLY_INTERVALS = [1, 2];
/** The weeks of a month an nth-weekday names. */
const N_WEEKDAY_MIN = 1;
const N_WEEKDAY_MAX = 5;
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
const FREQUENCIES = [Frequency.Yearly, Frequency.Monthly, Frequency.Weekly, Frequency.Daily];
const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const MONTH_DAY_MAX = 31;

function readIntegers(value: unknown, path: IssuePath, allowed: readonly number[], issues: Issues): number[] | null {
  if (isAbsent(value)) return null;
  const list = readList(value, path, issues);
  if (!list) return null;
  const read: number[] = [];
  list.forEach((item, i) => {
    const n = readInteger(item, [...path, i], issues);
    if (n === undefined) return;
    if (!allowed.includes(n)) reportNotOneOf(issues, [...path, i], allowed);
    else read.push(n);
  });
  return read;
}

function readNWeekdays(value: unknown, issues: Issues): { n: number; day: Weekday }[] | null {
  if (isAbsent(value)) return null;
  const path = ['recurrence_rule', 'by_n_weekday'];
  const list = readList(value, path, issues);
  if (!list) return null;
  const read: { n: number; day: Weekday }[] = [];
  list.forEach((item, i) => {
    if (!isRecord(item)) return reportNotObject(issues, [...path, i]);
    const n = readInteger(item.n, [...path, i, 'n'], issues);
    const day = readInteger(item.day, [...path, i, 'day'], issues);
    if (n !== undefined && (n < N_WEEKDAY_MIN || n > N_WEEKDAY_MAX)) {
      reportNotOneOf(issues, [...path, i, 'n'], [1, 2, 3, 4, 5]);
    } else if (day !== undefined && !WEEKDAYS.includes(day)) reportNotOneOf(issues, [...path, i, 'day'], WEEKDAYS);
    else if (n !== undefined && day !== undefined) read.push({ n, day });
  });
  return read;
}

function unsupported(issues: Issues, field: string, message: string): void {
  report(issues, ['recurrence_rule', field], GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID, message);
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

/** The combinations v10 supports for each frequency. */
function checkCombination(rule: RecurrenceRule, issues: Issues): void {
  const { frequency, interval } = rule;
  if (rule.by_weekday && rule.by_n_weekday) unsupported(issues, 'by_n_weekday', 'Cannot be set with by_weekday.');
  if (frequency === Frequency.Daily) {
    if (interval !== 1) unsupported(issues, 'interval', 'A daily rule repeats every day.');
    if (rule.by_weekday && !DAILY_WEEKDAY_SETS.some((set) => sameSet(set, rule.by_weekday!))) {
      unsupported(issues, 'by_weekday', 'Not a set of weekdays a daily rule may name.');
    }
  } else if (frequency === Frequency.Weekly) {
    if (!WEEKLY_INTERVALS.includes(interval))
      unsupported(issues, 'interval', 'A weekly rule repeats every week or every other week.');
    if (rule.by_weekday?.length !== 1) unsupported(issues, 'by_weekday', 'A weekly rule names exactly one weekday.');
  } else if (frequency === Frequency.Monthly) {
    if (interval !== 1) unsupported(issues, 'interval', 'A monthly rule repeats every month.');
    if (rule.by_n_weekday?.length !== 1)
      unsupported(issues, 'by_n_weekday', 'A monthly rule names exactly one nth weekday.');
  } else {
    if (interval !== 1) unsupported(issues, 'interval', 'A yearly rule repeats every year.');
    if (rule.by_month?.length !== 1) unsupported(issues, 'by_month', 'A yearly rule names exactly one month.');
    if (rule.by_month_day?.length !== 1)
      unsupported(issues, 'by_month_day', 'A yearly rule names exactly one day of the month.');
  }
  if (frequency !== Frequency.Yearly && (rule.by_month || rule.by_month_day)) {
    unsupported(issues, 'by_month', 'Only a yearly rule names months and days of the month.');
  }
  checkDayFields(rule, issues);
}

/** v10: weekdays only in a daily or weekly rule, nth weekdays only in a monthly one. */
function checkDayFields(rule: RecurrenceRule, issues: Issues): void {
  const { frequency } = rule;
  if (rule.by_weekday && (frequency === Frequency.Monthly || frequency === Frequency.Yearly)) {
    unsupported(issues, 'by_weekday', 'Only a daily or weekly rule names weekdays.');
  }
  if (rule.by_n_weekday && !rule.by_weekday && frequency !== Frequency.Monthly) {
    unsupported(issues, 'by_n_weekday', 'Only a monthly rule names nth weekdays.');
  }
}

/** The fields v10 computes itself: set by the caller, they are refused. */
function checkComputedFields(body: JsonRecord, issues: Issues): void {
  for (const field of ['end', 'count', 'by_year_day']) {
    if (!isAbsent(body[field])) unsupported(issues, field, 'This field cannot be set.');
  }
}

/** Reads `recurrence_rule` (not null); undefined when it has issues (reported). */
export function readRecurrenceRule(value: unknown, issues: Issues): RecurrenceRule | undefined {
  const path = ['recurrence_rule'];
  if (!isRecord(value)) {
    reportNotObject(issues, path);
    return undefined;
  }
  const before = issues.length;
  const start = readDateTime(value.start, [...path, 'start'], issues);
  const frequency = readInteger(value.frequency, [...path, 'frequency'], issues);
  if (frequency !== undefined && !FREQUENCIES.includes(frequency))
    reportNotOneOf(issues, [...path, 'frequency'], FREQUENCIES);
  const interval = isAbsent(value.interval) ? 1 : readInteger(value.interval, [...path, 'interval'], issues);
  const rule: RecurrenceRule = {
    start: start ?? 0,
    frequency: frequency ?? Frequency.Daily,
    interval: interval ?? 1,
    by_weekday: readIntegers(value.by_weekday, [...path, 'by_weekday'], WEEKDAYS, issues),
    by_n_weekday: readNWeekdays(value.by_n_weekday, issues),
    by_month: readIntegers(value.by_month, [...path, 'by_month'], MONTHS, issues),
    by_month_day: readIntegers(
      value.by_month_day,
      [...path, 'by_month_day'],
      Array.from({ length: MONTH_DAY_MAX }, (_, i) => i + 1),
      issues,
    ),
  };
  checkComputedFields(value, issues);
  if (issues.length > before) return undefined;
  checkCombination(rule, issues);
  return issues.length > before ? undefined : rule;
}

/** v10's recurrence rule object of a stored rule. */
export function toWireRecurrenceRule(rule: RecurrenceRule): APIGuildScheduledEventRecurrenceRule {
  return {
    start: new Date(rule.start).toISOString(),
    end: null,
    frequency: rule.frequency,
    interval: rule.interval,
    by_weekday: rule.by_weekday,
    by_n_weekday: rule.by_n_weekday as APIGuildScheduledEventRecurrenceRule['by_n_weekday'],
    by_month: rule.by_month,
    by_month_day: rule.by_month_day,
    by_year_day: null,
    count: null,
  };
}
