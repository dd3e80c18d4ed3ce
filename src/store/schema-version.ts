/**
 * The schema version guard both stores share: a database migrated by a newer slashd has tables an
 * older one does not know, and writing to it could lose what the newer one keeps there, so an
 * older binary refuses to start on it (docs/operations.md, "Upgrading and rolling back"). Past the
 * numbered baseline, a newer slashd's dated migrations (`dated-migrations.ts`) tell it the same way.
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

/** The database holds dated migrations this slashd does not know: a newer slashd applied them. */
export class UnknownMigrationsError extends SchemaTooNewError {
  constructor(
    readonly names: readonly string[],
    version: number,
  ) {
    super(version, version);
    this.message =
      `the database schema has migrations newer than this slashd knows (${names.join(', ')}): ` +
      'run the slashd release that migrated it, or restore the backup taken before that upgrade';
  }
}

/** Throws `UnknownMigrationsError` when the database records dated migrations this slashd does not know. */
export function checkDatedMigrations(unknown: readonly string[], version: number): void {
  if (unknown.length > 0) throw new UnknownMigrationsError(unknown, version);
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
  /** The numbered versions this process applied, in order (empty: it was already current). */
  readonly applied: readonly number[];
  /** The dated migrations this process applied, by name, in order (absent or empty: none). */
  readonly dated?: readonly string[];
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

/**
 * The lines for the operator: the numbered migrations applied (as runs), then each dated one by
 * name, or that there was nothing to apply.
 */
export function migrationLines(report: MigrationReport): string[] {
  const lines: string[] = [];
  const plural = (versions: readonly number[]) => (versions.length === 1 ? 'migration' : 'migrations');
  // A migration numbered below the version found was merged after later ones shipped: named apart,
  // so the line about the version's move never hides it.
  const newer = report.applied.filter((version) => version > report.before);
  const missing = report.applied.filter((version) => version <= report.before);
  if (newer.length > 0) {
    lines.push(`applied ${plural(newer)} ${runsOf(newer)} (schema version ${report.before} to ${report.after})`);
  }
  if (missing.length > 0) {
    lines.push(`applied ${plural(missing)} ${runsOf(missing)}, missing below schema version ${report.before}`);
  }
  for (const name of report.dated ?? []) lines.push(`applied migration ${name}`);
  if (lines.length === 0) lines.push(`schema already at version ${report.after}, nothing to apply`);
  return lines;
}

/** What opening did, as one text: `migrationLines`, one a line. */
export function describeMigration(report: MigrationReport): string {
  return migrationLines(report).join('\n');
}
