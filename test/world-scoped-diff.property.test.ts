/**
 * A change of one entity, or a merge (`POST /admin/world`), is diffed over the part of the world it
 * can touch (world-service.ts, world-changes.ts): property, for random changes of users, members,
 * guilds and applications, the events published are exactly those of the whole-world diff of the
 * same change.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ApiError } from '../src/core/io/errors.js';
import { SnowflakeGenerator } from '../src/core/snowflake.js';
import { diffWorlds } from '../src/core/world/diff.js';
import type { WorldEvent } from '../src/core/world/dispatch.js';
import { InProcessEventBus } from '../src/events/bus.js';
import { CommandsService } from '../src/resources/commands/service.js';
import { WorldEvents } from '../src/events/world-events.js';
import { WorldService } from '../src/resources/world/service.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { exampleWorld } from './helpers/world.js';
import { unsignedPaths } from '../src/resources/attachments/rules/signed-urls.js';

/** Publishes into a list instead of a bus. */
class RecordingEvents extends WorldEvents {
  published: WorldEvent[] = [];
  override publishAll(events: readonly WorldEvent[]): void {
    this.published.push(...events);
  }
}

const base = exampleWorld();
const userIds = base.users.map((u) => u.id);
const guildIds = base.guilds.map((g) => g.id);
const appIds = base.applications.map((a) => a.id);

const change = fc.oneof(
  fc.record({ kind: fc.constant('rename-user' as const), id: fc.constantFrom(...userIds), name: fc.string() }),
  fc.record({ kind: fc.constant('delete-user' as const), id: fc.constantFrom(...userIds) }),
  fc.record({
    kind: fc.constant('put-member' as const),
    guild: fc.constantFrom(...guildIds),
    user: fc.constantFrom(...userIds),
    nick: fc.option(fc.string({ maxLength: 8 })),
  }),
  fc.record({
    kind: fc.constant('delete-member' as const),
    guild: fc.constantFrom(...guildIds),
    user: fc.constantFrom(...userIds),
  }),
  fc.record({ kind: fc.constant('rename-guild' as const), id: fc.constantFrom(...guildIds), name: fc.string() }),
  fc.record({ kind: fc.constant('rename-app' as const), id: fc.constantFrom(...appIds), name: fc.string() }),
  fc.record({ kind: fc.constant('delete-app' as const), id: fc.constantFrom(...appIds) }),
  fc.record({
    kind: fc.constant('merge' as const),
    users: fc.subarray(userIds, { maxLength: 3 }),
    guilds: fc.subarray(guildIds, { maxLength: 2 }),
    apps: fc.subarray(appIds, { maxLength: 2 }),
    name: fc.string({ maxLength: 8 }),
  }),
);

type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

async function apply(world: WorldService, store: SqliteStore, c: Change): Promise<void> {
  switch (c.kind) {
    case 'rename-user':
      await world.updateUser(c.id, (u) => ({ ...u, username: c.name }));
      return;
    case 'delete-user':
      await world.deleteUser(c.id);
      return;
    case 'put-member': {
      if (!(await store.world.getUser(c.user))) return;
      const member = { user_id: c.user, roles: [], nick: c.nick, joined_at: '2026-01-01T00:00:00.000Z' };
      await world.putGuildMember(c.guild, member);
      return;
    }
    case 'delete-member':
      await world.deleteGuildMember(c.guild, c.user);
      return;
    case 'rename-guild': {
      const guild = await store.world.getGuild(c.id);
      if (guild) await world.putGuild({ ...structuredClone(guild), name: c.name });
      return;
    }
    case 'rename-app': {
      const app = await world.getApplication(c.id);
      if (app) await world.putApplication({ ...app, name: c.name });
      return;
    }
    case 'delete-app':
      await world.deleteApplication(c.id);
      return;
    case 'merge': {
      // The example world's objects renamed (a deleted one comes back), its guilds without one member.
      const pick = <T extends { id: string }>(list: T[], ids: string[]) => list.filter((x) => ids.includes(x.id));
      const guilds = pick(base.guilds, c.guilds).map((g) => ({ ...g, name: c.name, members: g.members.slice(1) }));
      await world
        .merge({
          applications: pick(base.applications, c.apps).map((a) => ({ ...a, name: c.name })),
          users: pick(base.users, c.users).map((u) => ({ ...u, username: c.name })),
          guilds,
          oauth2_tokens: [],
        })
        .catch((error: unknown) => {
          // Refused (a reference to what was deleted): nothing changed.
          if (!(error instanceof ApiError)) throw error;
        });
    }
  }
}

describe('scoped world diffs', () => {
  it('property: the events of a change equal the whole-world diff of it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        const store = new SqliteStore({ path: ':memory:' });
        try {
          const events = new RecordingEvents(
            { world: store.world, members: store.members },
            new InProcessEventBus(),
            store.interactions,
            { urlOf: async () => unsignedPaths },
          );
          const commands = new CommandsService({ store: store.commands, ids: new SnowflakeGenerator(1, 1) });
          const world = new WorldService(
            store.world,
            store.members,
            commands,
            events,
            store.interactions,
            store.entitlements,
          );
          await store.world.replaceWorld(exampleWorld());
          for (const c of changes) {
            const before = await store.world.exportWorld();
            events.published = [];
            await apply(world, store, c);
            const expected = diffWorlds(before, await store.world.exportWorld());
            assert.deepEqual(events.published, expected, JSON.stringify(c));
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
