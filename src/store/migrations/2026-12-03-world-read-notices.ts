/**
 * Notices of changes to the rows the per-node world read caches hold (src/store/postgres/world-read-caches.ts):
 * after each statement writing applications, bot profiles, users, guilds or a guild's stored
 * threads, one `pg_notify` per application, user or guild it touched (`<schema> <a|u|g> <id>`),
 * or one `<schema> *` when it touched more than a few dozen (a whole world replaced). PostgreSQL
 * delivers them to every listening node when the transaction commits (never when it rolls back),
 * whoever wrote. SQLite needs none: its caches see other processes' writes by `data_version`.
 */
import type { DatedMigration } from '../dated-migrations.js';

/** Past this many objects in one statement, one notice says "everything". */
const MOST_NAMED = 64;

/** table, the notice's kind, and the column naming the object. */
const NOTICED: readonly (readonly [string, 'a' | 'u' | 'g', string])[] = [
  ['applications', 'a', 'id'],
  ['bot_profiles', 'a', 'application_id'],
  ['users', 'u', 'id'],
  ['guilds', 'g', 'id'],
  ['guild_threads', 'g', 'guild_id'],
  ['thread_members', 'g', 'guild_id'],
];

const FUNCTION = `
  CREATE FUNCTION notify_world_reads() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
  DECLARE ids text[];
  BEGIN
    IF TG_OP = 'INSERT' THEN
      EXECUTE format('SELECT array_agg(DISTINCT %I::text) FROM new_rows', TG_ARGV[1]) INTO ids;
    ELSIF TG_OP = 'DELETE' THEN
      EXECUTE format('SELECT array_agg(DISTINCT %I::text) FROM old_rows', TG_ARGV[1]) INTO ids;
    ELSE
      EXECUTE format('SELECT array_agg(DISTINCT k) FROM (SELECT %1$I::text AS k FROM old_rows
                      UNION SELECT %1$I::text FROM new_rows) s', TG_ARGV[1]) INTO ids;
    END IF;
    IF ids IS NULL THEN RETURN NULL; END IF;
    IF cardinality(ids) > ${MOST_NAMED} THEN
      PERFORM pg_notify('slashd_world_reads', current_schema() || ' *');
    ELSE
      PERFORM pg_notify('slashd_world_reads', current_schema() || ' ' || TG_ARGV[0] || ' ' || id) FROM unnest(ids) id;
    END IF;
    RETURN NULL;
  END $$;`;

function triggersOf(table: string, kind: string, column: string): string {
  const args = `'${kind}', '${column}'`;
  return `
  CREATE TRIGGER ${table}_inserted_notify AFTER INSERT ON ${table}
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_world_reads(${args});
  CREATE TRIGGER ${table}_updated_notify AFTER UPDATE ON ${table}
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_world_reads(${args});
  CREATE TRIGGER ${table}_deleted_notify AFTER DELETE ON ${table}
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_world_reads(${args});
  CREATE TRIGGER ${table}_truncated_notify AFTER TRUNCATE ON ${table}
    FOR EACH STATEMENT EXECUTE FUNCTION notify_world_truncated();`;
}

const TRUNCATED = `
  CREATE FUNCTION notify_world_truncated() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $$
  BEGIN PERFORM pg_notify('slashd_world_reads', current_schema() || ' *'); RETURN NULL; END $$;`;

export const worldReadNotices: DatedMigration = {
  name: '2026-12-03-world-read-notices',
  sqlite: null,
  postgres: [FUNCTION, TRUNCATED, ...NOTICED.map(([table, kind, column]) => triggersOf(table, kind, column))].join(
    '\n',
  ),
};
