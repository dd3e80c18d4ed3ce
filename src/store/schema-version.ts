/**
 * The schema version guard both stores share: a database migrated by a newer slashd has tables an
 * older one does not know, and writing to it could lose what the newer one keeps there, so an
 * older binary refuses to start on it (docs/operations.md, "Upgrading and rolling back").
 */

/** The database's schema is newer than this slashd's newest migration. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database schema is at version ${found}, newer than this slashd knows (${known}): ` +
        'run the slashd release that migrated it, or restore the backup taken before that upgrade',
    );
    this.name = 'SchemaTooNewError';
  }
}

/** Throws `SchemaTooNewError` when the schema found is past the newest migration known. */
export function checkSchemaVersion(found: number, known: number): void {
  if (found > known) throw new SchemaTooNewError(found, known);
}

/** What opening a database did to its schema. */
export interface MigrationReport {
  /** The schema version before (0: a new database). */
  readonly before: number;
  /** The schema version after. */
  readonly after: number;
  /** The versions this process applied, in order (empty: it was already current). */
  readonly applied: readonly number[];
}

/** `7-9`, `3, 5-6`: the versions as runs of consecutive numbers. */
function runsOf(versions: readonly number[]): string {
  const runs: string[] = [];
  let start = versions[0];
  for (let index = 0; start !== undefined; index++) {
    const current = versions[index]!;
    const next = versions[index + 1];
    if (next === current + 1) continue;
    runs.push(start === current ? `${start}` : `${start}-${current}`);
    start = next;
  }
  return runs.join(', ');
}

/** One line for the operator: which migrations were applied, or that there was nothing to apply. */
export function describeMigration(report: MigrationReport): string {
  if (report.applied.length === 0) return `schema already at version ${report.after}, nothing to apply`;
  const plural = report.applied.length === 1 ? 'migration' : 'migrations';
  return `applied ${plural} ${runsOf(report.applied)} (schema version ${report.before} to ${report.after})`;
}
