/** Which `--db` values name a PostgreSQL database, and how one is shown without its password. */

/** `postgres://` and `postgresql://` URLs (libpq's two spellings); anything else is a SQLite path. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(db);
}

/** The URL with its password replaced, for messages and logs. */
export function redactPostgresUrl(db: string): string {
  try {
    const url = new URL(db);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
