/**
 * The PostgreSQL store's per-process command and permissions lists, with two stores on one schema
 * standing for two nodes: a write on either is seen by the very next read on the other (no bus, no
 * waiting), every way the lists are written moves their version (planners, deleting a guild or an
 * application, replacing the world, a statement from outside the store), and while nothing is
 * written a read hands back the identical frozen object.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CommandScope, StoredCommand } from '../src/core/commands/model.js';
import type { CommandPermission } from '../src/core/permissions/command-permissions.js';
import { MIGRATIONS, PostgresStore } from '../src/store/postgres/index.js';
import { VersionedLists } from '../src/resources/commands/versioned-lists.postgres.js';
import { MAX_CHECKS_PER_STATEMENT } from '../src/resources/commands/version-checks.postgres.js';
import {
  COMMAND_LISTS_SHARE,
  LIST_BYTES_SHARE,
  type PostgresCommandStore,
} from '../src/resources/commands/store.postgres.js';
import {
  dropSchema,
  freshSchemaName,
  postgresConnectionString,
  unreachable,
  withAdminClient,
} from './helpers/postgres.js';
import { ALICE, APP_A, APP_B, command, GUILD_1, mutation, smallWorld } from './store-contract/fixtures.js';

const GLOBAL_A: CommandScope = { applicationId: APP_A, guildId: null };
const GUILD_A: CommandScope = { applicationId: APP_A, guildId: GUILD_1 };
const ID_1 = '1500000000000000001';
const ID_2 = '1500000000000000002';
const ID_3 = '1500000000000000003';
const ALLOW_ALICE: CommandPermission[] = [{ id: ALICE, type: 2, permission: true }];

describe('PostgreSQL command and permissions lists cached per node', () => {
  const schema = freshSchemaName('slashd_list_cache');
  let a: PostgresStore;
  let b: PostgresStore;

  const open = () => PostgresStore.open({ connectionString: postgresConnectionString, schema, max: 2 });

  before(async () => {
    a = await open().catch((error: unknown) => {
      throw unreachable(error);
    });
    b = await open();
    await a.world.replaceWorld(smallWorld());
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await dropSchema(schema);
  });

  const idsOn = async (store: PostgresStore, scope: CommandScope) =>
    (await store.commands.listCommands(scope)).map((c) => c.id);
  const targetsOn = async (store: PostgresStore) =>
    (await store.commands.listCommandPermissions(APP_A, GUILD_1)).map((p) => p.id);

  test('a command written on one node is listed by the next read on the other', async () => {
    assert.deepEqual(await idsOn(b, GLOBAL_A), []);
    await a.commands.mutateCommands(GLOBAL_A, () => ({
      mutation: mutation({ insert: [command(APP_A, null, ID_1, 'one')] }),
      result: null,
    }));
    assert.deepEqual(await idsOn(b, GLOBAL_A), [ID_1]);
    await b.commands.mutateCommands(GLOBAL_A, () => ({
      mutation: mutation({ insert: [command(APP_A, null, ID_2, 'two')] }),
      result: null,
    }));
    assert.deepEqual(await idsOn(a, GLOBAL_A), [ID_1, ID_2]);
    assert.deepEqual(await idsOn(b, GLOBAL_A), [ID_1, ID_2]);
  });

  test('while nothing is written, a read returns the identical frozen list', async () => {
    const first = await b.commands.listCommands(GLOBAL_A);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]) && Object.isFrozen(first[0]!.definition));
    assert.equal(await b.commands.listCommands(GLOBAL_A), first);
    // A write to another scope, or to another application, leaves this list's version alone.
    await a.commands.mutateCommands(GUILD_A, () => ({
      mutation: mutation({ insert: [command(APP_A, GUILD_1, ID_3, 'three')] }),
      result: null,
    }));
    await a.commands.mutateCommands({ applicationId: APP_B, guildId: null }, () => ({
      mutation: mutation({ insert: [command(APP_B, null, '1500000000000000009', 'other')] }),
      result: null,
    }));
    assert.equal(await b.commands.listCommands(GLOBAL_A), first);
    assert.deepEqual(await idsOn(b, GUILD_A), [ID_3]);
  });

  test('an update and a delete on one node are seen at once on the other', async () => {
    const before = await b.commands.listCommands(GLOBAL_A);
    await a.commands.mutateCommands(GLOBAL_A, (state) => ({
      mutation: mutation({
        update: [{ ...state.commands[0]!, version: 'v2', definition: { ...state.commands[0]!.definition } }],
      }),
      result: null,
    }));
    const updated = await b.commands.listCommands(GLOBAL_A);
    assert.notEqual(updated, before);
    assert.equal(updated[0]!.version, 'v2');
    await a.commands.mutateCommands(GLOBAL_A, () => ({ mutation: mutation({ delete: [ID_2] }), result: null }));
    assert.deepEqual(await idsOn(b, GLOBAL_A), [ID_1]);
  });

  test('permissions written on one node are seen by the next read on the other; unchanged, the same object', async () => {
    assert.deepEqual(await targetsOn(b), []);
    await a.commands.mutateCommandPermissions(APP_A, GUILD_1, ID_1, () => ALLOW_ALICE);
    assert.deepEqual(await targetsOn(b), [ID_1]);
    const held = await b.commands.listCommandPermissions(APP_A, GUILD_1);
    assert.ok(Object.isFrozen(held) && Object.isFrozen(held[0]!.permissions));
    assert.equal(await b.commands.listCommandPermissions(APP_A, GUILD_1), held);
    // Deleting a command drops its permissions, in every guild: the permissions list moves too.
    await a.commands.mutateCommands(GLOBAL_A, () => ({
      mutation: mutation({ delete: [ID_1], dropPermissionsOf: [ID_1] }),
      result: null,
    }));
    assert.deepEqual(await targetsOn(b), []);
  });

  test("the checks of one turn go as one statement, each read answered with its own scope's list", async () => {
    const scopes: CommandScope[] = [GLOBAL_A, GUILD_A, { applicationId: APP_B, guildId: null }];
    const held = await Promise.all(scopes.map((scope) => b.commands.listCommands(scope)));
    await a.commands.mutateCommands(GUILD_A, () => ({
      mutation: mutation({ insert: [command(APP_A, GUILD_1, '1500000000000000004', 'four')] }),
      result: null,
    }));
    let calls = 0;
    b.observe({ call: () => void calls++, changed: () => {} });
    try {
      // Asked in one turn: one statement checks the three held lists; only the one written is read again.
      const read = await Promise.all(scopes.map((scope) => b.commands.listCommands(scope)));
      assert.equal(read[0], held[0], 'the unchanged global list: the same object');
      assert.equal(read[2], held[2], "the other application's list: the same object");
      assert.notEqual(read[1], held[1], 'the written guild list read again');
      assert.deepEqual(
        read[1]!.map((c) => c.id),
        [ID_3, '1500000000000000004'],
      );
      assert.equal(calls, 2, 'one version check for the three, one read of the changed list');
    } finally {
      b.observe({ call: () => {}, changed: () => {} });
    }
    await a.commands.mutateCommands(GUILD_A, () => ({
      mutation: mutation({ delete: ['1500000000000000004'] }),
      result: null,
    }));
  });

  test('more checks in one turn than one statement carries: each statement its share, every answer right', async () => {
    const scopes: CommandScope[] = Array.from({ length: MAX_CHECKS_PER_STATEMENT + 44 }, (_, i) => ({
      applicationId: APP_B,
      guildId: `17000000000000${String(i).padStart(5, '0')}`,
    }));
    const held = await Promise.all(scopes.map((scope) => b.commands.listCommands(scope)));
    let calls = 0;
    b.observe({ call: () => void calls++, changed: () => {} });
    try {
      const read = await Promise.all(scopes.map((scope) => b.commands.listCommands(scope)));
      assert.ok(
        read.every((list, i) => list === held[i]),
        'every unchanged list: the same object',
      );
      assert.equal(calls, 2, `${scopes.length} checks in two statements`);
    } finally {
      b.observe({ call: () => {}, changed: () => {} });
    }
  });

  test('deleting a guild, an application, or a write from outside the store moves the versions', async () => {
    await a.commands.mutateCommandPermissions(APP_A, GUILD_1, ID_3, () => ALLOW_ALICE);
    assert.deepEqual(await targetsOn(b), [ID_3]);
    await a.world.deleteGuild(GUILD_1);
    assert.deepEqual(await targetsOn(b), []);

    assert.deepEqual(await idsOn(b, GUILD_A), [ID_3]);
    await withAdminClient((client) =>
      client.query(`UPDATE "${schema}".commands SET version = 'outside' WHERE id = $1`, [ID_3]),
    );
    assert.equal((await b.commands.listCommands(GUILD_A))[0]!.version, 'outside');

    await a.commands.mutateCommands(GLOBAL_A, () => ({
      mutation: mutation({ insert: [command(APP_A, null, ID_2, 'two')] }),
      result: null,
    }));
    assert.deepEqual(await idsOn(b, GLOBAL_A), [ID_2]);
    await a.world.deleteApplication(APP_A);
    assert.deepEqual(await idsOn(b, GLOBAL_A), []);
    assert.deepEqual(await idsOn(b, GUILD_A), []);
  });
});

describe('PostgreSQL list versions on a schema written before them', () => {
  const schema = freshSchemaName('slashd_list_backfill');
  after(() => dropSchema(schema));

  test('the list-versions migration gives existing lists a version, and later writes move it', async () => {
    // The schema as migration 1 left it, with a command and a permission written then.
    await withAdminClient(async (client) => {
      await client.query(`CREATE SCHEMA "${schema}"; SET search_path = "${schema}"`);
      await client.query(MIGRATIONS[0]!.sql);
      await client.query(`CREATE TABLE schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      await client.query(`INSERT INTO schema_migrations (version, name) VALUES (1, 'first')`);
      const c = command(APP_A, null, ID_1, 'one');
      await client.query(
        `INSERT INTO commands (application_id, guild_key, id, type, name, version, definition)
         VALUES ($1, '', $2, 1, 'one', $3, $4)`,
        [APP_A, ID_1, c.version, JSON.stringify(c.definition)],
      );
      await client.query(
        `INSERT INTO command_permissions (application_id, guild_id, target_id, permissions) VALUES ($1, $2, $3, $4)`,
        [APP_A, GUILD_1, ID_1, JSON.stringify(ALLOW_ALICE)],
      );
    }).catch((error: unknown) => {
      throw unreachable(error);
    });
    const a = await PostgresStore.open({ connectionString: postgresConnectionString, schema, max: 2 });
    const b = await PostgresStore.open({ connectionString: postgresConnectionString, schema, max: 2 });
    try {
      const versions = await withAdminClient(async (client) => [
        (await client.query(`SELECT application_id, guild_key FROM "${schema}".command_list_versions`)).rows,
        (await client.query(`SELECT application_id, guild_id FROM "${schema}".permission_list_versions`)).rows,
      ]);
      assert.deepEqual(versions, [
        [{ application_id: APP_A, guild_key: '' }],
        [{ application_id: APP_A, guild_id: GUILD_1 }],
      ]);
      const list = await b.commands.listCommands(GLOBAL_A);
      assert.deepEqual(
        list.map((c) => c.id),
        [ID_1],
      );
      assert.equal(await b.commands.listCommands(GLOBAL_A), list);
      assert.equal((await b.commands.listCommandPermissions(APP_A, GUILD_1)).length, 1);
      await a.commands.mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({ delete: [ID_1], dropPermissionsOf: [ID_1] }),
        result: null,
      }));
      assert.deepEqual(await b.commands.listCommands(GLOBAL_A), []);
      assert.deepEqual(await b.commands.listCommandPermissions(APP_A, GUILD_1), []);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('VersionedLists', () => {
  test('holds at most its byte bound, dropping the least recently used', () => {
    const lists = new VersionedLists<string>(200);
    lists.remember('a', '1', 'A1', 80);
    lists.remember('b', '2', 'B2', 80);
    assert.deepEqual(lists.lookup('a'), { version: '1', value: 'A1' });
    lists.remember('c', '3', 'C3', 80);
    assert.equal(lists.size, 2);
    assert.equal(lists.bytes, 160);
    assert.equal(lists.lookup('b'), undefined);
    assert.equal(lists.lookup('a')?.value, 'A1');
    lists.remember('a', '4', 'A4', 80);
    assert.deepEqual(lists.lookup('a'), { version: '4', value: 'A4' });
    lists.remember('huge', '5', 'H5', 201);
    assert.equal(lists.lookup('huge'), undefined, 'a list larger than the budget is not held');
    assert.ok(lists.bytes <= 200);
  });
});

describe('PostgreSQL lists cache bounded by bytes (cacheBytes)', () => {
  const schema = freshSchemaName('slashd_list_bytes');
  /** Room for a few small lists, not for many, nor for a big one. */
  const CACHE_BYTES = 160 * 1024;
  let store: PostgresStore;

  before(async () => {
    store = await PostgresStore.open({
      connectionString: postgresConnectionString,
      schema,
      max: 2,
      cacheBytes: CACHE_BYTES,
    }).catch((error: unknown) => {
      throw unreachable(error);
    });
    await store.world.replaceWorld(smallWorld());
  });

  after(async () => {
    await store?.close();
    await dropSchema(schema);
  });

  test('the held lists and answers stay under their shares of the cap; a hit is still the identical list', async () => {
    const longDescription = 'd'.repeat(90);
    const commands = store.commands as PostgresCommandStore;
    const cap = commands.commandLists;
    const answers = commands.listBytes;
    const render = (commands: readonly StoredCommand[]) => Buffer.from(JSON.stringify(commands));
    // 40 applications' global lists of 25 commands each: far more than the cap holds.
    for (let app = 0; app < 40; app++) {
      const applicationId = `11000000000000${String(app).padStart(5, '0')}`;
      const scope: CommandScope = { applicationId, guildId: null };
      await store.commands.mutateCommands(scope, () => ({
        mutation: mutation({
          insert: Array.from({ length: 25 }, (_, i) => {
            const c = command(
              applicationId,
              null,
              `1600000000${String(app).padStart(4, '0')}${String(i).padStart(5, '0')}`,
              `c${i}`,
            );
            return { ...c, definition: { ...c.definition, description: longDescription } };
          }),
        }),
        result: null,
      }));
      await store.commands.listCommands(scope);
      await store.commands.listCommandsRendered(scope, '', render);
      assert.ok(cap.bytes <= CACHE_BYTES * COMMAND_LISTS_SHARE, `held ${cap.bytes} bytes`);
      assert.ok(answers.bytes <= CACHE_BYTES * LIST_BYTES_SHARE, `held ${answers.bytes} bytes of answers`);
    }
    assert.ok(cap.size > 0 && cap.size < 40, `held ${cap.size} lists`);
    assert.ok(answers.size > 0 && answers.size < 40, `held ${answers.size} answers`);
    assert.ok(answers.counts().evictions > 0, 'the answers that did not fit were evicted, and counted');
    const last: CommandScope = { applicationId: '1100000000000000039', guildId: null };
    const first = await store.commands.listCommands(last);
    assert.equal(first.length, 25);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]!.definition));
    assert.equal(await store.commands.listCommands(last), first);
    const bytes = await store.commands.listCommandsRendered(last, '', render);
    assert.equal(await store.commands.listCommandsRendered(last, '', render), bytes);
  });
});
