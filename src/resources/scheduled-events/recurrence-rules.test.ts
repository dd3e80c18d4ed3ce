/**
 * The recurrence rule as v10 validates it, combination by combination (the recurrence rule
 * object's "system limitations"): each supported form is taken, and each other one is refused at
 * the field that makes it unsupported (GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID } from '../../core/io/codes.js';
import type { Issue } from '../../core/io/issue.js';
import { readRecurrenceRule } from './rules/recurrence.js';

type Json = Record<string, unknown>;

const START = '2027-01-04T18:00:00.000Z';
const DAILY = 3;
const WEEKLY = 2;
const MONTHLY = 1;
const YEARLY = 0;

function read(rule: Json): { ok: boolean; paths: string[] } {
  const issues: Issue[] = [];
  const read = readRecurrenceRule({ start: START, ...rule }, issues);
  for (const found of issues) assert.equal(found.code, GUILD_SCHEDULED_EVENT_RECURRENCE_INVALID, JSON.stringify(found));
  return { ok: read !== undefined, paths: issues.map((i) => i.path.join('.')) };
}

describe('recurrence rules as v10 validates them', () => {
  test('the supported forms are taken', () => {
    for (const rule of [
      { frequency: DAILY, interval: 1 },
      { frequency: DAILY, interval: 1, by_weekday: [0, 1, 2, 3, 4] },
      { frequency: DAILY, interval: 1, by_weekday: [5, 6] },
      { frequency: WEEKLY, interval: 1, by_weekday: [2] },
      { frequency: WEEKLY, interval: 2, by_weekday: [6] },
      { frequency: MONTHLY, interval: 1, by_n_weekday: [{ n: 1, day: 0 }] },
      { frequency: YEARLY, interval: 1, by_month: [7], by_month_day: [24] },
    ]) {
      assert.deepEqual(read(rule), { ok: true, paths: [] }, JSON.stringify(rule));
    }
  });

  test('each unsupported combination is refused at its field', () => {
    for (const [rule, path] of [
      [{ frequency: DAILY, interval: 2 }, 'recurrence_rule.interval'],
      [{ frequency: DAILY, by_weekday: [0, 1, 2] }, 'recurrence_rule.by_weekday'],
      [{ frequency: DAILY, by_n_weekday: [{ n: 1, day: 0 }] }, 'recurrence_rule.by_n_weekday'],
      [{ frequency: WEEKLY, interval: 3, by_weekday: [1] }, 'recurrence_rule.interval'],
      [{ frequency: WEEKLY, by_weekday: [1, 2] }, 'recurrence_rule.by_weekday'],
      [{ frequency: WEEKLY, by_weekday: [1], by_n_weekday: [{ n: 1, day: 1 }] }, 'recurrence_rule.by_n_weekday'],
      [{ frequency: MONTHLY, by_n_weekday: [{ n: 1, day: 0 }], interval: 2 }, 'recurrence_rule.interval'],
      [
        {
          frequency: MONTHLY,
          by_n_weekday: [
            { n: 1, day: 0 },
            { n: 3, day: 0 },
          ],
        },
        'recurrence_rule.by_n_weekday',
      ],
      [{ frequency: MONTHLY, by_weekday: [0] }, 'recurrence_rule.by_weekday'],
      [{ frequency: MONTHLY, by_n_weekday: [{ n: 2, day: 3 }], by_month_day: [2] }, 'recurrence_rule.by_month'],
      [{ frequency: YEARLY, by_month: [7] }, 'recurrence_rule.by_month_day'],
      [{ frequency: YEARLY, by_month_day: [24] }, 'recurrence_rule.by_month'],
      [{ frequency: YEARLY, by_month: [7], by_month_day: [24], by_weekday: [1] }, 'recurrence_rule.by_weekday'],
      [
        { frequency: YEARLY, by_month: [7], by_month_day: [24], by_n_weekday: [{ n: 1, day: 1 }] },
        'recurrence_rule.by_n_weekday',
      ],
      [{ frequency: YEARLY, by_month: [7, 8], by_month_day: [24] }, 'recurrence_rule.by_month'],
      [{ frequency: DAILY, count: 3 }, 'recurrence_rule.count'],
      [{ frequency: DAILY, end: START }, 'recurrence_rule.end'],
      [{ frequency: DAILY, by_year_day: [1] }, 'recurrence_rule.by_year_day'],
    ] as const) {
      const answer = read(rule);
      assert.equal(answer.ok, false, JSON.stringify(rule));
      assert.ok(answer.paths.includes(path), `${JSON.stringify(rule)}: ${answer.paths.join(', ')}`);
    }
  });
});
