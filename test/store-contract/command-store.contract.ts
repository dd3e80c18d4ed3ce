/**
 * The CommandStore contract: commands and permissions are keyed by application id, and every
 * planner runs on the state read inside the one transaction that applies its answer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandScope, StoredCommand } from '../../src/core/commands/model.js';
import type { CommandPermission } from '../../src/core/permissions/command-permissions.js';
import type { CommandStore, PermissionsState } from '../../src/store/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, APP_A, APP_B, BOB, command, definition, GUILD_1, GUILD_2, mutation } from './fixtures.js';

const GLOBAL_A: CommandScope = { applicationId: APP_A, guildId: null };
const GUILD_A: CommandScope = { applicationId: APP_A, guildId: GUILD_1 };
const GLOBAL_B: CommandScope = { applicationId: APP_B, guildId: null };
const DAY_MS = 86_400_000;

const ALLOW_ALICE: CommandPermission[] = [{ id: ALICE, type: 2, permission: true }];
const DENY_BOB: CommandPermission[] = [{ id: BOB, type: 2, permission: false }];

/** Snowflake-like ids; the 20-digit one is numerically the largest though it sorts first as text. */
const ID_1 = '1500000000000000001';
const ID_2 = '1500000000000000002';
const ID_9 = '1500000000000000009';
const ID_10 = '15000000000000000010';

async function insert(store: CommandStore, scope: CommandScope, ...commands: StoredCommand[]): Promise<void> {
  await store.mutateCommands(scope, () => ({ mutation: mutation({ insert: commands }), result: null }));
}

async function createsToday(store: CommandStore, scope: CommandScope): Promise<number> {
  return store.mutateCommands(scope, (state) => ({ mutation: mutation({}), result: state.createsToday }));
}

const names = (commands: readonly StoredCommand[]): string[] => commands.map((c) => c.definition.name);

export function describeCommandStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: CommandStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): CommandStore => t.stores.commands;

    it('writes what the planner returns and hands back its result; lists oldest id first', async () => {
      assert.deepEqual(await store().listCommands(GLOBAL_A), []);
      const seen: (readonly StoredCommand[])[] = [];
      const result = await store().mutateCommands(GLOBAL_A, (state) => {
        seen.push(state.commands);
        return {
          mutation: mutation({
            insert: [command(APP_A, null, ID_10, 'ten'), command(APP_A, null, ID_9, 'nine')],
            countedCreates: 2,
          }),
          result: 'planned',
        };
      });
      assert.equal(result, 'planned');
      assert.deepEqual(seen, [[]]);
      assert.deepEqual(await store().listCommands(GLOBAL_A), [
        command(APP_A, null, ID_9, 'nine'),
        command(APP_A, null, ID_10, 'ten'),
      ]);
      assert.deepEqual(await store().getCommand(GLOBAL_A, ID_10), command(APP_A, null, ID_10, 'ten'));
    });

    it('a guild scope and the global scope are separate', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'everywhere'));
      await insert(store(), GUILD_A, command(APP_A, GUILD_1, ID_2, 'here'));
      assert.deepEqual(names(await store().listCommands(GLOBAL_A)), ['everywhere']);
      assert.deepEqual(await store().listCommands(GUILD_A), [command(APP_A, GUILD_1, ID_2, 'here')]);
      assert.deepEqual(await store().listCommands({ applicationId: APP_A, guildId: GUILD_2 }), []);
      assert.equal(await store().getCommand(GUILD_A, ID_1), null);
      assert.equal(await store().getCommand(GLOBAL_A, ID_2), null);
      assert.equal(await store().getCommand({ applicationId: APP_A, guildId: GUILD_2 }, ID_2), null);
    });

    it('one application never reads, plans over or changes another’s commands', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'mine'));
      assert.deepEqual(await store().listCommands(GLOBAL_B), []);
      assert.equal(await store().getCommand(GLOBAL_B, ID_1), null);
      await store().mutateCommands(GLOBAL_B, (state) => {
        assert.deepEqual(state.commands, [], 'the planner of B sees none of A’s commands');
        // Even a mutation that names A's command id only ever touches B's rows.
        return {
          mutation: mutation({ delete: [ID_1], update: [command(APP_B, null, ID_1, 'stolen')] }),
          result: null,
        };
      });
      assert.deepEqual(await store().listCommands(GLOBAL_A), [command(APP_A, null, ID_1, 'mine')]);
      assert.deepEqual(await store().listCommands(GLOBAL_B), []);
      // The same id and name in another application is a different command.
      await insert(store(), GLOBAL_B, command(APP_B, null, ID_1, 'mine'));
      assert.deepEqual(await store().getCommand(GLOBAL_B, ID_1), command(APP_B, null, ID_1, 'mine'));
      assert.deepEqual(await store().getCommand(GLOBAL_A, ID_1), command(APP_A, null, ID_1, 'mine'));
    });

    it('a planner that throws writes nothing, and its error reaches the caller', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'kept'));
      const refusal = new Error('refused by the planner');
      await assert.rejects(
        store().mutateCommands(GLOBAL_A, () => {
          throw refusal;
        }),
        (error) => error === refusal,
      );
      assert.deepEqual(names(await store().listCommands(GLOBAL_A)), ['kept']);
    });

    it('a mutation that fails part way leaves nothing of itself behind (one transaction)', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'first'), command(APP_A, null, ID_2, 'second'));
      await store().mutateCommandPermissions(APP_A, GUILD_1, ID_1, () => ALLOW_ALICE);
      const before = await createsToday(store(), GLOBAL_A);
      await assert.rejects(
        store().mutateCommands(GLOBAL_A, () => ({
          mutation: mutation({
            delete: [ID_1],
            update: [{ ...command(APP_A, null, ID_2, 'renamed'), version: ID_9 }],
            dropPermissionsOf: [ID_1],
            // Two new commands with one id: the second insert cannot succeed.
            insert: [command(APP_A, null, ID_10, 'new-a'), command(APP_A, null, ID_10, 'new-b')],
            countedCreates: 2,
          }),
          result: null,
        })),
      );
      assert.deepEqual(await store().listCommands(GLOBAL_A), [
        command(APP_A, null, ID_1, 'first'),
        command(APP_A, null, ID_2, 'second'),
      ]);
      assert.deepEqual((await store().getCommandPermissions(APP_A, GUILD_1, ID_1))?.permissions, ALLOW_ALICE);
      assert.equal(await createsToday(store(), GLOBAL_A), before);
    });

    it('a command id is never taken twice in one application, in any scope', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'global'));
      await assert.rejects(insert(store(), GUILD_A, command(APP_A, GUILD_1, ID_1, 'guild')));
      assert.deepEqual(await store().listCommands(GUILD_A), []);
    });

    it('updates rewrite definition and version; two commands can swap names in one mutation', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'alpha'), command(APP_A, null, ID_2, 'beta'));
      await store().mutateCommands(GLOBAL_A, (state) => ({
        mutation: mutation({
          update: state.commands.map((c) => ({
            ...c,
            version: c.id === ID_1 ? ID_9 : ID_10,
            definition: definition(c.definition.name === 'alpha' ? 'beta' : 'alpha'),
          })),
        }),
        result: null,
      }));
      const after = await store().listCommands(GLOBAL_A);
      assert.deepEqual(names(after), ['beta', 'alpha']);
      assert.deepEqual(
        after.map((c) => c.version),
        [ID_9, ID_10],
      );
      assert.deepEqual(await store().getCommand(GLOBAL_A, ID_1), after[0]);
    });

    it('counts creates per application, scope and UTC day', async () => {
      await store().mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({
          insert: [command(APP_A, null, ID_1, 'a'), command(APP_A, null, ID_2, 'b')],
          countedCreates: 2,
        }),
        result: null,
      }));
      await store().mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({ insert: [command(APP_A, null, ID_9, 'c')], countedCreates: 1 }),
        result: null,
      }));
      assert.equal(await createsToday(store(), GLOBAL_A), 3);
      assert.equal(await createsToday(store(), GUILD_A), 0, 'another scope');
      assert.equal(await createsToday(store(), GLOBAL_B), 0, 'another application');
      await store().mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({ insert: [command(APP_A, null, ID_10, 'not counted')], countedCreates: 0 }),
        result: null,
      }));
      assert.equal(await createsToday(store(), GLOBAL_A), 3, 'inserts the planner did not count');
      t.now += DAY_MS;
      assert.equal(await createsToday(store(), GLOBAL_A), 0, 'a new UTC day');
    });

    it('countCreatesToday reads the count a planner sees, per application, scope and UTC day', async () => {
      await store().mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({
          insert: [command(APP_A, null, ID_1, 'a'), command(APP_A, null, ID_2, 'b')],
          countedCreates: 2,
        }),
        result: null,
      }));
      assert.equal(await store().countCreatesToday(GLOBAL_A), 2);
      assert.equal(await store().countCreatesToday(GLOBAL_A), await createsToday(store(), GLOBAL_A));
      assert.equal(await store().countCreatesToday(GUILD_A), 0, 'another scope');
      assert.equal(await store().countCreatesToday(GLOBAL_B), 0, 'another application');
      t.now += DAY_MS;
      assert.equal(await store().countCreatesToday(GLOBAL_A), 0, 'a new UTC day');
    });

    it("resetCreatesToday forgets the application's creates of today in every scope, and only its own", async () => {
      const createTwo = (scope: CommandScope, app: string, first: string, second: string) =>
        store().mutateCommands(scope, () => ({
          mutation: mutation({
            insert: [command(app, scope.guildId, first, 'a'), command(app, scope.guildId, second, 'b')],
            countedCreates: 2,
          }),
          result: null,
        }));
      await createTwo(GLOBAL_A, APP_A, ID_1, ID_2);
      await createTwo(GUILD_A, APP_A, '1500000000000000003', '1500000000000000004');
      await createTwo(GLOBAL_B, APP_B, '1500000000000000005', '1500000000000000006');
      await store().resetCreatesToday(APP_A);
      assert.equal(await store().countCreatesToday(GLOBAL_A), 0);
      assert.equal(await store().countCreatesToday(GUILD_A), 0, 'every scope of the application');
      assert.equal(await createsToday(store(), GLOBAL_A), 0, 'what a planner sees');
      assert.equal(await store().countCreatesToday(GLOBAL_B), 2, 'another application keeps its count');
      assert.equal((await store().listCommands(GLOBAL_A)).length, 2, 'the commands stay');
    });

    it('concurrent planners of one scope, on two connections, run one after the other', async () => {
      const other = await t.db.connect();
      const planners = Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? other : t.stores).commands.mutateCommands(GLOBAL_A, (state) => {
          // Each names its command after what it read: two planners on the same state would collide.
          const n = state.commands.length;
          return {
            mutation: mutation({
              insert: [command(APP_A, null, String(1500000000000000100n + BigInt(i)), `c${n}`)],
              countedCreates: 1,
            }),
            result: { n, creates: state.createsToday },
          };
        }),
      );
      const results = await Promise.all(planners);
      assert.deepEqual(
        results.map((r) => r.n).sort((a, b) => a - b),
        Array.from({ length: 12 }, (_, i) => i),
      );
      for (const r of results) assert.equal(r.creates, r.n, 'every planner saw every create before it');
      assert.equal((await other.commands.listCommands(GLOBAL_A)).length, 12);
      assert.equal(await createsToday(store(), GLOBAL_A), 12);
    });

    it('a planner sees what another connection committed, even after reading the scope', async () => {
      const other = await t.db.connect();
      assert.deepEqual(await other.commands.listCommands(GLOBAL_A), []);
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'from-first'));
      const seen = await other.commands.mutateCommands(GLOBAL_A, (state) => ({
        mutation: mutation({}),
        result: names(state.commands),
      }));
      assert.deepEqual(seen, ['from-first']);
      assert.deepEqual(names(await other.commands.listCommands(GLOBAL_A)), ['from-first']);
    });

    it('a rendered list is rendered once per scope and view, and again after a write to its scope on any connection', async () => {
      const other = (await t.db.connect()).commands;
      const rendered: string[] = [];
      const renderAs =
        (view: string) =>
        (commands: readonly StoredCommand[]): Buffer => {
          rendered.push(view);
          return Buffer.from(`${view}:${names(commands).join(',')}`);
        };
      const read = async (from: CommandStore, scope: CommandScope, view: string) =>
        (await from.listCommandsRendered(scope, view, renderAs(view))).toString();

      await insert(store(), GUILD_A, command(APP_A, GUILD_1, ID_1, 'first'));
      assert.equal(await read(other, GUILD_A, 'en'), 'en:first');
      assert.equal(await read(other, GUILD_A, 'en'), 'en:first');
      assert.equal(await read(other, GUILD_A, '*'), '*:first');
      assert.deepEqual(rendered, ['en', '*'], 'each view rendered once while nothing is written');

      // On the reading connection: another's commit may drop more than its scope (SQLite cannot tell what it wrote).
      await insert(other, GLOBAL_A, command(APP_A, null, ID_2, 'global'));
      await insert(other, GLOBAL_B, command(APP_B, null, ID_9, 'other-app'));
      assert.equal(await read(other, GUILD_A, 'en'), 'en:first');
      assert.deepEqual(rendered, ['en', '*'], 'writes to other scopes and apps keep the rendering');

      await insert(store(), GUILD_A, command(APP_A, GUILD_1, ID_10, 'second'));
      assert.equal(await read(other, GUILD_A, 'en'), 'en:first,second', 'another connection’s write is seen');
      assert.equal(await read(store(), GUILD_A, 'en'), 'en:first,second');
      await other.mutateCommands(GUILD_A, (state) => ({
        mutation: mutation({ delete: [state.commands[0]!.id] }),
        result: null,
      }));
      assert.equal(await read(other, GUILD_A, 'en'), 'en:second', 'the writer’s own renderings go with its write');
      assert.equal(await read(store(), GUILD_A, 'en'), 'en:second');
    });

    it('permissions: the planner sees the target command and the guild’s objects; writes replace', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'global'));
      await insert(store(), GUILD_A, command(APP_A, GUILD_1, ID_2, 'guild'));
      const seen: PermissionsState[] = [];
      const saved = await store().mutateCommandPermissions(APP_A, GUILD_1, ID_1, (state) => {
        seen.push(state);
        return ALLOW_ALICE;
      });
      assert.deepEqual(saved, { id: ID_1, application_id: APP_A, guild_id: GUILD_1, permissions: ALLOW_ALICE });
      assert.deepEqual(seen.slice(), [{ permissions: [], command: command(APP_A, null, ID_1, 'global') }]);
      await store().mutateCommandPermissions(APP_A, GUILD_1, ID_2, (state) => {
        seen.push(state);
        return DENY_BOB;
      });
      assert.deepEqual(seen[1], { permissions: [saved], command: command(APP_A, GUILD_1, ID_2, 'guild') });
      await store().mutateCommandPermissions(APP_A, GUILD_1, APP_A, (state) => {
        assert.equal(state.command, null, 'the application id names no command');
        return DENY_BOB;
      });
      await store().mutateCommandPermissions(APP_A, GUILD_1, ID_1, () => DENY_BOB);
      const listed = await store().listCommandPermissions(APP_A, GUILD_1);
      assert.deepEqual(
        listed.map((p) => [p.id, p.permissions]),
        [
          [APP_A, DENY_BOB],
          [ID_1, DENY_BOB],
          [ID_2, DENY_BOB],
        ],
        'in numeric order of target id',
      );
      assert.deepEqual(await store().getCommandPermissions(APP_A, GUILD_1, ID_1), {
        id: ID_1,
        application_id: APP_A,
        guild_id: GUILD_1,
        permissions: DENY_BOB,
      });
      assert.equal(await store().getCommandPermissions(APP_A, GUILD_1, ID_9), null);
    });

    it('permissions are keyed by application and guild', async () => {
      await store().mutateCommandPermissions(APP_A, GUILD_1, ID_1, () => ALLOW_ALICE);
      assert.deepEqual(await store().listCommandPermissions(APP_B, GUILD_1), []);
      assert.deepEqual(await store().listCommandPermissions(APP_A, GUILD_2), []);
      assert.equal(await store().getCommandPermissions(APP_B, GUILD_1, ID_1), null);
      assert.equal(await store().getCommandPermissions(APP_A, GUILD_2, ID_1), null);
      await store().mutateCommandPermissions(APP_B, GUILD_1, ID_1, (state) => {
        assert.deepEqual(state.permissions, [], 'B’s planner sees none of A’s objects');
        return DENY_BOB;
      });
      assert.deepEqual((await store().getCommandPermissions(APP_A, GUILD_1, ID_1))?.permissions, ALLOW_ALICE);
    });

    it('a permissions planner that throws writes nothing', async () => {
      await store().mutateCommandPermissions(APP_A, GUILD_1, ID_1, () => ALLOW_ALICE);
      await assert.rejects(
        store().mutateCommandPermissions(APP_A, GUILD_1, ID_1, () => {
          throw new Error('refused');
        }),
        /refused/,
      );
      assert.deepEqual((await store().getCommandPermissions(APP_A, GUILD_1, ID_1))?.permissions, ALLOW_ALICE);
      assert.equal((await store().listCommandPermissions(APP_A, GUILD_1)).length, 1);
    });

    it('a mutation drops the overwrites of the commands it names, in every guild of that application only', async () => {
      await insert(store(), GLOBAL_A, command(APP_A, null, ID_1, 'doomed'), command(APP_A, null, ID_2, 'kept'));
      for (const guildId of [GUILD_1, GUILD_2]) {
        await store().mutateCommandPermissions(APP_A, guildId, ID_1, () => ALLOW_ALICE);
        await store().mutateCommandPermissions(APP_A, guildId, ID_2, () => ALLOW_ALICE);
        await store().mutateCommandPermissions(APP_B, guildId, ID_1, () => ALLOW_ALICE);
      }
      // Read once, so that a store with read caches has them filled before the write.
      assert.equal((await store().listCommandPermissions(APP_A, GUILD_1)).length, 2);
      await store().mutateCommands(GLOBAL_A, () => ({
        mutation: mutation({ delete: [ID_1], dropPermissionsOf: [ID_1] }),
        result: null,
      }));
      for (const guildId of [GUILD_1, GUILD_2]) {
        assert.deepEqual(
          (await store().listCommandPermissions(APP_A, guildId)).map((p) => p.id),
          [ID_2],
        );
        assert.equal(await store().getCommandPermissions(APP_A, guildId, ID_1), null);
        assert.notEqual(await store().getCommandPermissions(APP_B, guildId, ID_1), null, 'another app’s are kept');
      }
    });
  });
}
