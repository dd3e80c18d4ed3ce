/**
 * Snapshots of the whole state (world, commands, permissions, interactions, messages, daily
 * create counts), for tests: take one, change anything, and restore it in one transaction. Each
 * implementation copies its tables into tables of the same database named by `snapshotTable`, so
 * a snapshot is seen by every process on the database and a table added by a later migration is
 * included without a change here. What belongs to the running process rather than the state (node
 * leases, the schema version and its dated migrations, the PostgreSQL list versions) is never
 * copied nor rolled back.
 */

/** What every snapshot table's name starts with: state tables never do. */
export const SNAPSHOT_TABLE_PREFIX = 'snapshot_';

/** Tables that are not state: a restore leaves them as they are. */
export const UNSNAPSHOTTED_TABLES: ReadonlySet<string> = new Set([
  'schema_migrations',
  'schema_dated_migrations',
  'node_leases',
  // The key of attachment URLs: a restore or reset must not turn every URL given out invalid.
  'attachment_url_keys',
  // PostgreSQL: versions only move forward (triggers bump them when a restore rewrites the lists).
  'command_list_versions',
  'permission_list_versions',
]);

/** A snapshot id: digits only (a snowflake, or 0 for the start-up snapshot), so it is safe in a table name. */
export const SNAPSHOT_ID = /^(0|[1-9][0-9]{0,19})$/;

export function snapshotTable(id: string, table: string): string {
  if (!SNAPSHOT_ID.test(id)) throw new Error(`invalid snapshot id: ${id}`);
  return `${SNAPSHOT_TABLE_PREFIX}${id}_${table}`;
}

/** Snowflakes (and 0) in numeric order: by length, then text. */
export function byNumericId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

const SNAPSHOT_TABLE_NAME = /^snapshot_(0|[1-9][0-9]{0,19})_(.+)$/;

/** A table of the database: its name and columns, in order. */
export interface TableColumns {
  name: string;
  columns: string[];
}

/** The database's tables sorted into state tables and each snapshot's copies of them. */
export interface TableLayout {
  state: TableColumns[];
  snapshots: Map<string, Map<string, TableColumns>>;
}

export function tableLayout(tables: readonly TableColumns[]): TableLayout {
  const layout: TableLayout = { state: [], snapshots: new Map() };
  for (const table of tables) {
    const match = SNAPSHOT_TABLE_NAME.exec(table.name);
    if (match) {
      const copies = layout.snapshots.get(match[1]!) ?? new Map<string, TableColumns>();
      copies.set(match[2]!, table);
      layout.snapshots.set(match[1]!, copies);
    } else if (!UNSNAPSHOTTED_TABLES.has(table.name) && !table.name.startsWith(SNAPSHOT_TABLE_PREFIX)) {
      layout.state.push(table);
    }
  }
  return layout;
}

/** A double-quoted SQL identifier (both databases quote alike). */
export function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/**
 * The statements that make each state table hold exactly its copy in `copies`: emptied, then
 * filled with the columns both have (a table the snapshot lacks stays empty; a column added
 * since then takes its default).
 */
export function restoreStatements(state: readonly TableColumns[], copies: Map<string, TableColumns>): string[] {
  const statements: string[] = [];
  for (const table of state) {
    statements.push(`DELETE FROM ${quoted(table.name)}`);
    const copy = copies.get(table.name);
    if (!copy) continue;
    const shared = table.columns.filter((column) => copy.columns.includes(column)).map(quoted);
    if (shared.length === 0) continue;
    statements.push(
      `INSERT INTO ${quoted(table.name)} (${shared.join(', ')}) SELECT ${shared.join(', ')} FROM ${quoted(copy.name)}`,
    );
  }
  return statements;
}

export interface SnapshotStore {
  /** Copies every state table into snapshot `id` (digits, see SNAPSHOT_ID), in one transaction; an existing one of that id is replaced. */
  saveSnapshot(id: string): Promise<void>;
  /** The state becomes exactly snapshot `id`'s, in one transaction; false (nothing changed) when there is none. */
  restoreSnapshot(id: string): Promise<boolean>;
  /** False when there is no such snapshot. */
  deleteSnapshot(id: string): Promise<boolean>;
  /** The ids of the snapshots held, ascending. */
  listSnapshots(): Promise<string[]>;
  /** Empties every state table, in one transaction (then a world can be imported onto nothing). */
  clearState(): Promise<void>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Snapshots of the whole state, for tests (restore, reset). */
    readonly snapshots: SnapshotStore;
  }
}
