/**
 * The picker's cached path equals the engine without any cache (fast-check): over random worlds
 * and random sequences of changes (member roles, role bits, channel overwrites and nsfw, owner,
 * age verification, command permissions at both levels, command edits and deletions, app fields,
 * install scopes, and re-reads that hand out equal but new objects, as PostgreSQL does), every
 * member's answer in every channel and locale, read from a service that has cached the answers
 * before the change, is byte for byte the JSON of the uncached service's object form, and the
 * view check the picker makes from its kept facts is `canViewChannel`.
 *
 * The stub store behaves as the real ones do: it hands out the same deeply frozen object for
 * anything that has not changed, and a new one for anything that has.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { APPLICATION_FLAG_EMBEDDED, type StoredCommand } from '../../core/commands/model.js';
import { deepFreeze } from '../../core/frozen-memo.js';
import { ADMINISTRATOR, SEND_MESSAGES, USE_APPLICATION_COMMANDS, VIEW_CHANNEL } from '../../core/permissions/bits.js';
import { canViewChannel } from '../../core/permissions/channel-permissions.js';
import type { GuildCommandPermissions } from '../../core/permissions/command-permissions.js';
import type { Guild, User } from '../../core/world/types.js';
import { CommandIndexService, type CommandIndexStore } from './service.js';
import type { StoredApplication } from '../../store/store.js';
import {
  bitSetOf,
  channelOverwritesOf,
  commandPermissionOf,
  defaultMemberPermissionsOf,
} from '../../../test/helpers/permission-arbitraries.js';
import {
  ACTIVITY_APP_ID,
  ADMIN_ROLE,
  ALICE,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  CATEGORY,
  DAVE,
  DEMO_APP_ID,
  EVERYONE_ROLE,
  GENERAL,
  GUILD_ID,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NSFW_LOUNGE,
  THREAD,
  activityApp,
  definition,
  demoApp,
  testGuild,
  user,
} from '../../../test/permissions-fixtures.js';

/** Deeply frozen, as the stores hand out their cached reads (typed as the plain object, for the stub). */
const frozen = <T>(value: T): T => deepFreeze(value) as T;

const ROLE_IDS = [EVERYONE_ROLE, ADMIN_ROLE, MODERATOR_ROLE, MUTED_ROLE];
const USER_IDS = [ALICE, BOB, CAROL, DAVE];
const CHANNEL_IDS = [GENERAL, NSFW_LOUNGE, ANNOUNCEMENTS, THREAD, CATEGORY];
const COMMAND_IDS = ['1400000000000000001', '1400000000000000002', '1400000000000000003'];
const LOCALES = [null, 'fr', 'de'] as const;
const KEYS = { verifyKey: 'verify', privateKeyPem: 'private' };

const flagBits = bitSetOf([VIEW_CHANNEL, SEND_MESSAGES, USE_APPLICATION_COMMANDS, 1n << 5n, 1n << 13n]);
const roleBits = fc.oneof(
  { weight: 5, arbitrary: flagBits.map((bits) => bits.toString()) },
  { weight: 1, arbitrary: flagBits.map((bits) => (bits | ADMINISTRATOR).toString()) },
);
const overwrites = fc.array(
  commandPermissionOf({ roles: ROLE_IDS, users: USER_IDS, channels: [...CHANNEL_IDS, ALL_CHANNELS] }),
  { maxLength: 6 },
);
const commandFields = fc.record({
  name: fc.constantFrom('alpha', 'beta', 'gamma'),
  name_localizations: fc.constantFrom(null, { fr: 'alpha-fr' }, { de: 'beta-de', fr: 'beta-fr' }),
  default_member_permissions: defaultMemberPermissionsOf(flagBits),
  nsfw: fc.boolean(),
  contexts: fc.constantFrom<number[] | null>(null, [0], [1]),
});
const anyCommand = fc.record({ id: fc.constantFrom(...COMMAND_IDS), guild: fc.boolean(), fields: commandFields });

/** One change to the world, the commands or the permissions. */
const change = fc.oneof(
  fc.record({
    kind: fc.constant('member-roles' as const),
    user: fc.constantFrom(...USER_IDS),
    roles: fc.subarray(ROLE_IDS),
  }),
  fc.record({ kind: fc.constant('role-bits' as const), role: fc.constantFrom(...ROLE_IDS), bits: roleBits }),
  fc.record({
    kind: fc.constant('channel-overwrites' as const),
    channel: fc.constantFrom(GENERAL, NSFW_LOUNGE, ANNOUNCEMENTS),
    overwrites: channelOverwritesOf(ROLE_IDS, USER_IDS, flagBits),
  }),
  fc.record({
    kind: fc.constant('channel-nsfw' as const),
    channel: fc.constantFrom(GENERAL, NSFW_LOUNGE),
    nsfw: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('owner' as const), user: fc.constantFrom(...USER_IDS, '1335036896870400099') }),
  fc.record({ kind: fc.constant('age' as const), user: fc.constantFrom(...USER_IDS), verified: fc.boolean() }),
  fc.record({
    kind: fc.constant('permissions' as const),
    target: fc.constantFrom(DEMO_APP_ID, ...COMMAND_IDS),
    overwrites: fc.option(overwrites, { nil: null }),
  }),
  fc.record({ kind: fc.constant('command-put' as const), command: anyCommand }),
  fc.record({ kind: fc.constant('command-delete' as const), id: fc.constantFrom(...COMMAND_IDS) }),
  fc.record({
    kind: fc.constant('app' as const),
    name: fc.constantFrom('Demo Bot', 'Renamed Bot'),
    flags: fc.constantFrom(0, APPLICATION_FLAG_EMBEDDED),
    integrationTypes: fc.constantFrom([0], [1], [0, 1]),
  }),
  fc.record({
    kind: fc.constant('install' as const),
    scopes: fc.constantFrom(['bot', 'applications.commands'], ['applications.commands'], ['bot'], ['identify']),
  }),
  fc.record({ kind: fc.constant('reread' as const) }),
);
type Change = typeof change extends fc.Arbitrary<infer C> ? C : never;

/** The state the stub store serves, as frozen objects replaced only when they change. */
class StubWorld {
  guild: Guild;
  users: Map<string, User>;
  apps: Map<string, StoredApplication>;
  global: readonly StoredCommand[] = frozen([]);
  ofGuild: readonly StoredCommand[] = frozen([]);
  permissions: readonly GuildCommandPermissions[] = frozen([]);
  /** The Activity app's lists: empty, and the same object on every read, as a store's cache holds it. */
  readonly otherAppLists: readonly never[] = frozen([]);

  constructor() {
    this.guild = frozen(testGuild());
    this.users = new Map(USER_IDS.map((id) => [id, frozen(user(id))]));
    this.apps = new Map([
      [DEMO_APP_ID, frozen({ ...demoApp(), keys: KEYS })],
      [ACTIVITY_APP_ID, frozen({ ...activityApp(), keys: KEYS })],
    ]);
  }

  store(): CommandIndexStore {
    return {
      world: {
        getApplication: async (id) => this.apps.get(id) ?? null,
        listApplications: async () => [...this.apps.values()],
      },
      // Nobody installed an app to their account here.
      oauth2Grants: { listUserInstalls: async () => [], getUserAuthorization: async () => null },
      commands: {
        listCommands: async (scope) => {
          if (scope.applicationId !== DEMO_APP_ID) return this.otherAppLists;
          return scope.guildId === null ? this.global : this.ofGuild;
        },
        listCommandPermissions: async (applicationId) =>
          applicationId === DEMO_APP_ID ? this.permissions : this.otherAppLists,
      },
    };
  }

  private editGuild(edit: (guild: Guild) => void): void {
    const guild = structuredClone<Guild>(this.guild);
    edit(guild);
    this.guild = frozen(guild);
  }

  private putCommand(id: string, guildScope: boolean, fields: Parameters<typeof definition>[0]): void {
    this.global = frozen(this.global.filter((c) => c.id !== id));
    this.ofGuild = frozen(this.ofGuild.filter((c) => c.id !== id));
    const command: StoredCommand = {
      id,
      application_id: DEMO_APP_ID,
      guild_id: guildScope ? GUILD_ID : null,
      version: `${id}-${Math.random()}`,
      definition: definition(guildScope ? { ...fields, contexts: null, integration_types: null } : fields),
    };
    if (guildScope) this.ofGuild = frozen([...this.ofGuild, command]);
    else this.global = frozen([...this.global, command]);
  }

  apply(c: Change): void {
    switch (c.kind) {
      case 'member-roles':
        return this.editGuild((g) => {
          const found = g.members.find((m) => m.user_id === c.user);
          if (found) found.roles = [...c.roles];
        });
      case 'role-bits':
        return this.editGuild((g) => {
          const found = g.roles.find((r) => r.id === c.role);
          if (found) found.permissions = c.bits;
        });
      case 'channel-overwrites':
        return this.editGuild((g) => {
          const found = g.channels.find((ch) => ch.id === c.channel);
          if (found) found.permission_overwrites = c.overwrites;
        });
      case 'channel-nsfw':
        return this.editGuild((g) => {
          const found = g.channels.find((ch) => ch.id === c.channel);
          if (found) found.nsfw = c.nsfw;
        });
      case 'owner':
        return this.editGuild((g) => {
          g.owner_id = c.user;
        });
      case 'age': {
        const old = this.users.get(c.user)!;
        this.users.set(c.user, frozen({ ...old, age_verified: c.verified }));
        return;
      }
      case 'permissions': {
        const rest = this.permissions.filter((p) => p.id !== c.target);
        const added: GuildCommandPermissions[] =
          c.overwrites === null
            ? []
            : [
                {
                  id: c.target,
                  application_id: DEMO_APP_ID,
                  guild_id: GUILD_ID,
                  permissions: c.overwrites,
                },
              ];
        this.permissions = frozen([...rest, ...added]);
        return;
      }
      case 'command-put':
        return this.putCommand(c.command.id, c.command.guild, c.command.fields);
      case 'command-delete':
        this.global = frozen(this.global.filter((cmd) => cmd.id !== c.id));
        this.ofGuild = frozen(this.ofGuild.filter((cmd) => cmd.id !== c.id));
        return;
      case 'app': {
        const old = this.apps.get(DEMO_APP_ID)!;
        this.apps.set(
          DEMO_APP_ID,
          frozen({ ...old, name: c.name, flags: c.flags, integration_types: [...c.integrationTypes] }),
        );
        return;
      }
      case 'install':
        return this.editGuild((g) => {
          const found = g.installs.find((i) => i.application_id === DEMO_APP_ID);
          if (found) found.scopes = [...c.scopes];
        });
      case 'reread': {
        // Equal content, new objects: what a store that parses every read hands out.
        const fresh = <T>(value: T): T => frozen(structuredClone(value));
        this.guild = fresh(this.guild);
        this.users = new Map([...this.users].map(([id, u]) => [id, fresh(u)]));
        this.apps = new Map([...this.apps].map(([id, a]) => [id, fresh(a)]));
        this.global = fresh(this.global);
        this.ofGuild = fresh(this.ofGuild);
        this.permissions = fresh(this.permissions);
        return;
      }
    }
  }
}

/** Every member's picker in every channel and locale: the cached service's bytes against the uncached object form. */
async function assertAllEqual(
  world: StubWorld,
  cached: CommandIndexService,
  uncached: CommandIndexService,
): Promise<void> {
  const { guild } = world;
  for (const userId of USER_IDS) {
    const u = world.users.get(userId)!;
    for (const channelId of CHANNEL_IDS) {
      const channel = guild.channels.find((ch) => ch.id === channelId)!;
      const scene = cached.sceneOf(guild, channel, u);
      const member = guild.members.find((m) => m.user_id === userId);
      assert.equal(scene === null, member === undefined);
      if (!scene || !member) continue;
      assert.equal(
        (scene.facts.channelBits & VIEW_CHANNEL) === VIEW_CHANNEL,
        canViewChannel(guild, member, channel),
        'the view check from the kept facts',
      );
      for (const locale of LOCALES) {
        const bytes = await cached.buildBytes(scene, locale);
        const expected = JSON.stringify(await uncached.build(guild, channel, u, locale));
        assert.equal(bytes.toString('utf8'), expected, `${userId} in ${channelId} (${locale})`);
      }
    }
  }
}

describe('the picker cache', () => {
  it('answers as the uncached engine does, after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyCommand, { maxLength: 4 }),
        fc.array(change, { maxLength: 8 }),
        async (initial, changes) => {
          const world = new StubWorld();
          for (const command of initial) world.apply({ kind: 'command-put', command });
          const cached = new CommandIndexService(world.store(), { cacheBytes: 1024 * 1024 });
          const uncached = new CommandIndexService(world.store(), { cacheBytes: 0 });
          // Twice before any change: the second pass is served from the cache (facts and answers).
          await assertAllEqual(world, cached, uncached);
          await assertAllEqual(world, cached, uncached);
          for (const c of changes) {
            world.apply(c);
            await assertAllEqual(world, cached, uncached);
            await assertAllEqual(world, cached, uncached);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('serves the second read from the cache (the property above tests the cached path)', async () => {
    const world = new StubWorld();
    world.apply({
      kind: 'command-put',
      command: {
        id: COMMAND_IDS[0]!,
        guild: false,
        fields: {
          name: 'alpha',
          name_localizations: null,
          default_member_permissions: null,
          nsfw: false,
          contexts: null,
        },
      },
    });
    const cached = new CommandIndexService(world.store(), { cacheBytes: 1024 * 1024 });
    const channel = world.guild.channels.find((ch) => ch.id === GENERAL)!;
    const read = async () => cached.buildBytes(cached.sceneOf(world.guild, channel, world.users.get(CAROL)!)!, 'fr');
    const first = await read();
    assert.equal(await read(), first, 'the very same bytes: a hit');
    world.apply({
      kind: 'permissions',
      target: COMMAND_IDS[0]!,
      overwrites: [{ id: CAROL, type: 2, permission: false }],
    });
    const after = await read();
    assert.notEqual(after, first);
    assert.ok(!after.toString().includes('alpha'), 'carol is denied the command now');
  });
});
