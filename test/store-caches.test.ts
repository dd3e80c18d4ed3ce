/** The store's read caches stay true when another process writes the same SQLite file. */
import { splitCacheBudget } from '../src/resources/command-index/cache.js';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSlashd } from '../src/app.js';
import { runServe } from '../src/cli/serve.js';
import { planCreate, planDelete } from '../src/resources/commands/rules/plans.js';
import { DICTIONARIES, LIST_ANSWER_FORMAT, listAnswerBytes, NO_LOCALE } from '../src/resources/commands/rules/wire.js';
import { SnowflakeGenerator } from '../src/core/snowflake.js';
import { validateCreateCommand } from '../src/core/validation/index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_ID, BOB_ID, BOT, DEMO_APP_ID, exampleWorld, TEST_GUILD_ID } from './helpers/world.js';

describe('read caches across connections', () => {
  let dir: string;
  let first: SqliteStore;
  let second: SqliteStore;
  const scope = { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID };
  const ids = new SnowflakeGenerator(1, 1);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-caches-'));
    // No staleness window: every read asks SQLite whether another connection has written.
    first = new SqliteStore({ path: join(dir, 'db.sqlite'), readStalenessMs: 0 });
    second = new SqliteStore({ path: join(dir, 'db.sqlite'), readStalenessMs: 0 });
    await first.world.replaceWorld(exampleWorld());
  });
  after(async () => {
    await first.close();
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function create(store: SqliteStore, name: string) {
    const parsed = validateCreateCommand(
      { name, description: 'x' },
      { scope: 'guild', app: { flags: 0, integration_types: [0], discoverable: false } },
    );
    assert.ok(parsed.ok);
    return store.commands.mutateCommands(scope, (state) =>
      planCreate({ scope, nextId: () => ids.next(), now: Date.now() }, state, parsed.value),
    );
  }

  it('a list cached by one connection shows the other connection’s writes', async () => {
    assert.deepEqual(await second.commands.listCommands(scope), []);
    const before = await second.commands.listCommands(scope);
    assert.equal(before, await second.commands.listCommands(scope), 'served from the cache while nothing changes');
    await create(first, 'from-first');
    const after = await second.commands.listCommands(scope);
    assert.deepEqual(
      after.map((c) => c.definition.name),
      ['from-first'],
    );
    assert.ok(Object.isFrozen(after), 'cached lists are frozen');
  });

  it('plans always read fresh, whatever the staleness allowed to plain reads', async () => {
    const lax = new SqliteStore({ path: join(dir, 'db.sqlite'), readStalenessMs: 60_000 });
    try {
      await lax.commands.listCommands(scope);
      await create(first, 'seen-by-plans');
      const { created } = await create(lax, 'seen-by-plans');
      assert.equal(created, false, 'the planner saw the other connection’s command');
      await first.commands.mutateCommands(scope, (state) =>
        planDelete(state, state.commands.find((c) => c.definition.name === 'seen-by-plans')!.id),
      );
    } finally {
      await lax.close();
    }
  });

  it('plans in one connection see commands the other created', async () => {
    const { created } = await create(second, 'from-first');
    assert.equal(created, false, 'an upsert of the same name, not a second command');
    const gone = (await first.commands.listCommands(scope))[0]!;
    await second.commands.mutateCommands(scope, (state) => planDelete(state, gone.id));
    assert.deepEqual(await first.commands.listCommands(scope), []);
  });

  it('guilds and applications are re-read after another connection changes them', async () => {
    const guild = (await first.world.getGuild(TEST_GUILD_ID))!;
    await second.world.putGuild({ ...guild, name: 'Renamed' });
    assert.equal((await first.world.getGuild(TEST_GUILD_ID))!.name, 'Renamed');
    const app = (await first.world.findApplicationByBotToken('demo-bot-token-please-change'))!;
    const { keys: _keys, ...plain } = app;
    await second.world.putApplication({ ...plain, name: 'Renamed Bot' });
    assert.equal((await first.world.findApplicationByBotToken('demo-bot-token-please-change'))!.name, 'Renamed Bot');
  });
});

describe('list answers stored in the SQLite file', () => {
  let dir: string;
  let path: string;
  const scope = { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID };
  const ids = new SnowflakeGenerator(1, 2);
  const named = (name: string) => {
    const parsed = validateCreateCommand(
      { name, description: 'x' },
      { scope: 'guild', app: { flags: 0, integration_types: [0], discoverable: false } },
    );
    assert.ok(parsed.ok);
    return parsed.value;
  };
  const create = (store: SqliteStore, name: string) =>
    store.commands.mutateCommands(scope, (state) =>
      planCreate({ scope, nextId: () => ids.next(), now: Date.now() }, state, named(name)),
    );
  /** A renderer writing the names it was given, counting its calls. */
  const renderer = () => {
    const calls: string[][] = [];
    const render = (commands: readonly { definition: { name: string } }[]) => {
      calls.push(commands.map((c) => c.definition.name));
      return Buffer.from(JSON.stringify(commands.map((c) => c.definition.name)));
    };
    return { calls, render };
  };
  const storedRows = () => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare('SELECT view, CAST(bytes AS TEXT) AS text FROM command_list_answers ORDER BY view').all();
    } finally {
      db.close();
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-answers-'));
    path = join(dir, 'db.sqlite');
    const store = new SqliteStore({ path });
    await store.world.replaceWorld(exampleWorld());
    await create(store, 'first');
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const namesIn = (text: string) => (JSON.parse(text) as { name: string }[]).map((c) => c.name);

  it("a write stores the list a bot's read asks without locale headers, in its transaction", () => {
    const rows = storedRows() as { view: string; text: string }[];
    assert.deepEqual(
      rows.map((row) => row.view),
      [''],
    );
    assert.deepEqual(namesIn(rows[0]!.text), ['first']);
  });

  it('a later process answers from the stored bytes without rendering; a write to the scope renders anew', async () => {
    const writer = new SqliteStore({ path, readStalenessMs: 0 });
    const { calls, render } = renderer();
    assert.deepEqual(namesIn(String(await writer.commands.listCommandsRendered(scope, '', render))), ['first']);
    assert.equal(String(await writer.commands.listCommandsRendered(scope, 'fr', render)), '["first"]');
    assert.deepEqual(calls, [['first']], 'only the view the write did not store is rendered, once');
    await writer.close();
    assert.deepEqual(
      storedRows().map((row) => (row as { view: string }).view),
      ['', 'fr'],
    );

    const reader = new SqliteStore({ path, readStalenessMs: 0 });
    const later = renderer();
    assert.equal(String(await reader.commands.listCommandsRendered(scope, 'fr', later.render)), '["first"]');
    assert.deepEqual(later.calls, [], 'answered from the stored row');

    const other = new SqliteStore({ path, readStalenessMs: 0 });
    await create(other, 'second');
    const rows = storedRows() as { view: string; text: string }[];
    assert.deepEqual(
      rows.map((row) => row.view),
      [''],
      "the write took the scope's other views in its transaction",
    );
    assert.deepEqual(namesIn(rows[0]!.text), ['first', 'second']);
    assert.equal(String(await reader.commands.listCommandsRendered(scope, 'fr', later.render)), '["first","second"]');
    assert.deepEqual(later.calls, [['first', 'second']]);
    await other.close();
    await reader.close();
  });

  it('a row of another wire format is rendered anew', async () => {
    const db = new Database(path);
    db.prepare('UPDATE command_list_answers SET format = format - 1').run();
    db.close();
    const store = new SqliteStore({ path });
    const { calls, render } = renderer();
    assert.equal(String(await store.commands.listCommandsRendered(scope, 'fr', render)), '["first","second"]');
    assert.deepEqual(calls, [['first', 'second']]);
    await store.close();
  });

  it("the migration stores each scope's list in the view without a locale", async () => {
    const db = new Database(path);
    db.exec(`DROP TABLE command_list_answers;
      DELETE FROM schema_dated_migrations WHERE name = '2026-12-07-command-list-answers'`);
    db.close();
    await new SqliteStore({ path }).close();
    const rows = storedRows() as { view: string; text: string }[];
    assert.deepEqual(
      rows.map((row) => row.view),
      [''],
    );
    assert.deepEqual(namesIn(rows[0]!.text), ['first', 'second']);
  });

  it("an application's deletion takes its stored answers", async () => {
    const store = new SqliteStore({ path });
    await store.commands.listCommandsRendered(scope, 'fr', renderer().render);
    assert.equal(storedRows().length, 2);
    await store.world.deleteApplication(DEMO_APP_ID);
    await store.close();
    assert.deepEqual(storedRows(), []);
  });
});

describe('the wire format of stored list answers', () => {
  /** The digest of the fixture lists' bytes, per LIST_ANSWER_FORMAT: a new format adds its own. */
  const DIGESTS: Record<number, string> = {
    1: 'f8af382187cb81fff29fc2e6fb7dd89de0364e4de4f370c8269e65f2da9f1ed7',
  };

  it('moves with what a list answer holds (LIST_ANSWER_FORMAT)', () => {
    const parsed = validateCreateCommand(
      {
        name: 'fixture',
        description: 'a command',
        name_localizations: { fr: 'montage' },
        description_localizations: { fr: 'une commande' },
        options: [
          { type: 3, name: 'text', description: 'some text', required: true, choices: [{ name: 'a', value: 'a' }] },
        ],
        default_member_permissions: '8',
        nsfw: false,
      },
      { scope: 'guild', app: { flags: 0, integration_types: [0], discoverable: false } },
    );
    assert.ok(parsed.ok);
    const command = {
      id: '1234567890123456789',
      application_id: DEMO_APP_ID,
      guild_id: TEST_GUILD_ID,
      version: '1234567890123456790',
      definition: parsed.value,
    };
    const digest = createHash('sha256');
    for (const view of [NO_LOCALE, DICTIONARIES, { kind: 'localized', locale: 'fr' } as const]) {
      digest.update(listAnswerBytes([command], view));
    }
    assert.equal(
      digest.digest('hex'),
      DIGESTS[LIST_ANSWER_FORMAT],
      'a list answer changed: move LIST_ANSWER_FORMAT (rules/wire.ts) and record its digest here, so that rows stored by an earlier build are rendered anew',
    );
  });
});

describe('list GETs of two servers on one SQLite file', () => {
  let a: TestServer;
  let b: TestServer;
  const base = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;

  before(async () => {
    // No staleness window: every read asks SQLite whether the other process has written.
    a = await startServer({ config: { readStalenessMs: 0 } });
    b = await startServer({ db: a.dbPath, config: { readStalenessMs: 0 } });
  });
  after(async () => {
    await b?.slashd.close();
    await a?.close();
  });

  const names = async (server: TestServer, query = ''): Promise<string[]> => {
    const response = await server.request('GET', `${base}${query}`, { auth: BOT });
    assert.equal(response.status, 200, response.text);
    return (response.body as { name: string }[]).map((c) => c.name);
  };

  it('each answers the list the other wrote just before, in every view, and its own writes at once', async () => {
    assert.deepEqual(await names(b), []);
    assert.deepEqual(await names(b, '?with_localizations=true'), []);
    const created = await a.request('POST', base, { auth: BOT, body: { name: 'from-a', description: 'x' } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(await names(b), ['from-a']);
    assert.deepEqual(await names(b, '?with_localizations=true'), ['from-a']);

    assert.deepEqual(await names(a), ['from-a']);
    const renamed = await a.request('PATCH', `${base}/${created.body.id}`, { auth: BOT, body: { name: 'renamed' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(await names(a), ['renamed'], 'the writer’s own list');
    assert.deepEqual(await names(b), ['renamed']);

    const deleted = await b.request('DELETE', `${base}/${created.body.id}`, { auth: BOT });
    assert.equal(deleted.status, 204, deleted.text);
    assert.deepEqual(await names(b), []);
    assert.deepEqual(await names(a), []);
  });
});

describe('read caches in one process: per entity and bounded by bytes', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-lru-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a user write drops that user alone: other users, guilds and applications stay cached', async () => {
    const store = new SqliteStore({ path: join(dir, 'entity.sqlite'), readStalenessMs: 60_000 });
    try {
      await store.world.replaceWorld(exampleWorld());
      const guild = await store.world.getGuild(TEST_GUILD_ID);
      const alice = await store.world.getUser(ALICE_ID);
      const app = await store.world.getApplication(DEMO_APP_ID);
      const bob = (await store.world.getUser(BOB_ID))!;
      await store.world.putUser({ ...bob, username: 'bob renamed' });
      assert.equal((await store.world.getUser(BOB_ID))?.username, 'bob renamed');
      assert.equal(await store.world.getGuild(TEST_GUILD_ID), guild, 'the same cached guild object');
      assert.equal(await store.world.getUser(ALICE_ID), alice, 'the same cached user object');
      assert.equal(await store.world.getApplication(DEMO_APP_ID), app, 'the same cached application object');
    } finally {
      await store.close();
    }
  });

  it('a tiny cap keeps the caches under it, and every read still answers what is stored', async () => {
    const capBytes = 16 * 1024;
    const store = new SqliteStore({ path: join(dir, 'tiny.sqlite'), cacheBytes: capBytes });
    try {
      const world = exampleWorld();
      const template = world.guilds[0]!;
      const ids = Array.from({ length: 40 }, (_, i) => `${BigInt(TEST_GUILD_ID) + 100_000n + BigInt(i)}`);
      world.guilds.push(...ids.map((id) => ({ ...template, id, name: `guild ${id}`, channels: [] })));
      await store.world.replaceWorld(world);
      for (let round = 0; round < 2; round++) {
        for (const id of ids) {
          assert.equal((await store.world.getGuild(id))?.name, `guild ${id}`);
          const use = store.cacheUse();
          assert.ok(use.bytes <= capBytes, `${use.bytes} bytes cached, cap ${capBytes}`);
        }
      }
      assert.ok(store.cacheUse().entries > 0, 'something is cached');
      assert.ok(store.cacheUse().entries < ids.length, 'not everything: the cap evicted');
    } finally {
      await store.close();
    }
  });
});

describe('the cache size setting', () => {
  it('--cache-mb and SLASHD_CACHE_MB take a number of megabytes; anything else is a usage error', async () => {
    const errors: string[] = [];
    const out = { log: () => undefined, error: (line: string) => errors.push(line) };
    for (const bad of ['abc', '-1', '', '1e12']) {
      assert.equal(await runServe(['--db', ':memory:', '--cache-mb', bad], out, {}), 2, bad);
    }
    assert.equal(await runServe(['--db', ':memory:'], out, { SLASHD_CACHE_MB: 'lots' }), 2);
    assert.match(errors.join('\n'), /--cache-mb is a number of megabytes/);
  });

  it("createSlashd hands the setting to the store (less the command picker's eighth)", async () => {
    const slashd = await createSlashd({ db: ':memory:', cacheBytes: 1234 * 1024 });
    try {
      assert.ok(slashd.store instanceof SqliteStore);
      assert.equal(slashd.store.cacheUse().capBytes, 1234 * 1024 - Math.floor((1234 * 1024) / 8));
      assert.equal(splitCacheBudget(1234 * 1024).store, slashd.store.cacheUse().capBytes);
    } finally {
      await slashd.close();
    }
  });
});

describe('a member write drops only what holds that member', () => {
  let dir: string;
  let store: SqliteStore;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-member-caches-'));
    store = new SqliteStore({ path: join(dir, 'db.sqlite') });
    await store.world.replaceWorld(exampleWorld());
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads of other members keep their cached guild; the written member and the whole list are read anew', async () => {
    const world = store.world;
    const memberStore = store.members;
    const alice = await memberStore.getGuildWithMembers(TEST_GUILD_ID, [ALICE_ID]);
    const bob = await memberStore.getGuildWithMembers(TEST_GUILD_ID, [BOB_ID]);
    const whole = await world.getGuild(TEST_GUILD_ID);
    assert.ok(alice && bob && whole);
    assert.equal(await memberStore.getGuildWithMembers(TEST_GUILD_ID, [BOB_ID]), bob, 'served from the cache');
    const aliceMember = alice.members[0]!;
    assert.equal(await memberStore.putGuildMember(TEST_GUILD_ID, { ...aliceMember, nick: 'renamed' }), true);
    assert.equal(await memberStore.getGuildWithMembers(TEST_GUILD_ID, [BOB_ID]), bob, 'another member’s read is kept');
    const aliceAfter = await memberStore.getGuildWithMembers(TEST_GUILD_ID, [ALICE_ID]);
    assert.notEqual(aliceAfter, alice);
    assert.equal(aliceAfter?.members[0]?.nick, 'renamed');
    const wholeAfter = await world.getGuild(TEST_GUILD_ID);
    assert.notEqual(wholeAfter, whole, 'the whole list holds the member: read anew');
    assert.equal(wholeAfter?.members.find((m) => m.user_id === ALICE_ID)?.nick, 'renamed');
    await world.putGuild({ ...wholeAfter, name: 'renamed guild' });
    const bobAfterGuildWrite = await memberStore.getGuildWithMembers(TEST_GUILD_ID, [BOB_ID]);
    assert.notEqual(bobAfterGuildWrite, bob, 'a write of the guild itself drops every read of it');
    assert.equal(bobAfterGuildWrite?.name, 'renamed guild');
  });
});
