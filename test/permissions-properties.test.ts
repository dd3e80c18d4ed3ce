/**
 * Properties of the engine that must hold whatever the overwrites, default_member_permissions and
 * channel overwrites say (fast-check, ~200 runs each).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SEND_MESSAGES, USE_APPLICATION_COMMANDS, VIEW_CHANNEL, hasAll } from '../src/core/permissions/bits.js';
import { channelPermissions } from '../src/core/permissions/channel-permissions.js';
import { governingChannel } from '../src/core/permissions/channels.js';
import type { CommandPermission } from '../src/core/permissions/command-permissions.js';
import { AccessReason, evaluateCommandAccess } from '../src/core/permissions/engine.js';
import type { StoredCommand } from '../src/core/commands/model.js';
import type { Guild, PermissionOverwrite } from '../src/core/world/types.js';
import {
  ADMIN_ROLE,
  ALICE,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  CATEGORY,
  DAVE,
  EVERYONE_ROLE,
  GENERAL,
  GUILD_ID,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NSFW_LOUNGE,
  THREAD,
  accessInput,
  globalCommand,
  guildCommand,
  guildOwnedByErin,
} from './permissions-fixtures.js';
import {
  bitSetOf,
  channelOverwritesOf,
  commandPermissionOf,
  defaultMemberPermissionsOf,
} from './helpers/permission-arbitraries.js';

const RUNS = { numRuns: 200 };

const ROLE_IDS = [EVERYONE_ROLE, ADMIN_ROLE, MODERATOR_ROLE, MUTED_ROLE];
const USER_IDS = [ALICE, BOB, CAROL, DAVE];
const CHANNEL_IDS = [GENERAL, ANNOUNCEMENTS, NSFW_LOUNGE, CATEGORY, ALL_CHANNELS];
const NON_ADMIN_USERS = [BOB, CAROL, DAVE];

const commandPermission = commandPermissionOf({ roles: ROLE_IDS, users: USER_IDS, channels: CHANNEL_IDS });
const overwriteList = fc.uniqueArray(commandPermission, {
  selector: (entry) => `${entry.type}:${entry.id}`,
  maxLength: 10,
});
const optionalOverwrites = fc.option(overwriteList, { nil: null });

const flagBits = bitSetOf([VIEW_CHANNEL, SEND_MESSAGES, USE_APPLICATION_COMMANDS, 1n << 5n, 1n << 13n]);
/** Channel overwrites of #general and #announcements: for @everyone, the roles, and the members. */
const channelOverwrites = channelOverwritesOf(ROLE_IDS, USER_IDS, flagBits);

const defaultMemberPermissions = defaultMemberPermissionsOf(flagBits);

/** Commands that are neither age-restricted nor out of the guild context. */
const usableCommand: fc.Arbitrary<StoredCommand> = fc
  .record({
    global: fc.boolean(),
    type: fc.constantFrom(1 as const, 2 as const, 3 as const),
    dmp: defaultMemberPermissions,
    defaultPermission: fc.boolean(),
    contexts: fc.constantFrom<number[] | null>(null, [0], [0, 1], [0, 1, 2]),
    integrationTypes: fc.constantFrom<number[]>([0], [0, 1]),
  })
  .map((c) => {
    const fields = {
      type: c.type,
      default_member_permissions: c.dmp,
      default_permission: c.defaultPermission,
      nsfw: false,
    };
    return c.global
      ? globalCommand({ ...fields, contexts: c.contexts, integration_types: c.integrationTypes })
      : guildCommand(GUILD_ID, fields);
  });

const channelId = fc.constantFrom(GENERAL, ANNOUNCEMENTS, THREAD, NSFW_LOUNGE);

function guildWith(general: PermissionOverwrite[], announcements: PermissionOverwrite[]): Guild {
  const guild = guildOwnedByErin();
  guild.channels = guild.channels.map((c) => {
    if (c.id === GENERAL) return { ...c, permission_overwrites: general };
    if (c.id === ANNOUNCEMENTS) return { ...c, permission_overwrites: announcements };
    return c;
  });
  return guild;
}

const world = fc.record({
  general: channelOverwrites,
  announcements: channelOverwrites,
  channelId,
  command: usableCommand,
  commandPermissions: optionalOverwrites,
  appPermissions: optionalOverwrites,
});

describe('engine properties', () => {
  it('an administrator can use every usable command, whatever the overwrites', () => {
    fc.assert(
      fc.property(
        world,
        fc.constantFrom(...NON_ADMIN_USERS),
        fc.subarray([MODERATOR_ROLE, MUTED_ROLE]),
        (w, userId, otherRoles) => {
          const input = accessInput({
            guild: guildWith(w.general, w.announcements),
            userId,
            roles: [...otherRoles, ADMIN_ROLE],
            channelId: w.channelId,
            command: w.command,
            commandPermissions: w.commandPermissions,
            appPermissions: w.appPermissions,
          });
          assert.deepEqual(evaluateCommandAccess(input), { allowed: true, reason: AccessReason.Administrator });
        },
      ),
      RUNS,
    );
  });

  it('the owner can use every usable command, whatever the overwrites', () => {
    fc.assert(
      fc.property(world, (w) => {
        const guild = { ...guildWith(w.general, w.announcements), owner_id: CAROL };
        const input = accessInput({
          guild,
          userId: CAROL,
          channelId: w.channelId,
          command: w.command,
          commandPermissions: w.commandPermissions,
          appPermissions: w.appPermissions,
        });
        assert.deepEqual(evaluateCommandAccess(input), { allowed: true, reason: AccessReason.Owner });
      }),
      RUNS,
    );
  });

  it('a command-level user true allows whatever the roles and default_member_permissions say', () => {
    fc.assert(
      fc.property(
        world,
        fc.constantFrom(...NON_ADMIN_USERS),
        fc.subarray([MODERATOR_ROLE, MUTED_ROLE]),
        (w, userId, roles) => {
          const guild = guildWith(w.general, w.announcements);
          const base = accessInput({ guild, userId, roles, channelId: w.channelId });
          // Given: the member has USE_APPLICATION_COMMANDS there, and no channel overwrite says false.
          fc.pre(hasAll(channelPermissions(guild, base.member, base.channel), USE_APPLICATION_COMMANDS));
          const channelsAllowed = (list: CommandPermission[]) =>
            list.map((e) => (e.type === 3 ? { ...e, permission: true } : e));
          const commandPermissions = [
            ...channelsAllowed(w.commandPermissions ?? []).filter((e) => !(e.type === 2 && e.id === userId)),
            { id: userId, type: 2 as const, permission: true },
          ];
          const input = {
            ...base,
            command: w.command,
            commandPermissions,
            appPermissions: channelsAllowed(w.appPermissions ?? []),
          };
          assert.deepEqual(evaluateCommandAccess(input), { allowed: true, reason: AccessReason.UserAllowed });
        },
      ),
      RUNS,
    );
  });

  it('a command-level channel false always denies a non-administrator', () => {
    fc.assert(
      fc.property(
        world,
        fc.constantFrom(...NON_ADMIN_USERS),
        fc.subarray([MODERATOR_ROLE, MUTED_ROLE]),
        fc.boolean(),
        (w, userId, roles, allChannels) => {
          const base = accessInput({
            guild: guildWith(w.general, w.announcements),
            userId,
            roles,
            channelId: w.channelId,
          });
          const denied = allChannels ? ALL_CHANNELS : governingChannel(base.guild, base.channel).id;
          // The all-channels false applies only where the command has no overwrite for the channel itself.
          const shadowing = (e: CommandPermission) =>
            e.type === 3 &&
            (e.id === denied || (allChannels && e.id === governingChannel(base.guild, base.channel).id));
          const commandPermissions = [
            ...(w.commandPermissions ?? []).filter((e) => !shadowing(e)),
            { id: denied, type: 3 as const, permission: false },
          ];
          const decision = evaluateCommandAccess({
            ...base,
            command: w.command,
            commandPermissions,
            appPermissions: w.appPermissions,
          });
          assert.equal(decision.allowed, false);
        },
      ),
      RUNS,
    );
  });

  it('an app-level channel false denies a non-administrator when the command has no channel overwrite', () => {
    fc.assert(
      fc.property(
        world,
        fc.constantFrom(...NON_ADMIN_USERS),
        fc.subarray([MODERATOR_ROLE, MUTED_ROLE]),
        (w, userId, roles) => {
          const base = accessInput({
            guild: guildWith(w.general, w.announcements),
            userId,
            roles,
            channelId: w.channelId,
          });
          const channelOfCommand = governingChannel(base.guild, base.channel).id;
          const relevant = (e: CommandPermission) =>
            e.type === 3 && (e.id === channelOfCommand || e.id === ALL_CHANNELS);
          const commandPermissions = (w.commandPermissions ?? []).filter((e) => !relevant(e));
          const appPermissions = [
            ...(w.appPermissions ?? []).filter((e) => !(e.type === 3 && e.id === channelOfCommand)),
            { id: channelOfCommand, type: 3 as const, permission: false },
          ];
          const decision = evaluateCommandAccess({ ...base, command: w.command, commandPermissions, appPermissions });
          assert.equal(decision.allowed, false);
        },
      ),
      RUNS,
    );
  });

  it('never lets a member without USE_APPLICATION_COMMANDS in the channel through, unless an administrator', () => {
    fc.assert(
      fc.property(
        world,
        fc.constantFrom(...NON_ADMIN_USERS),
        fc.subarray([MODERATOR_ROLE, MUTED_ROLE]),
        (w, userId, roles) => {
          const guild = guildWith(w.general, w.announcements);
          const input = accessInput({
            guild,
            userId,
            roles,
            channelId: w.channelId,
            command: w.command,
            commandPermissions: w.commandPermissions,
            appPermissions: w.appPermissions,
          });
          const decision = evaluateCommandAccess(input);
          if (!hasAll(channelPermissions(guild, input.member, input.channel), USE_APPLICATION_COMMANDS)) {
            assert.deepEqual(decision, { allowed: false, reason: AccessReason.MissingUseApplicationCommands });
          }
        },
      ),
      RUNS,
    );
  });
});
