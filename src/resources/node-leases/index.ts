/** Node id leases: which snowflake worker id each node holds (its store only; the node takes one at start). */
import { defineResource } from '../resource.js';
import { SqliteNodeLeaseStore } from './store.sqlite.js';
import { PostgresNodeLeaseStore } from './store.postgres.js';

export const nodeLeasesResource = defineResource({
  name: 'node-leases',
  stores: {
    leases: {
      sqlite: ({ conn }) => new SqliteNodeLeaseStore(conn),
      postgres: ({ conn }) => new PostgresNodeLeaseStore(conn),
    },
  },
});
