import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEND_MESSAGES_IN_THREADS } from '../src/core/permissions/bits.js';
import {
  allChannelsId,
  everyoneId,
  findOverwrite,
  isAppLevel,
  overwritesFor,
  type GuildCommandPermissions,
} from '../src/core/permissions/command-permissions.js';
import { AccessReason } from '../src/core/permissions/engine.js';
import { InvocationReason, evaluateCommandInvocation } from '../src/core/permissions/invocation.js';
import { visibleCommands } from '../src/core/permissions/visible-commands.js';
import {
  ALICE,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  DEMO_APP_ID,
  EVERYONE_BITS,
  GENERAL,
  GUILD_ID,
  OTHER_APP_ID,
  SECOND_GUILD_ID,
  THREAD,
  accessInput,
  channelOverwrite,
  globalCommand,
  guildCommand,
  testGuild,
  userOverwrite,
} from './permissions-fixtures.js';

describe('command permission constants and lookups', () => {
  it('uses the guild id for @everyone and the guild id minus 1 for all channels', () => {
    assert.equal(everyoneId(GUILD_ID), GUILD_ID);
    assert.equal(allChannelsId(GUILD_ID), ALL_CHANNELS);
    assert.equal(allChannelsId('18446744073709551615'), '18446744073709551614');
  });

  it('finds overwrites by type and id, and permissions objects by id', () => {
    const objects: GuildCommandPermissions[] = [
      { id: DEMO_APP_ID, application_id: DEMO_APP_ID, guild_id: GUILD_ID, permissions: [userOverwrite(BOB, false)] },
      { id: '1400000000000000001', application_id: DEMO_APP_ID, guild_id: GUILD_ID, permissions: [] },
    ];
    assert.deepEqual(overwritesFor(objects, DEMO_APP_ID), [userOverwrite(BOB, false)]);
    assert.deepEqual(overwritesFor(objects, '1400000000000000001'), []);
    assert.equal(overwritesFor(objects, '1'), null);
    assert.equal(isAppLevel(objects[0]!), true);
    assert.equal(isAppLevel(objects[1]!), false);
    assert.deepEqual(findOverwrite([userOverwrite(BOB, true)], 2, BOB), userOverwrite(BOB, true));
    assert.equal(findOverwrite([userOverwrite(BOB, true)], 1, BOB), undefined);
  });
});

describe('visibleCommands', () => {
  const ping = globalCommand({ name: 'ping' }, '1400000000000000001');
  const ban = globalCommand({ name: 'ban', default_member_permissions: '4' }, '1400000000000000003');
  const local = guildCommand(GUILD_ID, { name: 'local' }, '1400000000000000004');
  const elsewhere = guildCommand(SECOND_GUILD_ID, { name: 'elsewhere' }, '1400000000000000005');
  const dmOnly = globalCommand({ name: 'dm-only', contexts: [1] }, '1400000000000000006');
  const foreign = { ...globalCommand({ name: 'foreign' }, '1400000000000000007'), application_id: OTHER_APP_ID };
  const commands = [ping, ban, local, elsewhere, dmOnly, foreign];

  function visible(userId: string, channelId: string, guildPermissions: GuildCommandPermissions[] = []) {
    const base = accessInput({ userId, channelId });
    return visibleCommands({ ...base, commands, guildPermissions }).map((command) => command.definition.name);
  }

  it('lists the commands a member may use, in order, leaving out other guilds, contexts and apps', () => {
    assert.deepEqual(visible(CAROL, GENERAL), ['ping', 'local']);
    assert.deepEqual(visible(ALICE, GENERAL), ['ping', 'ban', 'local']);
  });

  it('applies the command-level and app-level overwrites of this app in this guild only', () => {
    const permissions: GuildCommandPermissions[] = [
      { id: ping.id, application_id: DEMO_APP_ID, guild_id: GUILD_ID, permissions: [channelOverwrite(GENERAL, false)] },
      { id: DEMO_APP_ID, application_id: DEMO_APP_ID, guild_id: GUILD_ID, permissions: [userOverwrite(CAROL, false)] },
      {
        id: local.id,
        application_id: DEMO_APP_ID,
        guild_id: SECOND_GUILD_ID,
        permissions: [userOverwrite(CAROL, true)],
      },
      { id: local.id, application_id: OTHER_APP_ID, guild_id: GUILD_ID, permissions: [userOverwrite(CAROL, true)] },
    ];
    assert.deepEqual(visible(CAROL, GENERAL, permissions), []);
    assert.deepEqual(visible(CAROL, ANNOUNCEMENTS, [permissions[0]!]), ['ping', 'local']);
    assert.deepEqual(visible(CAROL, THREAD, [permissions[0]!]), ['local']);
    const banForCarol: GuildCommandPermissions = {
      id: ban.id,
      application_id: DEMO_APP_ID,
      guild_id: GUILD_ID,
      permissions: [userOverwrite(CAROL, true)],
    };
    assert.deepEqual(visible(CAROL, GENERAL, [...permissions, banForCarol]), ['ban']);
  });
});

describe('evaluateCommandInvocation', () => {
  const userCommand = globalCommand({ type: 2, name: 'Inspect', description: '' });

  it('refuses a USER command without SEND_MESSAGES in the channel, though the command is usable', () => {
    const input = accessInput({ userId: CAROL, channelId: ANNOUNCEMENTS, command: userCommand });
    assert.deepEqual(evaluateCommandInvocation(input), {
      allowed: false,
      reason: InvocationReason.MissingSendMessages,
    });
  });

  it('allows a USER command with SEND_MESSAGES', () => {
    const input = accessInput({ userId: CAROL, channelId: GENERAL, command: userCommand });
    assert.deepEqual(evaluateCommandInvocation(input), {
      allowed: true,
      reason: AccessReason.DefaultMemberPermissionsNull,
    });
  });

  it('asks SEND_MESSAGES_IN_THREADS of a USER command in a thread', () => {
    const guild = testGuild();
    assert.deepEqual(
      evaluateCommandInvocation(accessInput({ guild, userId: CAROL, channelId: THREAD, command: userCommand })),
      {
        allowed: false,
        reason: InvocationReason.MissingSendMessages,
      },
    );
    guild.roles[0] = { ...guild.roles[0]!, permissions: (BigInt(EVERYONE_BITS) | SEND_MESSAGES_IN_THREADS).toString() };
    assert.equal(
      evaluateCommandInvocation(accessInput({ guild, userId: CAROL, channelId: THREAD, command: userCommand })).allowed,
      true,
    );
  });

  it('does not ask it of other command types', () => {
    const input = accessInput({ userId: CAROL, channelId: ANNOUNCEMENTS });
    assert.equal(evaluateCommandInvocation(input).allowed, true);
  });

  it("passes on the engine's denial first", () => {
    const input = accessInput({
      userId: CAROL,
      channelId: ANNOUNCEMENTS,
      command: userCommand,
      commandPermissions: [userOverwrite(CAROL, false)],
    });
    assert.deepEqual(evaluateCommandInvocation(input), { allowed: false, reason: AccessReason.UserDenied });
  });
});
