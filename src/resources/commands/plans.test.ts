/**
 * The command planners (src/core/commands/plans.ts) on their own: each one's accept and refuse
 * branches, with the scope's state and the clock given, and nothing stored.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandType, type CommandDefinition, type StoredCommand } from '../../core/commands/model.js';
import type { ScopeState } from './rules/mutation.js';
import {
  DAILY_COMMAND_CREATES_MAX,
  planBulkOverwrite,
  planCreate,
  planDelete,
  planEdit,
  planEnsureEntryPoint,
  type BulkEntry,
  type PlanContext,
} from './rules/plans.js';
import { ApiError } from '../../core/io/errors.js';
import { commandDefinition, storedCommand } from '../../../test/helpers/commands.js';
import { DEMO_APP_ID, TEST_GUILD_ID } from '../../../test/helpers/world.js';

/** 2026-11-23T01:00:00Z: one hour into a UTC day, so 23 hours remain of it. */
const ONE_AM = Date.UTC(2026, 10, 23, 1);
const HOURS_LEFT_IN_DAY_S = 23 * 3600;

/** A context whose ids count up from 1500000000000000001, so each new id is predictable. */
/** v10's message, then slashd's hint naming the flag and the admin call (the demo app's id). */
const DAILY_LIMIT_MESSAGE =
  'Max number of daily application command creates has been reached (200)' +
  ' (slashd: `slashd serve --daily-command-creates N` or `off` lifts it; DELETE /admin/applications/1324165260902400001/command-creates resets it)';

function context(guildId: string | null = null, now = ONE_AM): PlanContext & { issued: string[] } {
  let next = 1_500_000_000_000_000_000n;
  const issued: string[] = [];
  return {
    scope: { applicationId: DEMO_APP_ID, guildId },
    nextId: () => {
      next += 1n;
      issued.push(String(next));
      return String(next);
    },
    now,
    issued,
  };
}

function stored(id: string, overrides: Partial<CommandDefinition> = {}, guildId: string | null = null): StoredCommand {
  return storedCommand(id, commandDefinition(overrides), DEMO_APP_ID, guildId);
}

function state(commands: StoredCommand[], createsToday = 0): ScopeState {
  return { commands, createsToday };
}

/** `count` commands of `type`, named c0, c1, ... with ids from 1400000000000000000. */
function many(count: number, type: CommandDefinition['type'], firstId = 0): StoredCommand[] {
  return Array.from({ length: count }, (_, i) =>
    stored(String(1_400_000_000_000_000_000n + BigInt(firstId + i)), {
      type,
      name: `c${firstId + i}`,
      description: type === CommandType.ChatInput ? 'd' : '',
    }),
  );
}

/** The wire body of what `plan` throws; fails if it throws anything but an ApiError, or nothing. */
function refusal(plan: () => unknown): { status: number; body: Record<string, unknown> } {
  try {
    plan();
  } catch (error) {
    assert.ok(error instanceof ApiError, `not an ApiError: ${String(error)}`);
    return { status: error.status, body: error.toBody() };
  }
  assert.fail('the planner accepted');
}

const PING = commandDefinition();
const USER_COMMAND = commandDefinition({ type: CommandType.User, name: 'Inspect', description: '' });
const ENTRY_POINT = commandDefinition({
  type: CommandType.PrimaryEntryPoint,
  name: 'Launch',
  description: '',
  handler: 2,
});

describe('planCreate: an upsert by name within type and scope', () => {
  test('a new name is inserted with a fresh id as its version, and counted as a create', () => {
    const ctx = context();
    const { mutation, result } = planCreate(ctx, state([]), PING);
    assert.equal(result.created, true);
    assert.equal(result.command.id, ctx.issued[0]);
    assert.equal(result.command.version, result.command.id);
    assert.equal(result.command.application_id, DEMO_APP_ID);
    assert.equal(result.command.guild_id, null);
    assert.deepEqual(mutation, {
      insert: [result.command],
      update: [],
      delete: [],
      dropPermissionsOf: [],
      countedCreates: 1,
    });
  });

  test('a guild scope stamps the guild id', () => {
    const { result } = planCreate(context(TEST_GUILD_ID), state([]), PING);
    assert.equal(result.command.guild_id, TEST_GUILD_ID);
  });

  test('the same name and type, unchanged: the stored command as is, nothing written', () => {
    const existing = stored('1400000000000000001');
    const ctx = context();
    const { mutation, result } = planCreate(ctx, state([existing]), commandDefinition());
    assert.equal(result.created, false);
    assert.equal(result.command, existing);
    assert.deepEqual(mutation.update, []);
    assert.equal(mutation.countedCreates, 0);
    assert.deepEqual(ctx.issued, []);
  });

  test('the same name and type, changed: an update with a new version and the same id', () => {
    const existing = stored('1400000000000000001');
    const { mutation, result } = planCreate(context(), state([existing]), commandDefinition({ description: 'new' }));
    assert.equal(result.created, false);
    assert.equal(result.command.id, existing.id);
    assert.notEqual(result.command.version, existing.version);
    assert.deepEqual(mutation.update, [result.command]);
    assert.deepEqual(mutation.insert, []);
    assert.equal(mutation.countedCreates, 0);
  });

  test('the same name with another type is another command', () => {
    const existing = stored('1400000000000000001', { type: CommandType.User, name: 'ping', description: '' });
    const { result } = planCreate(context(), state([existing]), PING);
    assert.equal(result.created, true);
  });

  for (const [label, type, limit] of [
    ['CHAT_INPUT', CommandType.ChatInput, 100],
    ['USER', CommandType.User, 15],
    ['MESSAGE', CommandType.Message, 15],
  ] as const) {
    test(`${label}: the ${limit}th is accepted, one more is 400 30032 naming ${limit}`, () => {
      const definition = commandDefinition({
        type,
        name: 'extra',
        description: type === CommandType.ChatInput ? 'd' : '',
      });
      assert.equal(planCreate(context(), state(many(limit - 1, type)), definition).result.created, true);
      assert.deepEqual(
        refusal(() => planCreate(context(), state(many(limit, type)), definition)),
        {
          status: 400,
          body: { message: `Maximum number of application commands reached (${limit})`, code: 30032 },
        },
      );
    });
  }

  test('a full type still takes an upsert of one of its names', () => {
    const full = many(100, CommandType.ChatInput);
    const { result } = planCreate(context(), state(full), commandDefinition({ name: 'c7', description: 'changed' }));
    assert.equal(result.created, false);
    assert.equal(result.command.id, full[7]!.id);
  });

  test('the limits count per type: 100 CHAT_INPUT commands leave room for a USER command', () => {
    assert.equal(planCreate(context(), state(many(100, CommandType.ChatInput)), USER_COMMAND).result.created, true);
  });

  test('entry points: one globally (a second is refused), none in a guild', () => {
    const first = planCreate(context(), state([]), ENTRY_POINT);
    assert.equal(first.result.created, true);
    const second = commandDefinition({ ...ENTRY_POINT, name: 'Other' });
    assert.equal(refusal(() => planCreate(context(), state([first.result.command]), second)).body.code, 30032);
    assert.deepEqual(
      refusal(() => planCreate(context(TEST_GUILD_ID), state([]), ENTRY_POINT)),
      {
        status: 400,
        body: { message: 'Maximum number of application commands reached (0)', code: 30032 },
      },
    );
  });

  test(`the daily create limit: the ${DAILY_COMMAND_CREATES_MAX}th create of the day passes, the next is 429 until midnight UTC`, () => {
    assert.equal(DAILY_COMMAND_CREATES_MAX, 200);
    assert.equal(planCreate(context(), state([], 199), PING).result.created, true);
    assert.deepEqual(
      refusal(() => planCreate(context(), state([], 200), PING)),
      {
        status: 429,
        body: {
          message: DAILY_LIMIT_MESSAGE,
          code: 30034,
          retry_after: HOURS_LEFT_IN_DAY_S,
          global: false,
        },
      },
    );
  });

  test('an upsert is not a create: it passes with the day used up', () => {
    const existing = stored('1400000000000000001');
    const { result } = planCreate(context(), state([existing], 200), commandDefinition({ description: 'new' }));
    assert.equal(result.created, false);
  });
});

describe('planEdit', () => {
  const existing = stored('1400000000000000001');
  const other = stored('1400000000000000002', { name: 'other' });

  test('an unknown id is 404 10063, and the patch never runs', () => {
    let patched = false;
    const refused = refusal(() =>
      planEdit(context(), state([existing]), '1400000000000000999', (d) => {
        patched = true;
        return d;
      }),
    );
    assert.deepEqual(refused, { status: 404, body: { message: 'Unknown application command', code: 10063 } });
    assert.equal(patched, false);
  });

  test("another command's name (same type) is 400 40041", () => {
    assert.deepEqual(
      refusal(() => planEdit(context(), state([existing, other]), existing.id, (d) => ({ ...d, name: 'other' }))),
      { status: 400, body: { message: 'An application command with that name already exists', code: 40041 } },
    );
  });

  test("another type's name is free", () => {
    const user = stored('1400000000000000003', { type: CommandType.User, name: 'Inspect', description: '' });
    const { result } = planEdit(context(), state([existing, user]), existing.id, (d) => ({ ...d, name: 'Inspect' }));
    assert.equal(result.definition.name, 'Inspect');
  });

  test('no change: the stored command as is, nothing written', () => {
    const { mutation, result } = planEdit(context(), state([existing, other]), existing.id, (d) => ({ ...d }));
    assert.equal(result, existing);
    assert.deepEqual(mutation, { insert: [], update: [], delete: [], dropPermissionsOf: [], countedCreates: 0 });
  });

  test('a change keeps the id, moves the version, and keeps the permissions', () => {
    const { mutation, result } = planEdit(context(), state([existing]), existing.id, (d) => ({ ...d, nsfw: true }));
    assert.equal(result.id, existing.id);
    assert.notEqual(result.version, existing.version);
    assert.deepEqual(mutation.update, [result]);
    assert.deepEqual(mutation.dropPermissionsOf, []);
  });

  test('a rename drops the command’s permission overwrites', () => {
    const { mutation } = planEdit(context(), state([existing]), existing.id, (d) => ({ ...d, name: 'pong' }));
    assert.deepEqual(mutation.dropPermissionsOf, [existing.id]);
  });
});

describe('planDelete', () => {
  const existing = stored('1400000000000000001');

  test('deletes the command and its permission overwrites, answering with it', () => {
    const { mutation, result } = planDelete(state([existing]), existing.id);
    assert.equal(result, existing);
    assert.deepEqual(mutation, {
      insert: [],
      update: [],
      delete: [existing.id],
      dropPermissionsOf: [existing.id],
      countedCreates: 0,
    });
  });

  test('an unknown id is 404 10063', () => {
    assert.equal(refusal(() => planDelete(state([existing]), '1400000000000000999')).status, 404);
  });
});

describe('planBulkOverwrite: the list replaces the scope', () => {
  const ping = stored('1400000000000000001');
  const pong = stored('1400000000000000002', { name: 'pong' });
  const inspect = stored('1400000000000000003', { type: CommandType.User, name: 'Inspect', description: '' });
  const entry = (definition: CommandDefinition, id: string | null = null): BulkEntry => ({ id, definition });

  test('an empty list deletes every command and its overwrites', () => {
    const { mutation, result } = planBulkOverwrite(context(), state([ping, pong]), []);
    assert.deepEqual(result, []);
    assert.deepEqual(mutation.delete, [ping.id, pong.id]);
    assert.deepEqual(mutation.dropPermissionsOf, [ping.id, pong.id]);
    assert.equal(mutation.countedCreates, 0);
  });

  test('matched by name and type, unchanged: kept as is (same id and version), nothing written', () => {
    const { mutation, result } = planBulkOverwrite(context(), state([ping]), [entry(commandDefinition())]);
    assert.equal(result[0], ping);
    assert.deepEqual(mutation, { insert: [], update: [], delete: [], dropPermissionsOf: [], countedCreates: 0 });
  });

  test('matched by id: a rename keeps the id, moves the version and drops the overwrites', () => {
    const { mutation, result } = planBulkOverwrite(context(), state([ping]), [
      entry(commandDefinition({ name: 'renamed' }), ping.id),
    ]);
    assert.equal(result[0]!.id, ping.id);
    assert.notEqual(result[0]!.version, ping.version);
    assert.deepEqual(mutation.update, [result[0]]);
    assert.deepEqual(mutation.dropPermissionsOf, [ping.id]);
    assert.deepEqual(mutation.delete, []);
  });

  test('swapping two names by id updates both, creating nothing', () => {
    const { mutation, result } = planBulkOverwrite(context(), state([ping, pong]), [
      entry(commandDefinition({ name: 'pong' }), ping.id),
      entry(commandDefinition({ name: 'ping' }), pong.id),
    ]);
    assert.deepEqual(
      result.map((c) => [c.id, c.definition.name]),
      [
        [ping.id, 'pong'],
        [pong.id, 'ping'],
      ],
    );
    assert.deepEqual(mutation.insert, []);
    assert.equal(mutation.update.length, 2);
    assert.equal(mutation.countedCreates, 0);
  });

  test('an id of another type does not match; the name (within the type) still can', () => {
    const { result } = planBulkOverwrite(context(), state([ping, inspect]), [entry(commandDefinition(), inspect.id)]);
    assert.equal(result[0], ping);
  });

  test('an unknown id falls back to the name, and else creates', () => {
    const ctx = context();
    const { mutation, result } = planBulkOverwrite(ctx, state([ping]), [
      entry(commandDefinition(), '1400000000000000999'),
      entry(commandDefinition({ name: 'fresh' }), '1400000000000000998'),
    ]);
    assert.equal(result[0], ping);
    assert.equal(result[1]!.id, ctx.issued[0]);
    assert.deepEqual(mutation.insert, [result[1]]);
    assert.equal(mutation.countedCreates, 1);
  });

  test('what the list leaves out is deleted with its overwrites; the results keep the list order', () => {
    const { mutation, result } = planBulkOverwrite(context(), state([ping, pong, inspect]), [
      entry(commandDefinition({ name: 'pong' })),
      entry(commandDefinition({ type: CommandType.User, name: 'Inspect', description: '' })),
    ]);
    assert.deepEqual(
      result.map((c) => c.id),
      [pong.id, inspect.id],
    );
    assert.deepEqual(mutation.delete, [ping.id]);
    assert.deepEqual(mutation.dropPermissionsOf, [ping.id]);
  });

  test('type limits apply to the list: 101 CHAT_INPUT entries are 400 30032, 100 pass', () => {
    const entries = (n: number) => many(n, CommandType.ChatInput).map((c) => entry(c.definition));
    assert.equal(planBulkOverwrite(context(), state([]), entries(100)).result.length, 100);
    assert.deepEqual(
      refusal(() => planBulkOverwrite(context(), state([]), entries(101))),
      {
        status: 400,
        body: { message: 'Maximum number of application commands reached (100)', code: 30032 },
      },
    );
  });

  test('the stored list does not count toward the limits, only the new list', () => {
    const full = many(100, CommandType.ChatInput);
    const { result } = planBulkOverwrite(context(), state(full), [entry(commandDefinition({ name: 'only' }))]);
    assert.equal(result.length, 1);
  });

  test('creates count toward the day, matches do not', () => {
    const entries = [
      entry(commandDefinition()),
      entry(commandDefinition({ name: 'a' })),
      entry(commandDefinition({ name: 'b' })),
    ];
    const accepted = planBulkOverwrite(context(), state([ping], 198), entries);
    assert.equal(accepted.mutation.countedCreates, 2);
    assert.deepEqual(
      refusal(() => planBulkOverwrite(context(), state([ping], 199), entries)),
      {
        status: 429,
        body: {
          message: DAILY_LIMIT_MESSAGE,
          code: 30034,
          retry_after: HOURS_LEFT_IN_DAY_S,
          global: false,
        },
      },
    );
    // Only matches: passes however many creates the day has seen.
    assert.equal(planBulkOverwrite(context(), state([ping], 500), [entry(commandDefinition())]).result[0], ping);
  });

  test('removing the entry point is 400 50240; keeping it (by name) passes', () => {
    const launch = stored('1400000000000000009', { ...ENTRY_POINT });
    const refused = refusal(() => planBulkOverwrite(context(), state([ping, launch]), [entry(commandDefinition())]));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50240);
    assert.match(String(refused.body.message), /^You cannot remove this app's Entry Point command in a bulk update/);
    const kept = planBulkOverwrite(context(), state([ping, launch]), [entry(commandDefinition()), entry(ENTRY_POINT)]);
    assert.deepEqual(
      kept.result.map((c) => c.id),
      [ping.id, launch.id],
    );
  });

  test('a list may add an entry point where there was none', () => {
    const { result } = planBulkOverwrite(context(), state([ping]), [entry(commandDefinition()), entry(ENTRY_POINT)]);
    assert.equal(result[1]!.definition.type, CommandType.PrimaryEntryPoint);
  });
});

describe('planEnsureEntryPoint', () => {
  test('creates "Launch" for the app’s integration types, not counted as a daily create', () => {
    const integrationTypes = [0, 1];
    const { mutation, result } = planEnsureEntryPoint(
      context(),
      state([], DAILY_COMMAND_CREATES_MAX),
      integrationTypes,
    );
    assert.ok(result);
    assert.equal(result.definition.type, CommandType.PrimaryEntryPoint);
    assert.equal(result.definition.name, 'Launch');
    assert.deepEqual(result.definition.integration_types, [0, 1]);
    assert.notEqual(result.definition.integration_types, integrationTypes, 'a copy, not the caller’s array');
    assert.deepEqual(mutation.insert, [result]);
    assert.equal(mutation.countedCreates, 0);
  });

  test('an app that has an entry point keeps it: nothing written', () => {
    const launch = stored('1400000000000000009', { ...ENTRY_POINT });
    const { mutation, result } = planEnsureEntryPoint(context(), state([launch]), [0]);
    assert.equal(result, null);
    assert.deepEqual(mutation, { insert: [], update: [], delete: [], dropPermissionsOf: [], countedCreates: 0 });
  });
});
