/**
 * Localization dictionaries (v10 API, Localization). Keys are the 32 supported locales; each value
 * obeys its field's rule; a value equal to the default is ignored, so it is neither checked nor kept.
 */
import type { IssuePath } from '../io/issue.js';
import { isReservedKey, nullRecord, reservedKeyIssue } from '../records.js';
import { isSupportedLocale, SUPPORTED_LOCALES, type LocalizationMap } from '../locales.js';
import { isAbsent, readRecord, readString } from '../io/read.js';
import type { TextRule } from './names.js';
import { reportNotOneOf, type Issues } from '../io/report.js';

/** The normalized dictionary: null when nothing differs from the default. */
export function readLocalizations(
  value: unknown,
  path: IssuePath,
  defaultText: string | undefined,
  rule: TextRule,
  issues: Issues,
): LocalizationMap | null {
  if (isAbsent(value)) return null;
  const record = readRecord(value, path, issues);
  if (!record) return null;
  let map: LocalizationMap | null = null;
  for (const locale of Object.keys(record)) {
    const localePath = [...path, locale];
    if (isReservedKey(locale)) {
      issues.push(reservedKeyIssue(localePath));
      continue;
    }
    if (!isSupportedLocale(locale)) {
      reportNotOneOf(issues, localePath, SUPPORTED_LOCALES);
      continue;
    }
    const raw = record[locale];
    // A null entry means "not localized", like an omitted key.
    if (isAbsent(raw)) continue;
    const text = readString(raw, localePath, issues);
    if (text === undefined || text === defaultText) continue;
    rule(text, localePath, issues);
    map ??= nullRecord<string>();
    map[locale] = text;
  }
  return map;
}

/** Where a field may not be given at all (descriptions of context-menu commands), its dictionary is empty. */
export function hasLocalizedValues(value: unknown): boolean {
  if (isAbsent(value)) return false;
  if (typeof value !== 'object' || Array.isArray(value)) return true;
  return Object.values(value).some((text) => !isAbsent(text) && text !== '');
}
