/**
 * The PostgreSQL SnapshotStore: copies of the state tables in the store's schema. Every change is
 * one multi-statement query, which PostgreSQL runs as one transaction; the triggers of the
 * command and permission lists fire on the restore's writes, so every node's cached lists see it.
 */
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
import type { PostgresConnection } from '../../store/postgres/connection.js';

export class PostgresSnapshotStore implements SnapshotStore {
  constructor(private readonly conn: PostgresConnection) {}

  private async layout(): Promise<TableLayout> {
    const result = await this.conn.pool.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns AS c
       JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       ORDER BY c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, TableColumns>();
    for (const row of result.rows) {
      const table = tables.get(row.table_name) ?? { name: row.table_name, columns: [] };
      table.columns.push(row.column_name);
      tables.set(row.table_name, table);
    }
    return tableLayout([...tables.values()]);
  }

  /** Runs the statements as one transaction (one round trip); none: nothing sent. */
  private async runAll(statements: string[]): Promise<void> {
    if (statements.length > 0) await this.conn.pool.query(statements.join(';\n'));
  }

  private drops(layout: TableLayout, id: string): string[] {
    return [...(layout.snapshots.get(id)?.values() ?? [])].map((copy) => `DROP TABLE ${quoted(copy.name)}`);
  }

  async saveSnapshot(id: string): Promise<void> {
    snapshotTable(id, '');
    const layout = await this.layout();
    await this.runAll([
      ...this.drops(layout, id),
      ...layout.state.map(
        (table) => `CREATE TABLE ${quoted(snapshotTable(id, table.name))} AS SELECT * FROM ${quoted(table.name)}`,
      ),
    ]);
  }

  async restoreSnapshot(id: string): Promise<boolean> {
    snapshotTable(id, '');
    const layout = await this.layout();
    const copies = layout.snapshots.get(id);
    if (!copies) return false;
    await this.runAll(restoreStatements(layout.state, copies));
    return true;
  }

  async deleteSnapshot(id: string): Promise<boolean> {
    snapshotTable(id, '');
    const layout = await this.layout();
    if (!layout.snapshots.has(id)) return false;
    await this.runAll(this.drops(layout, id));
    return true;
  }

  async listSnapshots(): Promise<string[]> {
    return [...(await this.layout()).snapshots.keys()].sort(byNumericId);
  }

  async clearState(): Promise<void> {
    const layout = await this.layout();
    await this.runAll(layout.state.map((table) => `DELETE FROM ${quoted(table.name)}`));
  }
}
