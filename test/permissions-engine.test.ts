import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEND_MESSAGES, USE_APPLICATION_COMMANDS } from '../src/core/permissions/bits.js';
import { AccessReason, evaluateCommandAccess, type AccessReasonCode } from '../src/core/permissions/engine.js';
import type { Guild } from '../src/core/world/types.js';
import {
  ALICE,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  DAVE,
  EVERYONE_ROLE,
  GENERAL,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NSFW_LOUNGE,
  SECOND_GUILD_ID,
  THREAD,
  GUILD_ID,
  accessInput,
  activityApp,
  channel,
  channelOverwrite,
  demoApp,
  globalCommand,
  guildCommand,
  guildOwnedByErin,
  overwrite,
  roleOverwrite,
  testGuild,
  userOverwrite,
  type AccessScenario,
} from './permissions-fixtures.js';

interface Row {
  name: string;
  scenario: () => AccessScenario;
  allowed: boolean;
  reason: AccessReasonCode;
}

const MANAGE_GUILD_BITS = '32';
const NSFW_THREAD = '1345183757107200020';

function guildWithNsfwThread(): Guild {
  const guild = testGuild();
  guild.channels.push(channel(NSFW_THREAD, 11, 'spicy-thread', { parent_id: NSFW_LOUNGE }));
  return guild;
}

/** The test guild where #general denies @everyone USE_APPLICATION_COMMANDS. */
function guildWithoutCommandsInGeneral(): Guild {
  const guild = testGuild();
  guild.channels = guild.channels.map((c) =>
    c.id === GENERAL ? { ...c, permission_overwrites: [overwrite(EVERYONE_ROLE, 0, 0n, USE_APPLICATION_COMMANDS)] } : c,
  );
  return guild;
}

function check(rows: readonly Row[]): void {
  for (const row of rows) {
    it(`${row.name} → ${row.allowed ? 'allowed' : 'denied'} (${row.reason})`, () => {
      const decision = evaluateCommandAccess(accessInput(row.scenario()));
      assert.deepEqual(decision, { allowed: row.allowed, reason: row.reason });
    });
  }
}

describe('engine: availability (outside the overwrite order, binds administrators too)', () => {
  check([
    {
      name: 'a guild command of another guild, even for the owner',
      scenario: () => ({ userId: ALICE, command: guildCommand(SECOND_GUILD_ID) }),
      allowed: false,
      reason: AccessReason.OtherGuild,
    },
    {
      name: 'a guild command of this guild',
      scenario: () => ({ command: guildCommand(GUILD_ID) }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'a global command whose contexts leave out GUILD, even for the owner',
      scenario: () => ({ userId: ALICE, command: globalCommand({ contexts: [1, 2] }) }),
      allowed: false,
      reason: AccessReason.Context,
    },
    {
      name: 'a global command whose contexts include GUILD',
      scenario: () => ({ command: globalCommand({ contexts: [0, 1] }) }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'a global command whose integration_types leave out GUILD_INSTALL, even for the owner',
      scenario: () => ({ userId: ALICE, command: globalCommand({ integration_types: [1], contexts: [0, 1, 2] }) }),
      allowed: false,
      reason: AccessReason.IntegrationType,
    },
    {
      name: "a global command without integration_types takes the app's (user install only)",
      scenario: () => ({
        app: demoApp({ integration_types: [1] }),
        command: globalCommand({ integration_types: null }),
      }),
      allowed: false,
      reason: AccessReason.IntegrationType,
    },
    {
      name: "a global command without integration_types takes the app's (guild install)",
      scenario: () => ({ command: globalCommand({ integration_types: null }) }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'an app not installed in the guild, even for the owner',
      scenario: () => ({ userId: ALICE, installed: false }),
      allowed: false,
      reason: AccessReason.NotInstalled,
    },
    {
      name: 'a guild command of an app no longer installed',
      scenario: () => ({ command: guildCommand(GUILD_ID), installed: false }),
      allowed: false,
      reason: AccessReason.NotInstalled,
    },
    {
      name: 'an entry point command of an app without Activities, even for the owner',
      scenario: () => ({ userId: ALICE, command: globalCommand({ type: 4, handler: 2, description: '' }) }),
      allowed: false,
      reason: AccessReason.EntryPointWithoutActivities,
    },
    {
      name: 'an entry point command of an EMBEDDED app',
      scenario: () => ({ app: activityApp(), command: globalCommand({ type: 4, handler: 2, description: '' }) }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'an age-restricted command for a user who is not age-verified',
      scenario: () => ({ userId: DAVE, channelId: NSFW_LOUNGE, command: globalCommand({ nsfw: true }) }),
      allowed: false,
      reason: AccessReason.NsfwUser,
    },
    {
      name: 'an age-restricted command for an owner who is not age-verified',
      scenario: () => ({
        userId: ALICE,
        userOverrides: { age_verified: false },
        channelId: NSFW_LOUNGE,
        command: globalCommand({ nsfw: true }),
      }),
      allowed: false,
      reason: AccessReason.NsfwUser,
    },
    {
      name: 'an age-restricted command in a channel that is not age-restricted',
      scenario: () => ({ channelId: GENERAL, command: globalCommand({ nsfw: true }) }),
      allowed: false,
      reason: AccessReason.NsfwChannel,
    },
    {
      name: 'an age-restricted command for an administrator in a channel that is not age-restricted',
      scenario: () => ({
        guild: guildOwnedByErin(),
        userId: ALICE,
        channelId: GENERAL,
        command: globalCommand({ nsfw: true }),
      }),
      allowed: false,
      reason: AccessReason.NsfwChannel,
    },
    {
      name: 'an age-restricted command in a thread of a channel that is not age-restricted',
      scenario: () => ({ channelId: THREAD, command: globalCommand({ nsfw: true }) }),
      allowed: false,
      reason: AccessReason.NsfwChannel,
    },
    {
      name: 'an age-restricted command for an age-verified user in an age-restricted channel',
      scenario: () => ({ channelId: NSFW_LOUNGE, command: globalCommand({ nsfw: true }) }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'an age-restricted command in a thread of an age-restricted channel',
      scenario: () => ({
        guild: guildWithNsfwThread(),
        channelId: NSFW_THREAD,
        command: globalCommand({ nsfw: true }),
      }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
  ]);
});

describe('engine: owners and administrators', () => {
  const everythingDenied = () => ({
    commandPermissions: [
      channelOverwrite(GENERAL, false),
      userOverwrite(ALICE, false),
      roleOverwrite(EVERYONE_ROLE, false),
    ],
    appPermissions: [channelOverwrite(ALL_CHANNELS, false), userOverwrite(ALICE, false)],
    command: globalCommand({ default_member_permissions: '0' }),
  });
  check([
    {
      name: 'the owner, with every overwrite against them and default_member_permissions "0"',
      scenario: () => ({ ...everythingDenied(), userId: ALICE }),
      allowed: true,
      reason: AccessReason.Owner,
    },
    {
      name: 'an administrator, with every overwrite against them and default_member_permissions "0"',
      scenario: () => ({ ...everythingDenied(), guild: guildOwnedByErin(), userId: ALICE }),
      allowed: true,
      reason: AccessReason.Administrator,
    },
    {
      name: 'an administrator in a channel that denies @everyone USE_APPLICATION_COMMANDS',
      scenario: () => ({ guild: { ...guildWithoutCommandsInGeneral(), owner_id: '1' }, userId: ALICE }),
      allowed: true,
      reason: AccessReason.Administrator,
    },
  ]);
});

describe('engine: USE_APPLICATION_COMMANDS gates every overwrite', () => {
  check([
    {
      name: 'a member without it in the channel, though a command-level user overwrite allows',
      scenario: () => ({ guild: guildWithoutCommandsInGeneral(), commandPermissions: [userOverwrite(BOB, true)] }),
      allowed: false,
      reason: AccessReason.MissingUseApplicationCommands,
    },
    {
      name: 'a member without it in a thread whose parent denies it',
      scenario: () => ({ guild: guildWithoutCommandsInGeneral(), channelId: THREAD }),
      allowed: false,
      reason: AccessReason.MissingUseApplicationCommands,
    },
    {
      name: 'a member whose own channel overwrite gives it back',
      scenario: () => {
        const guild = guildWithoutCommandsInGeneral();
        guild.channels = guild.channels.map((c) =>
          c.id === GENERAL
            ? {
                ...c,
                permission_overwrites: [...c.permission_overwrites, overwrite(BOB, 1, USE_APPLICATION_COMMANDS, 0n)],
              }
            : c,
        );
        return { guild };
      },
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
  ]);
});

describe('engine step 1: channels', () => {
  check([
    {
      name: 'a command overwrite false for the channel',
      scenario: () => ({ commandPermissions: [channelOverwrite(GENERAL, false), userOverwrite(BOB, true)] }),
      allowed: false,
      reason: AccessReason.ChannelDenied,
    },
    {
      name: 'a command overwrite false for the parent of a thread',
      scenario: () => ({ channelId: THREAD, commandPermissions: [channelOverwrite(GENERAL, false)] }),
      allowed: false,
      reason: AccessReason.ChannelDenied,
    },
    {
      name: 'a command overwrite false for another channel only',
      scenario: () => ({ commandPermissions: [channelOverwrite(ANNOUNCEMENTS, false)] }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'a command overwrite true for the channel beats its all-channels false',
      scenario: () => ({
        commandPermissions: [channelOverwrite(ALL_CHANNELS, false), channelOverwrite(GENERAL, true)],
      }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'a command all-channels overwrite false',
      scenario: () => ({
        commandPermissions: [channelOverwrite(ALL_CHANNELS, false), channelOverwrite(ANNOUNCEMENTS, true)],
      }),
      allowed: false,
      reason: AccessReason.AllChannelsDenied,
    },
    {
      name: 'a command overwrite true for the channel beats an app-level false for it',
      scenario: () => ({
        commandPermissions: [channelOverwrite(GENERAL, true)],
        appPermissions: [channelOverwrite(GENERAL, false)],
      }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'a command all-channels true beats an app-level false for the channel',
      scenario: () => ({
        commandPermissions: [channelOverwrite(ALL_CHANNELS, true)],
        appPermissions: [channelOverwrite(GENERAL, false)],
      }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'an app-level overwrite false for the channel (the command has none)',
      scenario: () => ({
        commandPermissions: [userOverwrite(BOB, true)],
        appPermissions: [channelOverwrite(GENERAL, false)],
      }),
      allowed: false,
      reason: AccessReason.AppChannelDenied,
    },
    {
      name: 'an app-level overwrite true for the channel beats the app all-channels false',
      scenario: () => ({ appPermissions: [channelOverwrite(ALL_CHANNELS, false), channelOverwrite(GENERAL, true)] }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'an app-level all-channels overwrite false',
      scenario: () => ({ appPermissions: [channelOverwrite(ALL_CHANNELS, false)] }),
      allowed: false,
      reason: AccessReason.AppAllChannelsDenied,
    },
    {
      name: 'an app-level overwrite false for the parent of a thread',
      scenario: () => ({ channelId: THREAD, appPermissions: [channelOverwrite(GENERAL, false)] }),
      allowed: false,
      reason: AccessReason.AppChannelDenied,
    },
  ]);
});

describe('engine step 2: users and roles, command level (final)', () => {
  check([
    {
      name: 'a command overwrite true for the member beats default_member_permissions "0" and app-level denials',
      scenario: () => ({
        command: globalCommand({ default_member_permissions: '0' }),
        commandPermissions: [userOverwrite(BOB, true), roleOverwrite(MODERATOR_ROLE, false)],
        appPermissions: [userOverwrite(BOB, false)],
      }),
      allowed: true,
      reason: AccessReason.UserAllowed,
    },
    {
      name: 'a command overwrite false for the member beats a role true',
      scenario: () => ({ commandPermissions: [roleOverwrite(MODERATOR_ROLE, true), userOverwrite(BOB, false)] }),
      allowed: false,
      reason: AccessReason.UserDenied,
    },
    {
      name: 'command role overwrites: one true among falses allows (final)',
      scenario: () => ({
        userId: DAVE,
        roles: [MODERATOR_ROLE, MUTED_ROLE],
        command: globalCommand({ default_member_permissions: '0' }),
        commandPermissions: [
          roleOverwrite(MODERATOR_ROLE, false),
          roleOverwrite(MUTED_ROLE, true),
          roleOverwrite(EVERYONE_ROLE, false),
        ],
      }),
      allowed: true,
      reason: AccessReason.RoleAllowed,
    },
    {
      name: 'command role overwrites all false beat a @everyone true',
      scenario: () => ({
        commandPermissions: [roleOverwrite(MODERATOR_ROLE, false), roleOverwrite(EVERYONE_ROLE, true)],
      }),
      allowed: false,
      reason: AccessReason.RoleDenied,
    },
    {
      name: 'a command role overwrite for a role the member lacks does not apply',
      scenario: () => ({ commandPermissions: [roleOverwrite(MUTED_ROLE, false)] }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'a command @everyone overwrite true (final)',
      scenario: () => ({
        userId: CAROL,
        command: globalCommand({ default_member_permissions: '0' }),
        commandPermissions: [roleOverwrite(EVERYONE_ROLE, true)],
        appPermissions: [roleOverwrite(EVERYONE_ROLE, false)],
      }),
      allowed: true,
      reason: AccessReason.EveryoneAllowed,
    },
    {
      name: 'a command @everyone overwrite false',
      scenario: () => ({
        userId: CAROL,
        commandPermissions: [roleOverwrite(EVERYONE_ROLE, false)],
        appPermissions: [userOverwrite(CAROL, true)],
      }),
      allowed: false,
      reason: AccessReason.EveryoneDenied,
    },
    {
      name: 'a member who holds the @everyone id in their roles is still judged by the @everyone rule',
      scenario: () => ({
        userId: CAROL,
        roles: [EVERYONE_ROLE],
        commandPermissions: [roleOverwrite(EVERYONE_ROLE, false)],
      }),
      allowed: false,
      reason: AccessReason.EveryoneDenied,
    },
    {
      name: 'command overwrites naming someone else fall through to the app level',
      scenario: () => ({
        commandPermissions: [userOverwrite(CAROL, true)],
        appPermissions: [userOverwrite(BOB, false)],
      }),
      allowed: false,
      reason: AccessReason.AppUserDenied,
    },
  ]);
});

describe('engine step 2: users and roles, app level (not final)', () => {
  check([
    {
      name: 'an app-level overwrite false for the member',
      scenario: () => ({ appPermissions: [userOverwrite(BOB, false), roleOverwrite(MODERATOR_ROLE, true)] }),
      allowed: false,
      reason: AccessReason.AppUserDenied,
    },
    {
      name: 'an app-level overwrite true for the member goes on to default_member_permissions',
      scenario: () => ({
        command: globalCommand({ default_member_permissions: '0' }),
        appPermissions: [userOverwrite(BOB, true)],
      }),
      allowed: false,
      reason: AccessReason.DefaultMemberPermissionsZero,
    },
    {
      name: 'app-level role overwrites all false',
      scenario: () => ({ appPermissions: [roleOverwrite(MODERATOR_ROLE, false), roleOverwrite(EVERYONE_ROLE, true)] }),
      allowed: false,
      reason: AccessReason.AppRoleDenied,
    },
    {
      name: 'an app-level role overwrite true goes on to default_member_permissions',
      scenario: () => ({
        userId: DAVE,
        roles: [MODERATOR_ROLE, MUTED_ROLE],
        command: globalCommand({ default_member_permissions: MANAGE_GUILD_BITS }),
        appPermissions: [roleOverwrite(MUTED_ROLE, false), roleOverwrite(MODERATOR_ROLE, true)],
      }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsMet,
    },
    {
      name: 'an app-level @everyone overwrite false',
      scenario: () => ({ userId: CAROL, appPermissions: [roleOverwrite(EVERYONE_ROLE, false)] }),
      allowed: false,
      reason: AccessReason.AppEveryoneDenied,
    },
    {
      name: 'an app-level @everyone overwrite true goes on to default_member_permissions',
      scenario: () => ({
        userId: CAROL,
        command: globalCommand({ default_member_permissions: MANAGE_GUILD_BITS }),
        appPermissions: [roleOverwrite(EVERYONE_ROLE, true)],
      }),
      allowed: false,
      reason: AccessReason.MissingDefaultMemberPermissions,
    },
    {
      name: 'app-level overwrites that name someone else go on to default_member_permissions',
      scenario: () => ({ appPermissions: [userOverwrite(CAROL, false), roleOverwrite(MUTED_ROLE, false)] }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
  ]);
});

describe('engine step 3: default_member_permissions', () => {
  check([
    {
      name: 'null',
      scenario: () => ({ userId: CAROL }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    },
    {
      name: 'null with the deprecated default_permission false',
      scenario: () => ({ userId: CAROL, command: globalCommand({ default_permission: false }) }),
      allowed: false,
      reason: AccessReason.DefaultPermissionFalse,
    },
    {
      name: '"0"',
      scenario: () => ({ command: globalCommand({ default_member_permissions: '0' }) }),
      allowed: false,
      reason: AccessReason.DefaultMemberPermissionsZero,
    },
    {
      name: 'a malformed bit set fails closed, as "0"',
      scenario: () => ({ command: globalCommand({ default_member_permissions: 'not-bits' }) }),
      allowed: false,
      reason: AccessReason.DefaultMemberPermissionsZero,
    },
    {
      name: 'MANAGE_GUILD for a member who has it',
      scenario: () => ({ command: globalCommand({ default_member_permissions: MANAGE_GUILD_BITS }) }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsMet,
    },
    {
      name: 'MANAGE_GUILD for a member who lacks it',
      scenario: () => ({ userId: CAROL, command: globalCommand({ default_member_permissions: MANAGE_GUILD_BITS }) }),
      allowed: false,
      reason: AccessReason.MissingDefaultMemberPermissions,
    },
    {
      name: 'several bits: every one is needed',
      scenario: () => ({
        command: globalCommand({ default_member_permissions: ((1n << 5n) | (1n << 13n)).toString() }),
      }),
      allowed: false,
      reason: AccessReason.MissingDefaultMemberPermissions,
    },
    {
      name: 'SEND_MESSAGES in a channel whose overwrites deny it',
      scenario: () => ({
        userId: CAROL,
        channelId: ANNOUNCEMENTS,
        command: globalCommand({ default_member_permissions: SEND_MESSAGES.toString() }),
      }),
      allowed: false,
      reason: AccessReason.MissingDefaultMemberPermissions,
    },
    {
      name: 'SEND_MESSAGES in a channel without overwrites',
      scenario: () => ({
        userId: CAROL,
        channelId: GENERAL,
        command: globalCommand({ default_member_permissions: SEND_MESSAGES.toString() }),
      }),
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsMet,
    },
  ]);
});

describe('engine: inputs', () => {
  it('treats an empty overwrite list like none', () => {
    const withEmpty = evaluateCommandAccess(accessInput({ commandPermissions: [], appPermissions: [] }));
    const withNull = evaluateCommandAccess(accessInput({ commandPermissions: null, appPermissions: null }));
    assert.deepEqual(withEmpty, withNull);
  });

  it('matches overwrites by type as well as id', () => {
    // A USER overwrite carrying a role id names no one.
    const decision = evaluateCommandAccess(accessInput({ commandPermissions: [userOverwrite(MODERATOR_ROLE, false)] }));
    assert.deepEqual(decision, { allowed: true, reason: AccessReason.DefaultMemberPermissionsNull });
  });

  it('has a reason code for every branch, all distinct', () => {
    const codes = Object.values(AccessReason);
    assert.equal(new Set(codes).size, codes.length);
  });
});
