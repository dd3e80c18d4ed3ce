/**
 * On PostgreSQL, a guild's members and threads are read through their tables' indexes: `guilds.id`
 * is COLLATE "C" and the member and thread tables' `guild_id` is not, so comparing the two as they
 * are can use neither index and scans every member of the world for each guild read (a whole-world
 * read was quadratic: 11.6 s at 1,000 guilds of 100 members). Seq scans are priced out here, so a
 * plan that still holds one has no index it could use.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { PostgresStore } from '../src/store/postgres/index.js';
import { MEMBERS_OF_G, THREADS_OF_G } from '../src/store/postgres/guild-documents.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable } from './helpers/postgres.js';

describe('PostgreSQL guild reads use the member and thread indexes', () => {
  const schema = freshSchemaName('slashd_guild_plans');
  let store: PostgresStore;
  let client: pg.Client;

  before(async () => {
    store = await PostgresStore.open({ connectionString: postgresConnectionString, schema }).catch((error: unknown) => {
      throw unreachable(error);
    });
    client = new pg.Client({ connectionString: postgresConnectionString, options: `-c search_path=${schema}` });
    await client.connect();
    await client.query('SET enable_seqscan = off');
  });

  after(async () => {
    await client?.end();
    await store?.close();
    await dropSchema(schema);
  });

  async function plan(sql: string): Promise<string> {
    const result = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  test('every guild with its members and threads (the whole-world read)', async () => {
    const text = await plan(`SELECT g.doc, ${MEMBERS_OF_G} AS members, ${THREADS_OF_G} AS threads FROM guilds g`);
    assert.doesNotMatch(text, /Seq Scan on guild_members/, text);
    assert.doesNotMatch(text, /Seq Scan on guild_threads/, text);
    assert.match(text, /Index (Only )?Scan (using|on) guild_members_\w+/, text);
  });
});
