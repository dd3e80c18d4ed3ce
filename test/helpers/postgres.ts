/**
 * The PostgreSQL the tests run against (PGHOST, PGPORT, PGUSER, PGDATABASE; default 127.0.0.1:5432,
 * user postgres, database test), and a fresh schema per use so parallel runs never collide.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const env = process.env;
const host = env['PGHOST'] ?? '127.0.0.1';
const port = env['PGPORT'] ?? '5432';
const user = env['PGUSER'] ?? 'postgres';
const database = env['PGDATABASE'] ?? 'test';

export const postgresConnectionString = `postgresql://${encodeURIComponent(user)}@${host}:${port}/${encodeURIComponent(database)}`;

/** Where the test PostgreSQL listens (for a proxy in front of it). */
export const postgresTarget = { host, port: Number(port) };

/** The test database's URL through another port on the loopback interface (a proxy's). */
export function postgresUrlVia(proxyPort: number): string {
  return `postgresql://${encodeURIComponent(user)}@127.0.0.1:${proxyPort}/${encodeURIComponent(database)}`;
}

/** A schema name no other run uses. */
export function freshSchemaName(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** The error a test fails with when the server cannot be reached: it says where and how to point elsewhere. */
export function unreachable(error: unknown): Error {
  return new Error(
    `PostgreSQL is not reachable at ${host}:${port} (database ${database}, user ${user}); ` +
      `the PostgreSQL store tests need it (set PGHOST/PGPORT/PGUSER/PGDATABASE): ${String(error)}`,
    { cause: error },
  );
}

/** Runs `work` on a plain client outside any store (inspecting or dropping a schema). */
export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresConnectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await withAdminClient((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}
