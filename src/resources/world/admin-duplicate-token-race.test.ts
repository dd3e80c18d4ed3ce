/**
 * Two nodes on one PostgreSQL schema, each with its world service: node B checks a token before
 * node A stores it and writes after (the interleaving forced by holding B's check open). The
 * database refuses B's write, and B answers as for any duplicate token: a 400 naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WORLD_DUPLICATE } from '../../core/io/codes.js';
import { ApiError } from '../../core/io/errors.js';
import { SnowflakeGenerator } from '../../core/snowflake.js';
import { CommandsService } from '../commands/service.js';
import { InProcessEventBus } from '../../events/bus.js';
import { WorldEvents } from '../../events/world-events.js';
import { unsignedPaths } from '../attachments/rules/signed-urls.js';
import { WorldService } from './service.js';
import { PostgresStore } from '../../store/postgres/index.js';
import type { WorldStore } from '../../store/store.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable } from '../../../test/helpers/postgres.js';
import { ALICE, APP_A, APP_B, application, BOB, TOKEN_A, user } from '../../../test/store-contract/fixtures.js';

/** Node B's world store, whose token lookups answer only once `release` is called (a stale answer). */
function heldLookups(world: WorldStore): { world: WorldStore; release: () => void; asked: Promise<void> } {
  let release!: () => void;
  let markAsked!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const asked = new Promise<void>((resolve) => (markAsked = resolve));
  const hold = async <T>(answer: Promise<T>): Promise<T> => {
    const value = await answer;
    markAsked();
    await released;
    return value;
  };
  const held = Object.create(world) as WorldStore;
  held.findUserByToken = (token) => hold(world.findUserByToken(token));
  held.findApplicationByBotToken = (token) => hold(world.findApplicationByBotToken(token));
  return { world: held, release, asked };
}

function isDuplicateOf(field: string) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 400);
    const body = JSON.stringify(error.toBody());
    assert.ok(body.includes(WORLD_DUPLICATE) && body.includes(`"${field}"`), body);
    return true;
  };
}

describe('a token stored by two nodes at once', () => {
  const schema = freshSchemaName('slashd_token_race');
  let a: PostgresStore;
  let b: PostgresStore;
  const service = (world: WorldStore, store: PostgresStore) =>
    new WorldService(
      world,
      store.members,
      new CommandsService({ store: store.commands, ids: new SnowflakeGenerator(1, 1) }),
      new WorldEvents({ world, members: store.members }, new InProcessEventBus(), store.interactions, {
        urlOf: async () => unsignedPaths,
      }),
      store.interactions,
      store.entitlements,
    );

  before(async () => {
    const open = () => PostgresStore.open({ connectionString: postgresConnectionString, schema, max: 2 });
    a = await open().catch((error: unknown) => {
      throw unreachable(error);
    });
    b = await open();
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await dropSchema(schema);
  });

  it('users: the second node to write the token gets the duplicate-token 400', async () => {
    const onB = heldLookups(b.world);
    const writeOnB = service(onB.world, b).putUser(user(BOB, 'raced-token'));
    await onB.asked;
    await service(a.world, a).putUser(user(ALICE, 'raced-token'));
    onB.release();
    await assert.rejects(writeOnB, isDuplicateOf('token'));
    assert.equal((await a.world.findUserByToken('raced-token'))?.id, ALICE);
    assert.equal(await a.world.getUser(BOB), null);
  });

  it('applications: the second node to write the bot token gets the duplicate-token 400', async () => {
    const onB = heldLookups(b.world);
    const writeOnB = service(onB.world, b).putApplication(application(APP_B, TOKEN_A));
    await onB.asked;
    await service(a.world, a).putApplication(application(APP_A, TOKEN_A));
    onB.release();
    await assert.rejects(writeOnB, isDuplicateOf('bot_token'));
    assert.equal((await a.world.findApplicationByBotToken(TOKEN_A))?.id, APP_A);
    assert.equal(await a.world.getApplication(APP_B), null);
  });
});
