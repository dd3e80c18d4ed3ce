/** Which `--db` values name a PostgreSQL database, and how one is shown without its password. */

/** `postgres://` and `postgresql://` URLs (libpq's two spellings); anything else is a SQLite path. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(db);
}

/** Query parameters pg reads secrets from (a password, or the client key and its passphrase). */
const SECRET_QUERY_PARAMS = ['password', 'sslpassword', 'sslkey'] as const;

/** The URL with its password (in the authority or the query) replaced, for messages and logs. */
export function redactPostgresUrl(db: string): string {
  try {
    const url = new URL(db);
    if (url.password) url.password = '***';
    for (const name of [...url.searchParams.keys()]) {
      if (SECRET_QUERY_PARAMS.some((secret) => secret === name.toLowerCase())) url.searchParams.set(name, '***');
    }
    return url.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
