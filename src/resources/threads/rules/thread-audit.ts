/** What a thread's audit entries record (v10 THREAD_CREATE 110, THREAD_UPDATE 111): pure. */
import type { AuditChange } from '../../audit-log/rules.js';
import type { Channel } from '../../../core/world/types.js';

/** A thread's fields as its audit changes name them. */
function auditedFields(thread: Channel): Record<string, string | number | boolean> {
  const state = thread.thread;
  return {
    name: thread.name,
    type: thread.type,
    archived: state?.archived ?? false,
    locked: state?.locked ?? false,
    auto_archive_duration: state?.auto_archive_duration ?? 10080,
    rate_limit_per_user: state?.rate_limit_per_user ?? 0,
    invitable: state?.invitable ?? false,
  };
}

/** A new thread's fields, each as a change with only its new value. */
export function threadCreateChanges(thread: Channel): AuditChange[] {
  return Object.entries(auditedFields(thread)).map(([key, value]) => ({ key, new_value: value }) as AuditChange);
}

/** The fields an edit changed, with their old and new values. */
export function threadEditChanges(before: Channel, after: Channel): AuditChange[] {
  const old = auditedFields(before);
  return Object.entries(auditedFields(after))
    .filter(([key, value]) => old[key] !== value)
    .map(([key, value]) => ({ key, old_value: old[key], new_value: value }) as AuditChange);
}
