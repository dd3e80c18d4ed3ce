/**
 * `serve --world FILE` at each start (issue 27): the file imported last, unchanged, is neither read
 * nor written again (its digest is kept); a changed file writes only what changed, and what it
 * leaves out is removed (the stored world becomes the file's, as before).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createSlashd } from '../../app.js';
import type { WorldChangeSummary } from '../../core/world/world-change.js';
import type { World } from '../../core/world/types.js';
import { WORLD_FILE_SETTLED_MS, worldFileSource } from '../../world/world-file.js';
import { ALICE_ID, BOB_ID, exampleWorld } from '../../../test/helpers/world.js';

describe('serve --world: the file imported last is not imported again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-world-file-'));
  const db = join(dir, 'slashd.sqlite');
  const file = join(dir, 'world.json');
  after(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * One start and stop of a node on the database with the file as it is now, its mark taken at
   * `now`: what its import did, and how often it hashed and read the file.
   */
  async function start(
    extra: (slashd: Awaited<ReturnType<typeof createSlashd>>) => Promise<void> = async () => {},
    now = Date.now(),
  ) {
    let read = 0;
    let hashed = 0;
    const source = worldFileSource(file, 'test', now);
    const slashd = await createSlashd({
      db,
      adminToken: 'admin',
      worldFile: {
        mark: source.mark,
        digest: () => {
          hashed += 1;
          return source.digest();
        },
        read: () => {
          read += 1;
          return source.read();
        },
      },
    });
    try {
      await extra(slashd);
      return { summary: slashd.worldImport, read, hashed, world: await slashd.store.world.exportWorld() };
    } finally {
      await slashd.close();
    }
  }

  const write = (world: World) => writeFileSync(file, JSON.stringify(world));

  test('a first start imports, a second with the same file reads nothing, a changed file writes the change', async () => {
    const world = exampleWorld();
    write(world);
    const first = await start();
    assert.equal(first.read, 1);
    assert.deepEqual(
      first.summary?.changed.users,
      world.users.map((u) => u.id),
    );

    const second = await start();
    assert.equal(second.read, 0, 'the same file is not read again');
    assert.equal(second.summary, null);
    assert.deepEqual(second.world, first.world);

    const changed = exampleWorld();
    changed.users.find((u) => u.id === ALICE_ID)!.username = 'alice-renamed';
    changed.users = changed.users.filter((u) => u.id !== BOB_ID);
    for (const guild of changed.guilds) guild.members = guild.members.filter((m) => m.user_id !== BOB_ID);
    changed.oauth2_tokens = changed.oauth2_tokens.filter((t) => t.user_id !== BOB_ID);
    write(changed);
    const third = await start();
    assert.equal(third.read, 1);
    const summary = third.summary as WorldChangeSummary;
    assert.deepEqual(summary.changed.users, [ALICE_ID]);
    assert.deepEqual(summary.removed?.users, [BOB_ID]);
    assert.deepEqual(summary.changed.applications, []);
    assert.equal(third.world.users.find((u) => u.id === ALICE_ID)?.username, 'alice-renamed');
    assert.equal(
      third.world.users.some((u) => u.id === BOB_ID),
      false,
    );
  });

  test('a world changed by the admin API since is brought back to the file at the next start', async () => {
    write(exampleWorld());
    await start();
    await start(async (slashd) => {
      const alice = (await slashd.store.world.getUser(ALICE_ID))!;
      await slashd.store.world.putUser({ ...alice, username: 'changed-meanwhile' });
    });
    const next = await start();
    assert.equal(next.read, 1, 'the digest was forgotten by the write');
    assert.deepEqual(next.summary?.changed.users, [ALICE_ID]);
    assert.notEqual(next.world.users.find((u) => u.id === ALICE_ID)?.username, 'changed-meanwhile');
  });

  test('a settled file is known by its mark, unread; the same bytes touched are hashed once, not imported', async () => {
    const world = exampleWorld();
    world.users.find((u) => u.id === ALICE_ID)!.username = 'alice-settled';
    write(world);
    const settled = () => statSync(file).ctimeMs + WORLD_FILE_SETTLED_MS + 1;
    const imported = await start(undefined, settled());
    assert.equal(imported.read, 1);

    const again = await start(undefined, settled());
    assert.equal(again.hashed, 0, 'the mark recorded at the import says it is the same file');
    assert.equal(again.read, 0);
    assert.equal(again.summary, null);

    const earlier = new Date(statSync(file).mtimeMs - 60_000);
    utimesSync(file, earlier, earlier);
    const touched = await start(undefined, settled());
    assert.equal(touched.hashed, 1, 'new times: the bytes are hashed');
    assert.equal(touched.read, 0, 'the same bytes: nothing is imported');
    assert.equal(touched.summary, null);
    const afterTouch = await start(undefined, settled());
    assert.equal(afterTouch.hashed, 0, 'the new mark was recorded');
  });

  test('a file changed too lately for its times to be trusted is hashed at every start', async () => {
    write(exampleWorld());
    const fresh = () => statSync(file).ctimeMs + 1;
    await start(undefined, fresh());
    const second = await start(undefined, fresh());
    assert.equal(second.hashed, 1);
    assert.equal(second.read, 0);
    const third = await start(undefined, fresh());
    assert.equal(third.hashed, 1);
  });
});
