/**
 * A node's planners of one scope queue in-process before they take a pooled connection: with that
 * scope's lock held elsewhere (another node's planner, here a plain client), 20 bulk overwrites of
 * it leave one connection waiting on the lock and the rest of the pool free, so other scopes'
 * reads still answer. Once the lock is let go every overwrite runs, and the list is one of them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CommandScope } from '../src/core/commands/model.js';
import { PLANNER_LOCK_TIMEOUT_MS, type PostgresCommandStore } from '../src/resources/commands/store.postgres.js';
import { PostgresStore } from '../src/store/postgres/index.js';
import { ScopeQueue } from '../src/resources/commands/scope-queue.postgres.js';
import {
  dropSchema,
  freshSchemaName,
  postgresConnectionString,
  unreachable,
  withAdminClient,
} from './helpers/postgres.js';
import { APP_A, command, GUILD_1, mutation, smallWorld } from './store-contract/fixtures.js';

const HAMMERED: CommandScope = { applicationId: APP_A, guildId: null };
const OTHER: CommandScope = { applicationId: APP_A, guildId: GUILD_1 };
const WRITERS = 20;
/** PostgreSQL's lock_not_available, which a lock_timeout raises. */
const LOCK_NOT_AVAILABLE = '55P03';
/** Bounds every wait below: reaching it fails the test, it is never what makes it pass. */
const DEADLINE_MS = 20_000;

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + DEADLINE_MS;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PostgreSQL planners queued per scope', () => {
  const schema = freshSchemaName('slashd_scope_queue');
  let store: PostgresStore;

  before(async () => {
    store = await PostgresStore.open({
      connectionString: postgresConnectionString,
      schema,
      max: 3,
      connectTimeoutMs: 3_000,
    }).catch((error: unknown) => {
      throw unreachable(error);
    });
    await store.world.replaceWorld(smallWorld());
  });

  after(async () => {
    await store?.close();
    await dropSchema(schema);
  });

  test('20 overwrites of a locked scope hold one connection; other scopes still answer', async () => {
    const lockKey = `${schema}/${APP_A}/0`;
    await withAdminClient(async (holder) => {
      await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
      const ids = Array.from({ length: WRITERS }, (_, i) => `15000000000000001${String(i).padStart(2, '0')}`);
      const writes = ids.map((id, i) =>
        store.commands.mutateCommands(HAMMERED, ({ commands }) => ({
          mutation: mutation({ delete: commands.map((c) => c.id), insert: [command(APP_A, null, id, `bulk-${i}`)] }),
          result: null,
        })),
      );
      try {
        const waiting = () =>
          holder
            .query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
               AND (classid::bigint << 32 | objid::bigint) = hashtextextended($1, 0)`,
              [lockKey],
            )
            .then((r) => r.rows[0]!.n);
        await until('a planner waiting on the scope lock', async () => (await waiting()) >= 1);
        // Other scopes answer while the hammered one is locked, without queuing for a connection.
        for (let i = 0; i < 5; i++) {
          assert.deepEqual(await store.commands.listCommands(OTHER), []);
          assert.deepEqual(await store.commands.listCommandPermissions(APP_A, GUILD_1), []);
        }
        assert.equal(await waiting(), 1, 'one connection of this node waits on the scope lock');
        assert.equal(store.poolStats().waiting, 0);
        assert.equal((store.commands as PostgresCommandStore).scopeQueue.size, 1);
      } finally {
        await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]);
      }
      await Promise.all(writes);
    });
    const final = await store.commands.listCommands(HAMMERED);
    assert.equal(final.length, 1);
    assert.ok(ids(final[0]!.id), `the list is one of the overwrites: ${final[0]!.id}`);
    assert.equal((store.commands as PostgresCommandStore).scopeQueue.size, 0, 'an idle scope leaves no entry');
  });

  test('a planner gives up on a scope lock held too long (lock_timeout), and its connection is free again', async () => {
    const lockKey = `${schema}/${APP_A}/${GUILD_1}`;
    await withAdminClient(async (holder) => {
      await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
      try {
        const started = Date.now();
        await assert.rejects(
          store.commands.mutateCommands(OTHER, () => ({ mutation: mutation({}), result: null })),
          (error: unknown) => (error as { code?: string }).code === LOCK_NOT_AVAILABLE,
        );
        assert.ok(Date.now() - started >= PLANNER_LOCK_TIMEOUT_MS - 100, 'not before the lock timeout');
      } finally {
        await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]);
      }
    });
    assert.equal(store.poolStats().total - store.poolStats().idle, 0);
    assert.deepEqual(await store.commands.listCommands(OTHER), []);
  });
});

function ids(id: string): boolean {
  return /^15000000000000001\d\d$/.test(id) && Number(id.slice(-2)) < WRITERS;
}

describe('ScopeQueue', () => {
  test('runs one key in arrival order, other keys alongside, and forgets idle keys', async () => {
    const queue = new ScopeQueue();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = queue.run('a', () =>
      new Promise<void>((resolve) => (releaseFirst = resolve)).then(() => order.push('a1')),
    );
    const second = queue.run('a', async () => order.push('a2'));
    const failing = assert.rejects(
      queue.run('a', () => Promise.reject(new Error('planner failed'))),
      /planner failed/,
    );
    const third = queue.run('a', async () => order.push('a3'));
    await queue.run('b', async () => order.push('b1'));
    assert.deepEqual(order, ['b1']);
    assert.equal(queue.size, 1);
    releaseFirst();
    await Promise.all([first, second, third]);
    await failing;
    assert.deepEqual(order, ['b1', 'a1', 'a2', 'a3']);
    assert.equal(queue.size, 0);
  });
});
