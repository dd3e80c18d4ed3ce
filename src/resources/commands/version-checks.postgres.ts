/**
 * The version checks of held lists, gathered: every list read that holds a copy asks its scope's
 * version, and the checks asked within one turn of the event loop go to PostgreSQL as one
 * statement on one connection. Under load (many requests parsed in one turn) a node sends one
 * query for many requests instead of one each: one socket write, one wake of one backend, one
 * result parsed. Each check is still sent after it was asked, so a write committed on any node
 * before a request began is seen by it, as with a query of its own.
 */
import type { PostgresConnection } from '../../store/postgres/connection.js';

/** The most checks one statement carries: more asked in one turn go in further statements. */
export const MAX_CHECKS_PER_STATEMENT = 256;

/** The table of a kind of list's versions, and the column naming its scope beside the application. */
export interface VersionTable {
  /** The prepared statement's name. */
  name: string;
  table: 'command_list_versions' | 'permission_list_versions';
  scopeColumn: 'guild_key' | 'guild_id';
}

interface Check {
  applicationId: string;
  scope: string;
  waiters: { resolve: (version: string) => void; reject: (error: unknown) => void }[];
}

export class VersionChecks {
  private readonly statement: { name: string; text: string };
  /** The checks asked this turn, by application and scope (one per scope, however many ask). */
  private asked: Map<string, Check> | null = null;

  constructor(
    private readonly conn: PostgresConnection,
    table: VersionTable,
  ) {
    this.statement = {
      name: table.name,
      text: `
        SELECT k.i::int AS i, COALESCE(v.version, 0)::text AS version
        FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(application_id, scope, i)
        LEFT JOIN ${table.table} v ON v.application_id = k.application_id AND v.${table.scopeColumn} = k.scope`,
    };
  }

  /** The scope's list version now (0: never written), asked with this turn's other checks. */
  versionOf(applicationId: string, scope: string): Promise<string> {
    if (this.asked === null) {
      this.asked = new Map();
      setImmediate(() => this.send());
    }
    const key = `${applicationId}/${scope}`;
    let check = this.asked.get(key);
    if (check === undefined) {
      check = { applicationId, scope, waiters: [] };
      this.asked.set(key, check);
    }
    const waiters = check.waiters;
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  private send(): void {
    const checks = [...(this.asked?.values() ?? [])];
    this.asked = null;
    for (let from = 0; from < checks.length; from += MAX_CHECKS_PER_STATEMENT) {
      void this.sendOne(checks.slice(from, from + MAX_CHECKS_PER_STATEMENT));
    }
  }

  private async sendOne(checks: Check[]): Promise<void> {
    try {
      const result = await this.conn.pool.query<{ i: number; version: string }>({
        ...this.statement,
        values: [checks.map((c) => c.applicationId), checks.map((c) => c.scope)],
      });
      const versions = new Map(result.rows.map((row) => [row.i, row.version]));
      checks.forEach((check, index) => {
        const version = versions.get(index + 1);
        for (const waiter of check.waiters) {
          if (version === undefined) waiter.reject(new Error('a list version check came back without its row'));
          else waiter.resolve(version);
        }
      });
    } catch (error) {
      for (const check of checks) for (const waiter of check.waiters) waiter.reject(error);
    }
  }
}
