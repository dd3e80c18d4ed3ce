/** The `changes` of an expression's audit log entry: each field created, changed or deleted (v10). */
import type { AuditChange } from '../../audit-log/rules.js';

type Keyed = Record<string, unknown>;

/** The changes from `before` to `after` (either null for a creation or a deletion); an edit names only what changed. */
export function auditChanges(before: Keyed | null, after: Keyed | null): AuditChange[] {
  const out: Keyed[] = [];
  for (const key of Object.keys(after ?? before ?? {})) {
    const old = before?.[key];
    const now = after?.[key];
    if (before && after && JSON.stringify(old) === JSON.stringify(now)) continue;
    out.push({ key, ...(before ? { old_value: old } : {}), ...(after ? { new_value: now } : {}) });
  }
  return out as unknown as AuditChange[];
}
