import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VIEW_CHANNEL } from '../src/core/permissions/bits.js';
import type { CommandPermission } from '../src/core/permissions/command-permissions.js';
import { canManageRole, highestRolePosition, rolePosition } from '../src/core/permissions/role-hierarchy.js';
import {
  EditorReason,
  checkPermissionEditor,
  editorRefusal,
  type PermissionEditorInput,
} from '../src/core/permissions/who-may-edit.js';
import type { Guild } from '../src/core/world/types.js';
import {
  ADMIN_ROLE,
  ALICE,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  DAVE,
  ERIN,
  EVERYONE_ROLE,
  GENERAL,
  MODERATOR_ROLE,
  MUTED_ROLE,
  channel,
  channelOverwrite,
  demoApp,
  findMember,
  globalCommand,
  guildOwnedByErin,
  member,
  overwrite,
  role,
  roleOverwrite,
  testGuild,
  user,
  userOverwrite,
} from './permissions-fixtures.js';

const HIDDEN = '1345183757107200030';

/** The test guild with a channel only Moderators (and administrators) can see. */
function guildWithHiddenChannel(base: Guild = testGuild()): Guild {
  return {
    ...base,
    channels: [
      ...base.channels,
      channel(HIDDEN, 0, 'hidden', { permission_overwrites: [overwrite(EVERYONE_ROLE, 0, 0n, VIEW_CHANNEL)] }),
    ],
  };
}

interface EditorScenario {
  guild?: Guild;
  userId?: string;
  roles?: string[];
  appLevel?: boolean;
  commandOverrides?: Parameters<typeof globalCommand>[0];
  commandPermissions?: CommandPermission[] | null;
  appPermissions?: CommandPermission[] | null;
  permissions?: CommandPermission[];
}

function editorInput(scenario: EditorScenario = {}): PermissionEditorInput {
  const guild = scenario.guild ?? testGuild();
  const userId = scenario.userId ?? BOB;
  const found = guild.members.find((candidate) => candidate.user_id === userId) ?? null;
  return {
    app: demoApp(),
    guild,
    user: user(userId),
    member: found && scenario.roles ? { ...found, roles: scenario.roles } : found,
    command: scenario.appLevel ? null : globalCommand(scenario.commandOverrides),
    commandPermissions: scenario.commandPermissions ?? null,
    appPermissions: scenario.appPermissions ?? null,
    permissions: scenario.permissions ?? [],
    installed: true,
  };
}

const MISSING_PERMISSIONS = { status: 403, code: 50013, message: 'Missing Permissions' };

interface Row {
  name: string;
  scenario: EditorScenario;
  refusal?: keyof typeof EditorReason;
}

function check(rows: readonly Row[]): void {
  for (const row of rows) {
    const outcome = row.refusal ? `refused (${EditorReason[row.refusal]})` : 'accepted';
    it(`${row.name} → ${outcome}`, () => {
      const refusal = checkPermissionEditor(editorInput(row.scenario));
      if (!row.refusal) return assert.equal(refusal, null);
      assert.equal(refusal, EditorReason[row.refusal]);
      const error = editorRefusal(refusal);
      const expected =
        row.refusal === 'NotMember' ? { status: 403, code: 50001, message: 'Missing Access' } : MISSING_PERMISSIONS;
      assert.deepEqual({ status: error.status, code: error.code, message: error.message }, expected);
    });
  }
}

describe('role hierarchy from the order of guild.roles', () => {
  it('ranks the first listed role highest and @everyone lowest', () => {
    const guild = testGuild();
    assert.equal(rolePosition(guild, EVERYONE_ROLE), 0);
    assert.equal(rolePosition(guild, ADMIN_ROLE), 3);
    assert.equal(rolePosition(guild, MODERATOR_ROLE), 2);
    assert.equal(rolePosition(guild, MUTED_ROLE), 1);
    assert.equal(rolePosition(guild, '1'), null);
  });

  it('puts @everyone lowest wherever it is listed', () => {
    const guild = testGuild();
    guild.roles = [...guild.roles.slice(1), guild.roles[0]!];
    assert.equal(rolePosition(guild, EVERYONE_ROLE), 0);
    assert.equal(rolePosition(guild, ADMIN_ROLE), 3);
  });

  it("takes a member's highest role", () => {
    const guild = testGuild();
    assert.equal(highestRolePosition(guild, member(DAVE, [MUTED_ROLE, MODERATOR_ROLE, '404'])), 2);
    assert.equal(highestRolePosition(guild, member(CAROL)), 0);
  });

  it('lets the owner manage every role and others only roles strictly below their highest', () => {
    const guild = testGuild();
    assert.equal(canManageRole(guild, findMember(guild, ALICE), ADMIN_ROLE), true);
    const bob = findMember(guild, BOB);
    assert.equal(canManageRole(guild, bob, MUTED_ROLE), true);
    assert.equal(canManageRole(guild, bob, MODERATOR_ROLE), false);
    assert.equal(canManageRole(guild, bob, ADMIN_ROLE), false);
    assert.equal(canManageRole(guild, bob, EVERYONE_ROLE), true);
    assert.equal(canManageRole(guild, bob, '404'), false);
  });
});

describe('checkPermissionEditor: who the editor is', () => {
  check([
    { name: 'a user who is not a member of the guild', scenario: { userId: ERIN }, refusal: 'NotMember' },
    {
      name: 'a member without MANAGE_GUILD or MANAGE_ROLES',
      scenario: { userId: CAROL },
      refusal: 'MissingManageGuildAndRoles',
    },
    {
      name: 'a member with MANAGE_GUILD only',
      scenario: (() => {
        const guild = testGuild();
        guild.roles.push(role('1345183757107200005', 'Manager', '32'));
        return { guild, userId: CAROL, roles: ['1345183757107200005'] };
      })(),
      refusal: 'MissingManageGuildAndRoles',
    },
    {
      name: 'a member with MANAGE_ROLES only',
      scenario: (() => {
        const guild = testGuild();
        guild.roles.push(role('1345183757107200005', 'Role manager', '268435456'));
        return { guild, userId: CAROL, roles: ['1345183757107200005'] };
      })(),
      refusal: 'MissingManageGuildAndRoles',
    },
    {
      name: 'a member with MANAGE_GUILD and MANAGE_ROLES (bob, Moderator)',
      scenario: { permissions: [userOverwrite(CAROL, true)] },
    },
    { name: 'the owner', scenario: { userId: ALICE, permissions: [roleOverwrite(ADMIN_ROLE, true)] } },
    {
      name: 'an administrator who is not the owner',
      scenario: { guild: guildOwnedByErin(), userId: ALICE, permissions: [userOverwrite(BOB, false)] },
    },
  ]);
});

describe('checkPermissionEditor: the editor must be able to use the command', () => {
  check([
    {
      name: 'a command the editor is denied by a user overwrite',
      scenario: { commandPermissions: [userOverwrite(BOB, false)], permissions: [userOverwrite(BOB, true)] },
      refusal: 'CannotUseCommand',
    },
    {
      name: 'a command whose default_member_permissions the editor lacks',
      scenario: { commandOverrides: { default_member_permissions: '8' } },
      refusal: 'CannotUseCommand',
    },
    {
      name: 'a command the editor may use in one channel only',
      scenario: { commandPermissions: [channelOverwrite(ALL_CHANNELS, false), channelOverwrite(ANNOUNCEMENTS, true)] },
    },
    {
      name: 'a command with default_member_permissions "0", edited by an administrator',
      scenario: { guild: guildOwnedByErin(), userId: ALICE, commandOverrides: { default_member_permissions: '0' } },
    },
    {
      name: 'the app-level overwrites, though the editor could not use the command',
      scenario: {
        appLevel: true,
        commandPermissions: [userOverwrite(BOB, false)],
        permissions: [userOverwrite(CAROL, false)],
      },
    },
    {
      name: 'an age-restricted command in a guild without an age-restricted channel, even for the owner',
      scenario: {
        guild: { ...testGuild(), channels: testGuild().channels.filter((c) => !c.nsfw) },
        userId: ALICE,
        commandOverrides: { nsfw: true },
      },
      refusal: 'CannotUseCommand',
    },
  ]);
});

describe('checkPermissionEditor: the roles, users and channels the overwrites name', () => {
  check([
    { name: "a role below the editor's highest", scenario: { permissions: [roleOverwrite(MUTED_ROLE, false)] } },
    { name: '@everyone', scenario: { permissions: [roleOverwrite(EVERYONE_ROLE, false)] } },
    {
      name: "the editor's own highest role",
      scenario: { permissions: [roleOverwrite(MODERATOR_ROLE, true)] },
      refusal: 'RoleNotManageable',
    },
    {
      name: 'a role above the editor',
      scenario: { permissions: [roleOverwrite(ADMIN_ROLE, true)] },
      refusal: 'RoleNotManageable',
    },
    {
      name: 'an administrator naming their own highest role (the hierarchy binds administrators)',
      scenario: { guild: guildOwnedByErin(), userId: ALICE, permissions: [roleOverwrite(ADMIN_ROLE, true)] },
      refusal: 'RoleNotManageable',
    },
    {
      name: 'the owner naming the highest role',
      scenario: { userId: ALICE, permissions: [roleOverwrite(ADMIN_ROLE, false)] },
    },
    {
      name: 'an existing overwrite for a role above the editor, kept as it is',
      scenario: {
        commandPermissions: [roleOverwrite(ADMIN_ROLE, true)],
        permissions: [roleOverwrite(ADMIN_ROLE, true), userOverwrite(CAROL, true)],
      },
    },
    {
      name: 'an existing overwrite for a role above the editor, flipped',
      scenario: {
        commandPermissions: [roleOverwrite(ADMIN_ROLE, true)],
        permissions: [roleOverwrite(ADMIN_ROLE, false)],
      },
      refusal: 'RoleNotManageable',
    },
    {
      name: 'an existing overwrite for a role above the editor, removed',
      scenario: { commandPermissions: [roleOverwrite(ADMIN_ROLE, true)], permissions: [] },
      refusal: 'RoleNotManageable',
    },
    {
      name: 'an existing app-level overwrite for a role above the editor, removed',
      scenario: { appLevel: true, appPermissions: [roleOverwrite(ADMIN_ROLE, true)], permissions: [] },
      refusal: 'RoleNotManageable',
    },
    {
      name: 'an existing overwrite for a role deleted since, removed',
      scenario: { commandPermissions: [roleOverwrite('1345183757107200404', true)], permissions: [] },
    },
    {
      name: 'a member of the guild',
      scenario: { permissions: [userOverwrite(DAVE, false), userOverwrite(ALICE, true)] },
    },
    {
      name: 'a user who is not a member',
      scenario: { permissions: [userOverwrite(ERIN, true)] },
      refusal: 'UserNotMember',
    },
    {
      name: 'an existing overwrite for a user who left, removed',
      scenario: { commandPermissions: [userOverwrite(ERIN, true)], permissions: [] },
    },
    { name: 'a channel the editor can view', scenario: { permissions: [channelOverwrite(GENERAL, false)] } },
    { name: 'the all-channels constant', scenario: { permissions: [channelOverwrite(ALL_CHANNELS, false)] } },
    {
      name: 'a channel the editor cannot view',
      scenario: { guild: guildWithHiddenChannel(), permissions: [channelOverwrite(HIDDEN, false)] },
      refusal: 'ChannelNotVisible',
    },
    {
      name: 'an existing overwrite for a channel the editor cannot view, removed',
      scenario: {
        guild: guildWithHiddenChannel(),
        commandPermissions: [channelOverwrite(HIDDEN, false)],
        permissions: [],
      },
      refusal: 'ChannelNotVisible',
    },
    {
      name: 'an existing overwrite for a channel the editor cannot view, kept',
      scenario: {
        guild: guildWithHiddenChannel(),
        commandPermissions: [channelOverwrite(HIDDEN, false)],
        permissions: [channelOverwrite(HIDDEN, false), channelOverwrite(GENERAL, true)],
      },
    },
    {
      name: 'a channel hidden from @everyone, named by an administrator',
      scenario: {
        guild: guildWithHiddenChannel(guildOwnedByErin()),
        userId: ALICE,
        permissions: [channelOverwrite(HIDDEN, false)],
      },
    },
    {
      name: 'an existing overwrite for a channel deleted since, removed',
      scenario: { commandPermissions: [channelOverwrite('1345183757107200404', false)], permissions: [] },
    },
    {
      name: 'a channel that does not exist, set',
      scenario: { permissions: [channelOverwrite('1345183757107200404', false)] },
      refusal: 'ChannelNotVisible',
    },
  ]);
});
