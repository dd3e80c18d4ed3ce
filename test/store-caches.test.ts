/** The store's read caches stay true when another process writes the same SQLite file. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planCreate, planDelete } from '../src/core/commands/plans.js';
import { SnowflakeGenerator } from '../src/core/snowflake.js';
import { validateCreateCommand } from '../src/core/validation/index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { DEMO_APP_ID, exampleWorld, TEST_GUILD_ID } from './helpers/world.js';

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
