/** The PostgreSQL the benchmarks run against (the tests' settings: PGHOST, PGPORT, PGUSER, PGDATABASE). */
import { PostgresStore } from '../src/store/postgres/index.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../test/helpers/postgres.js';

export { dropSchema, freshSchemaName, postgresConnectionString };

/** Opens (and migrates) a store on `schema`, with a pool large enough for a benchmark's load. */
export function openBenchStore(schema: string, max = 4, cacheBytes?: number): Promise<PostgresStore> {
  return PostgresStore.open({ connectionString: postgresConnectionString, schema, max, cacheBytes });
}
