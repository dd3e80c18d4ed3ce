/**
 * The SnapshotStore contract: a snapshot holds the whole state (world, commands, permissions,
 * daily create counts, interactions, messages, Activities); restoring one gives exactly that
 * state back, to this store and to another process's, and leaves node leases alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandScope } from '../../src/core/commands/model.js';
import type { Store } from '../../src/store/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import {
  activityInstance,
  ALICE,
  APP_A,
  BOB,
  CHANNEL_1,
  command,
  GUILD_1,
  interaction,
  message,
  mutation,
  smallWorld,
  user,
} from './fixtures.js';

const GLOBAL_A: CommandScope = { applicationId: APP_A, guildId: null };
const FIRST = '2000000000000000001';
const SECOND = '2000000000000000002';
const LATER = '20000000000000000003';

/** Everything a snapshot must hold, read through the other interfaces. */
async function stateOf(stores: Store) {
  return {
    world: await stores.world.exportWorld(),
    commands: (await stores.commands.listCommands(GLOBAL_A)).map((c) => c.definition.name),
    createsToday: await stores.commands.mutateCommands(GLOBAL_A, (state) => ({
      mutation: mutation({}),
      result: state.createsToday,
    })),
    permissions: await stores.commands.listCommandPermissions(APP_A, GUILD_1),
    interaction: (await stores.interactions.getInteraction(APP_A, '1800000000000000001'))?.state ?? null,
    messages: (await stores.interactions.listChannelMessages(CHANNEL_1, ALICE, 50)).map((m) => m.content),
    activities: (await stores.interactions.listActivityInstances(APP_A)).map((a) => a.id),
  };
}

async function fill(stores: Store): Promise<void> {
  await stores.world.replaceWorld(smallWorld());
  await stores.commands.mutateCommands(GLOBAL_A, () => ({
    mutation: mutation({ insert: [command(APP_A, null, '1500000000000000001', 'ping')], countedCreates: 1 }),
    result: null,
  }));
  await stores.commands.mutateCommandPermissions(APP_A, GUILD_1, APP_A, () => [
    { id: ALICE, type: 2, permission: true },
  ]);
  await stores.interactions.putInteraction(interaction(APP_A, '1800000000000000001'));
  await stores.interactions.putMessage(message(CHANNEL_1, '1900000000000000001', 'before'));
  await stores.interactions.putActivityInstance(activityInstance(APP_A, '1700000000000000001'));
}

async function change(stores: Store): Promise<void> {
  await stores.world.putUser(user(BOB, 'bob-new-token', 'bobby'));
  await stores.world.deleteApplication('1100000000000000002');
  await stores.commands.mutateCommands(GLOBAL_A, () => ({
    mutation: mutation({ insert: [command(APP_A, null, '1500000000000000002', 'pong')], countedCreates: 1 }),
    result: null,
  }));
  await stores.commands.mutateCommandPermissions(APP_A, GUILD_1, APP_A, () => [
    { id: BOB, type: 2, permission: false },
  ]);
  await stores.interactions.updateInteraction(APP_A, '1800000000000000001', ['pending'], { state: 'failed' });
  await stores.interactions.putMessage(message(CHANNEL_1, '1900000000000000002', 'after'));
  await stores.interactions.putActivityInstance(activityInstance(APP_A, '1700000000000000002'));
}

export function describeSnapshotStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: SnapshotStore`, () => {
    const t = freshDatabasePerTest(make);

    it('a restore gives back the whole state of the snapshot, and the snapshot stays for the next one', async () => {
      await fill(t.stores);
      const saved = await stateOf(t.stores);
      await t.stores.snapshots.saveSnapshot(FIRST);
      await change(t.stores);
      assert.notDeepEqual(await stateOf(t.stores), saved, 'the change is seen before the restore');
      assert.equal(await t.stores.snapshots.restoreSnapshot(FIRST), true);
      assert.deepEqual(await stateOf(t.stores), saved);
      assert.equal(await t.stores.world.findUserByToken('bob-new-token'), null, 'a token of the change finds no one');
      assert.equal((await t.stores.world.findApplicationByBotToken('bot-token-of-b'))?.id, '1100000000000000002');
      await change(t.stores);
      assert.equal(await t.stores.snapshots.restoreSnapshot(FIRST), true, 'restored twice');
      assert.deepEqual(await stateOf(t.stores), saved);
    });

    it("another process's store sees the restored state at once", async () => {
      await fill(t.stores);
      const other = await t.db.connect();
      const saved = await stateOf(other);
      await t.stores.snapshots.saveSnapshot(FIRST);
      await change(t.stores);
      assert.notDeepEqual(await stateOf(other), saved);
      await t.stores.snapshots.restoreSnapshot(FIRST);
      assert.deepEqual(await stateOf(other), saved);
    });

    it('snapshots are listed in id order, deleted by id; an unknown id restores nothing', async () => {
      await fill(t.stores);
      await t.stores.snapshots.saveSnapshot(LATER);
      await t.stores.snapshots.saveSnapshot(SECOND);
      await t.stores.snapshots.saveSnapshot(FIRST);
      assert.deepEqual(await t.stores.snapshots.listSnapshots(), [FIRST, SECOND, LATER]);
      assert.equal(await t.stores.snapshots.deleteSnapshot(SECOND), true);
      assert.equal(await t.stores.snapshots.deleteSnapshot(SECOND), false);
      assert.deepEqual(await t.stores.snapshots.listSnapshots(), [FIRST, LATER]);
      const before = await stateOf(t.stores);
      assert.equal(await t.stores.snapshots.restoreSnapshot(SECOND), false);
      assert.deepEqual(await stateOf(t.stores), before, 'nothing changed');
      await assert.rejects(t.stores.snapshots.saveSnapshot('1; DROP TABLE users'), 'ids are digits only');
    });

    it('saving under an existing id replaces that snapshot', async () => {
      await fill(t.stores);
      await t.stores.snapshots.saveSnapshot(FIRST);
      await change(t.stores);
      const changed = await stateOf(t.stores);
      await t.stores.snapshots.saveSnapshot(FIRST);
      await t.stores.snapshots.clearState();
      await t.stores.snapshots.restoreSnapshot(FIRST);
      assert.deepEqual(await stateOf(t.stores), changed);
    });

    it('clearing empties the state; node leases are neither cleared nor restored', async () => {
      await fill(t.stores);
      await t.stores.snapshots.saveSnapshot(FIRST);
      const lease = await t.stores.leases.acquireNodeLease({ holder: 'after', preferred: 7, ttlMs: 60_000 });
      assert.equal(lease, 7);
      await t.stores.snapshots.clearState();
      const cleared = await stateOf(t.stores);
      assert.deepEqual(cleared.world, { applications: [], users: [], guilds: [], oauth2_tokens: [] });
      assert.deepEqual([cleared.commands, cleared.createsToday, cleared.messages], [[], 0, []]);
      await t.stores.snapshots.restoreSnapshot(FIRST);
      assert.equal(
        await t.stores.leases.renewNodeLease(7, 'after', 60_000),
        true,
        'the lease taken after the snapshot holds',
      );
      const taken = await t.stores.leases.acquireNodeLease({ holder: 'another', preferred: 7, ttlMs: 60_000 });
      assert.notEqual(taken, 7);
    });
  });
}
