/**
 * On PostgreSQL, the invoking users' status reads (GET /interactions/{id}) hold at most
 * STATUS_READ_CONNECTIONS pooled connections at once, however many poll together: the rest of
 * the pool stays free for delivery and answers, which go on while the polls queue.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PostgresStore } from '../src/store/postgres/index.js';
import { PostgresConnection } from '../src/store/postgres/connection.js';
import { PostgresInteractionStore, STATUS_READ_CONNECTIONS } from '../src/resources/interactions/store.postgres.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable } from './helpers/postgres.js';
import { ALICE, APP_A, interaction } from './store-contract/fixtures.js';

const INTERACTION = '1800000000000000001';
const OTHER = '1800000000000000002';
/** Polls at once: far more than the status reads' connections. */
const POLLS = 12;

describe('PostgreSQL status reads on a budget of their own', () => {
  const schema = freshSchemaName('slashd_status_reads');
  let store: PostgresStore;
  let conn: PostgresConnection;
  let interactions: PostgresInteractionStore;

  before(async () => {
    store = await PostgresStore.open({ connectionString: postgresConnectionString, schema }).catch((error: unknown) => {
      throw unreachable(error);
    });
    conn = new PostgresConnection({ connectionString: postgresConnectionString, schema, max: 6 }, Date.now);
    interactions = new PostgresInteractionStore(conn);
    await interactions.putInteraction(interaction(APP_A, INTERACTION, ALICE));
  });

  after(async () => {
    await conn?.end();
    await store?.close();
    await dropSchema(schema);
  });

  test(`${POLLS} polls at once hold ${STATUS_READ_CONNECTIONS} connections, and a write goes through beside them`, async () => {
    let running = 0;
    let statusReads = 0;
    let mostStatusReads = 0;
    let statusStarted = 0;
    let statusStartedAtWrite = -1;
    const query = conn.pool.query.bind(conn.pool) as (...args: unknown[]) => Promise<unknown>;
    conn.pool.query = (async (...args: unknown[]) => {
      const status = String(args[0]).startsWith('SELECT doc FROM interactions WHERE user_id');
      running++;
      if (status) {
        statusStarted++;
        mostStatusReads = Math.max(mostStatusReads, ++statusReads);
      } else if (String(args[0]).startsWith('INSERT INTO interactions')) statusStartedAtWrite = statusStarted;
      try {
        return await query(...args);
      } finally {
        running--;
        if (status) statusReads--;
      }
    }) as typeof conn.pool.query;
    try {
      const polls = Array.from({ length: POLLS }, () => interactions.findUserInteractionStatus(ALICE, INTERACTION));
      // Issued after every poll: it does not queue behind them.
      const write = interactions.putInteraction(interaction(APP_A, OTHER, ALICE));
      const states = (await Promise.all(polls)).map((status) => status?.state);
      await write;
      assert.deepEqual(states, Array<string>(POLLS).fill('pending'));
      assert.equal(mostStatusReads, STATUS_READ_CONNECTIONS);
      assert.equal(statusStartedAtWrite, STATUS_READ_CONNECTIONS, 'the write started while the other polls waited');
      assert.equal(running, 0);
      assert.equal((await interactions.getInteraction(APP_A, OTHER))?.user_id, ALICE);
    } finally {
      conn.pool.query = query as typeof conn.pool.query;
    }
  });
});
