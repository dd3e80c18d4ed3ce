/**
 * fast-check generators of command pickers, shared by the fast path's properties
 * (test/permissions-fast-path.test.ts) and the explainer's (test/permissions-explain.test.ts):
 * one member in one channel of the test guild (roles, channel overwrites, threads, age, install),
 * the demo app's commands with every availability field, their stored permissions objects (with
 * others' and duplicates mixed in), and a stub of the three store reads the index service makes.
 */
import fc from 'fast-check';
import type { StoredCommand } from '../../src/core/commands/model.js';
import { APPLICATION_FLAG_EMBEDDED } from '../../src/core/commands/model.js';
import {
  ADMINISTRATOR,
  SEND_MESSAGES,
  USE_APPLICATION_COMMANDS,
  VIEW_CHANNEL,
} from '../../src/core/permissions/bits.js';
import type { CommandPermission, GuildCommandPermissions } from '../../src/core/permissions/command-permissions.js';
import type { AccessSceneInput } from '../../src/core/permissions/fast-access.js';
import type { Channel, Guild, PermissionOverwrite } from '../../src/core/world/types.js';
import type { CommandIndexStore } from '../../src/resources/command-index/service.js';
import type { StoredApplication } from '../../src/store/store.js';
import {
  ADMIN_ROLE,
  ALICE,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  CATEGORY,
  DAVE,
  DEMO_APP_ID,
  ERIN,
  EVERYONE_ROLE,
  GENERAL,
  GUILD_ID,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NSFW_LOUNGE,
  OTHER_APP_ID,
  SECOND_GUILD_ID,
  THREAD,
  channel,
  definition,
  demoApp,
  member,
  testGuild,
  user,
} from '../permissions-fixtures.js';
import {
  bitSetOf,
  channelOverwritesOf,
  commandPermissionOf,
  defaultMemberPermissionsOf,
} from './permission-arbitraries.js';

/** A role id the guild does not have: a member may carry it, an overwrite may name it. */
const UNKNOWN_ROLE = '1345183757107200099';
/** A thread of the age-restricted channel, and one whose parent is not in the world. */
const NSFW_THREAD = '1345183757107200015';
const ORPHAN_THREAD = '1345183757107200016';
const MISSING_PARENT = '1345183757107200098';

const ROLE_IDS = [EVERYONE_ROLE, ADMIN_ROLE, MODERATOR_ROLE, MUTED_ROLE, UNKNOWN_ROLE];
const USER_IDS = [ALICE, BOB, CAROL, DAVE, ERIN];
const CHANNEL_IDS = [GENERAL, ANNOUNCEMENTS, NSFW_LOUNGE, CATEGORY, THREAD, NSFW_THREAD, ORPHAN_THREAD, ALL_CHANNELS];
export const COMMAND_IDS = ['1400000000000000001', '1400000000000000002', '1400000000000000003', '1400000000000000004'];

// ---- generators ----

/** Overwrites as stored, and then some: duplicates (same type and id, either permission) and ids of the wrong kind. */
const commandPermission = commandPermissionOf({ roles: ROLE_IDS, users: USER_IDS, channels: CHANNEL_IDS }, true);
const overwriteList = fc.array(commandPermission, { maxLength: 12 });
export const optionalOverwrites = fc.option(overwriteList, { nil: null });

const flagBits = bitSetOf([VIEW_CHANNEL, SEND_MESSAGES, USE_APPLICATION_COMMANDS, 1n << 5n, 1n << 13n, 1n << 28n]);
/** A role's bit set: ADMINISTRATOR sometimes, and now and then one that is malformed. */
const roleBits = fc.oneof(
  { weight: 6, arbitrary: flagBits.map((bits) => bits.toString()) },
  { weight: 1, arbitrary: flagBits.map((bits) => (bits | ADMINISTRATOR).toString()) },
  { weight: 1, arbitrary: fc.constantFrom('', '-1', '0x10', 'abc') },
);

/** Channel overwrites for @everyone, the roles and the members. */
const channelOverwrites = channelOverwritesOf(ROLE_IDS, USER_IDS, flagBits);

export const defaultMemberPermissions = defaultMemberPermissionsOf(flagBits, ['8', 'abc', '-1', '']);

/** Any command of the demo app: global or of either guild, every type, every availability field. */
export const anyCommand: fc.Arbitrary<StoredCommand> = fc
  .record({
    id: fc.constantFrom(...COMMAND_IDS),
    guildId: fc.constantFrom<string | null>(null, null, GUILD_ID, SECOND_GUILD_ID),
    fields: fc.record({
      type: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
      default_member_permissions: defaultMemberPermissions,
      default_permission: fc.boolean(),
      nsfw: fc.boolean(),
      contexts: fc.constantFrom<number[] | null>(null, [], [0], [1, 2], [0, 1, 2]),
      integration_types: fc.constantFrom<number[] | null>(null, [], [0], [1], [0, 1]),
    }),
  })
  .map(({ id, guildId, fields }) => ({
    id,
    application_id: DEMO_APP_ID,
    guild_id: guildId,
    version: id,
    definition: definition(fields),
  }));

const guildArbitrary: fc.Arbitrary<Guild> = fc
  .record({
    ownerId: fc.constantFrom(ERIN, ALICE, CAROL),
    everyoneBits: roleBits,
    moderatorBits: roleBits,
    general: channelOverwrites,
    announcements: channelOverwrites,
    nsfwLounge: channelOverwrites,
  })
  .map((g) => {
    const guild = testGuild();
    guild.owner_id = g.ownerId;
    guild.roles = guild.roles.map((role) => {
      if (role.id === EVERYONE_ROLE) return { ...role, permissions: g.everyoneBits };
      if (role.id === MODERATOR_ROLE) return { ...role, permissions: g.moderatorBits };
      return role;
    });
    const overwritesOf: Record<string, PermissionOverwrite[]> = {
      [GENERAL]: g.general,
      [ANNOUNCEMENTS]: g.announcements,
      [NSFW_LOUNGE]: g.nsfwLounge,
    };
    guild.channels = [
      ...guild.channels.map((c) => ({ ...c, permission_overwrites: overwritesOf[c.id] ?? c.permission_overwrites })),
      // Everyone joined this private thread: it stands for a thread seen through its parent.
      channel(NSFW_THREAD, 12, 'nsfw-thread', {
        parent_id: NSFW_LOUNGE,
        thread_member_ids: [...USER_IDS, DEMO_APP_ID],
      }),
      channel(ORPHAN_THREAD, 11, 'orphan', { parent_id: MISSING_PARENT, nsfw: true, permission_overwrites: g.general }),
    ];
    return guild;
  });

/** One member in one channel, for the demo app: everything but the command and its overwrites. */
export const sceneInput: fc.Arbitrary<AccessSceneInput> = fc
  .record({
    guild: guildArbitrary,
    userId: fc.constantFrom(...USER_IDS),
    roles: fc.option(fc.array(fc.constantFrom(...ROLE_IDS), { maxLength: 5 }), { nil: undefined }),
    ageVerified: fc.boolean(),
    channelId: fc.constantFrom(GENERAL, ANNOUNCEMENTS, NSFW_LOUNGE, CATEGORY, THREAD, NSFW_THREAD, ORPHAN_THREAD),
    appFlags: fc.constantFrom(0, APPLICATION_FLAG_EMBEDDED),
    appIntegrationTypes: fc.constantFrom<number[]>([0], [1], [0, 1]),
    installed: fc.boolean(),
  })
  .map((s) => {
    const known = s.guild.members.find((candidate) => candidate.user_id === s.userId) ?? member(s.userId);
    return {
      app: demoApp({ flags: s.appFlags, integration_types: s.appIntegrationTypes }),
      guild: s.guild,
      member: s.roles ? { ...known, roles: s.roles } : known,
      user: user(s.userId, { age_verified: s.ageVerified }),
      channel: s.guild.channels.find((c) => c.id === s.channelId) as Channel,
      installed: s.installed,
    };
  });

/** A permissions object of an app in a guild. */
export function permissionsObject(
  id: string,
  permissions: CommandPermission[],
  applicationId = DEMO_APP_ID,
  guildId = GUILD_ID,
): GuildCommandPermissions {
  return { id, application_id: applicationId, guild_id: guildId, permissions };
}

/**
 * A picker's input: commands with distinct ids, their stored objects, the app-level one, and
 * objects that must be ignored: another app's, another guild's, and a later duplicate of an id.
 */
export const pickerCase = fc
  .record({
    commands: fc.uniqueArray(anyCommand, { selector: (c) => c.id, maxLength: COMMAND_IDS.length }),
    commandOverwrites: fc.array(optionalOverwrites, { minLength: COMMAND_IDS.length, maxLength: COMMAND_IDS.length }),
    appOverwrites: optionalOverwrites,
    foreign: fc.array(
      fc.record({
        id: fc.constantFrom(DEMO_APP_ID, ...COMMAND_IDS),
        permissions: overwriteList,
        kind: fc.constantFrom('app', 'guild', 'duplicate'),
      }),
      { maxLength: 3 },
    ),
  })
  .map((p) => {
    const guildPermissions: GuildCommandPermissions[] = [];
    if (p.appOverwrites) guildPermissions.push(permissionsObject(DEMO_APP_ID, p.appOverwrites));
    p.commands.forEach((command, i) => {
      const overwrites = p.commandOverwrites[i];
      if (overwrites) guildPermissions.push(permissionsObject(command.id, overwrites));
    });
    for (const f of p.foreign) {
      if (f.kind === 'app') guildPermissions.unshift(permissionsObject(f.id, f.permissions, OTHER_APP_ID));
      else if (f.kind === 'guild')
        guildPermissions.unshift(permissionsObject(f.id, f.permissions, DEMO_APP_ID, SECOND_GUILD_ID));
      else guildPermissions.push(permissionsObject(f.id, f.permissions));
    }
    return { commands: p.commands, guildPermissions };
  });

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A frozen deep copy, as the store hands out its cached read results. */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

/** The store's three reads the index makes, from fixed data; `frozen` as the SQLite store caches them. */
export function stubStore(
  apps: StoredApplication[],
  commands: StoredCommand[],
  guildPermissions: GuildCommandPermissions[],
  frozen: boolean,
): CommandIndexStore {
  const keep = <T>(value: T): T => (frozen ? frozenCopy(value) : structuredClone(value));
  // Built once, as the store caches them: the same (frozen) objects on every read.
  const global = keep(commands.filter((c) => c.guild_id === null));
  const ofGuild = keep(commands.filter((c) => c.guild_id !== null));
  const permissions = keep(guildPermissions);
  return {
    world: {
      getApplication: async (id) => structuredClone(apps.find((app) => app.id === id) ?? null),
      listApplications: async () => structuredClone(apps),
    },
    // Nobody installed an app to their account here.
    oauth2Grants: { listUserInstalls: async () => [], getUserAuthorization: async () => null },
    commands: {
      listCommands: async (scope) => {
        if (scope.applicationId !== DEMO_APP_ID) return [];
        return scope.guildId === null ? global : ofGuild.filter((c) => c.guild_id === scope.guildId);
      },
      listCommandPermissions: async (applicationId) => (applicationId === DEMO_APP_ID ? permissions : []),
    },
  };
}

export const KEYS = { verifyKey: 'verify', privateKeyPem: 'private' };
