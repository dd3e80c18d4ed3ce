/** The SQLite SnapshotStore: copies of the state tables in the same database, restored in one transaction. */
import {
  byNumericId,
  quoted,
  restoreStatements,
  snapshotTable,
  tableLayout,
  type SnapshotStore,
  type TableColumns,
  type TableLayout,
} from './store.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';

export class SqliteSnapshotStore implements SnapshotStore {
  constructor(private readonly conn: SqliteConnection) {}

  private layout(): TableLayout {
    const rows = this.conn
      .sql(
        `SELECT m.name AS tableName, p.name AS columnName FROM sqlite_master AS m, pragma_table_info(m.name) AS p
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.name, p.cid`,
      )
      .all() as { tableName: string; columnName: string }[];
    const tables = new Map<string, TableColumns>();
    for (const row of rows) {
      const table = tables.get(row.tableName) ?? { name: row.tableName, columns: [] };
      table.columns.push(row.columnName);
      tables.set(row.tableName, table);
    }
    return tableLayout([...tables.values()]);
  }

  private dropCopies(layout: TableLayout, id: string): boolean {
    const copies = layout.snapshots.get(id);
    for (const copy of copies?.values() ?? []) this.conn.db.exec(`DROP TABLE ${quoted(copy.name)}`);
    return copies !== undefined;
  }

  async saveSnapshot(id: string): Promise<void> {
    this.conn.transaction(() => {
      const layout = this.layout();
      this.dropCopies(layout, id);
      for (const table of layout.state) {
        this.conn.db.exec(
          `CREATE TABLE ${quoted(snapshotTable(id, table.name))} AS SELECT * FROM ${quoted(table.name)}`,
        );
      }
    });
  }

  async restoreSnapshot(id: string): Promise<boolean> {
    snapshotTable(id, '');
    const restored = this.conn.transaction(() => {
      const layout = this.layout();
      const copies = layout.snapshots.get(id);
      if (!copies) return false;
      // Not kept prepared: the texts name the snapshot, and snapshots come and go.
      this.conn.db.exec(restoreStatements(layout.state, copies).join(';\n'));
      return true;
    });
    // This connection's own writes do not move data_version: its caches are dropped here.
    if (restored) this.conn.cached.clear();
    return restored;
  }

  async deleteSnapshot(id: string): Promise<boolean> {
    snapshotTable(id, '');
    return this.conn.transaction(() => this.dropCopies(this.layout(), id));
  }

  async listSnapshots(): Promise<string[]> {
    return [...this.layout().snapshots.keys()].sort(byNumericId);
  }

  async clearState(): Promise<void> {
    this.conn.transaction(() => {
      for (const table of this.layout().state) this.conn.sql(`DELETE FROM ${quoted(table.name)}`).run();
    });
    this.conn.cached.clear();
  }
}
