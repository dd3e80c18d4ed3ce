import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ADMINISTRATOR,
  ALL,
  MANAGE_GUILD,
  SEND_MESSAGES,
  SEND_MESSAGES_IN_THREADS,
  USE_APPLICATION_COMMANDS,
  VIEW_CHANNEL,
} from '../src/core/permissions/bits.js';
import {
  appChannelPermissions,
  basePermissions,
  canSendMessages,
  canViewChannel,
  channelPermissions,
  isAdministrator,
} from '../src/core/permissions/channel-permissions.js';
import { governingChannel } from '../src/core/permissions/channels.js';
import { findInstall, isInstalledForCommands } from '../src/core/permissions/install.js';
import type { Guild } from '../src/core/world/types.js';
import {
  ACTIVITY_APP_ID,
  ADMIN_ROLE,
  ALICE,
  ANNOUNCEMENTS,
  BOB,
  CAROL,
  DAVE,
  DEMO_APP_ID,
  EVERYONE_BITS,
  EVERYONE_ROLE,
  GENERAL,
  MODERATOR_BITS,
  MODERATOR_ROLE,
  MUTED_ROLE,
  OTHER_APP_ID,
  THREAD,
  channel,
  findChannelOf,
  findMember,
  guildOwnedByErin,
  member,
  overwrite,
  role,
  testGuild,
} from './permissions-fixtures.js';

const EVERYONE = BigInt(EVERYONE_BITS);
const MODERATOR = BigInt(MODERATOR_BITS);
/** A flag no example role has, to watch overwrites add it. */
const EMBED_LINKS = 1n << 14n;
const ATTACH_FILES = 1n << 15n;

/** The test guild with one extra text channel carrying `overwrites`. */
function guildWithChannel(overwrites: ReturnType<typeof overwrite>[], base: Guild = guildOwnedByErin()): Guild {
  return {
    ...base,
    channels: [...base.channels, channel('1345183757107200099', 0, 'extra', { permission_overwrites: overwrites })],
  };
}
const EXTRA = '1345183757107200099';

describe('basePermissions', () => {
  it('gives the owner every permission', () => {
    const guild = testGuild();
    assert.equal(basePermissions(guild, findMember(guild, ALICE)), ALL);
  });

  it('gives a member with an ADMINISTRATOR role every permission', () => {
    const guild = guildOwnedByErin();
    assert.equal(basePermissions(guild, findMember(guild, ALICE)), ALL);
    assert.equal(isAdministrator(guild, findMember(guild, ALICE)), true);
  });

  it('gives everyone every permission when @everyone has ADMINISTRATOR', () => {
    const guild = guildOwnedByErin();
    guild.roles = guild.roles.map((r) =>
      r.id === EVERYONE_ROLE ? { ...r, permissions: ADMINISTRATOR.toString() } : r,
    );
    assert.equal(basePermissions(guild, findMember(guild, CAROL)), ALL);
  });

  it('is @everyone OR every role of the member', () => {
    const guild = testGuild();
    assert.equal(basePermissions(guild, findMember(guild, BOB)), EVERYONE | MODERATOR);
    assert.equal(basePermissions(guild, findMember(guild, CAROL)), EVERYONE);
    assert.equal(basePermissions(guild, findMember(guild, DAVE)), EVERYONE);
    assert.equal(isAdministrator(guild, findMember(guild, BOB)), false);
  });

  it('ignores roles the guild does not have and malformed bit sets', () => {
    const guild = testGuild();
    guild.roles.push(role('1345183757107200077', 'Broken', 'lots'));
    const ghost = member(CAROL, ['999', '1345183757107200077']);
    assert.equal(basePermissions(guild, ghost), EVERYONE);
  });
});

describe('channelPermissions', () => {
  it('gives the owner every permission whatever the overwrites', () => {
    const guild = guildWithChannel([overwrite(EVERYONE_ROLE, 0, 0n, ALL), overwrite(ALICE, 1, 0n, ALL)], testGuild());
    assert.equal(channelPermissions(guild, findMember(guild, ALICE), findChannelOf(guild, EXTRA)), ALL);
  });

  it('gives an administrator every permission whatever the overwrites', () => {
    const guild = guildWithChannel([overwrite(ADMIN_ROLE, 0, 0n, ALL), overwrite(ALICE, 1, 0n, ALL)]);
    assert.equal(channelPermissions(guild, findMember(guild, ALICE), findChannelOf(guild, EXTRA)), ALL);
  });

  it('is the base permissions in a channel without overwrites', () => {
    const guild = testGuild();
    assert.equal(
      channelPermissions(guild, findMember(guild, BOB), findChannelOf(guild, GENERAL)),
      EVERYONE | MODERATOR,
    );
  });

  it('applies the @everyone overwrite, deny then allow', () => {
    const guild = testGuild();
    const announcements = findChannelOf(guild, ANNOUNCEMENTS);
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), announcements), EVERYONE & ~SEND_MESSAGES);
    const both = guildWithChannel([
      overwrite(EVERYONE_ROLE, 0, SEND_MESSAGES | EMBED_LINKS, SEND_MESSAGES | USE_APPLICATION_COMMANDS),
    ]);
    assert.equal(
      channelPermissions(both, findMember(both, CAROL), findChannelOf(both, EXTRA)),
      (EVERYONE & ~USE_APPLICATION_COMMANDS) | SEND_MESSAGES | EMBED_LINKS,
    );
  });

  it('applies all role overwrites together: deny all, then allow all', () => {
    // Applied one by one, Muted's deny (after Moderator's allow) would win; together the allow wins.
    const guild = guildWithChannel([
      overwrite(MODERATOR_ROLE, 0, EMBED_LINKS, 0n),
      overwrite(MUTED_ROLE, 0, 0n, EMBED_LINKS | SEND_MESSAGES),
    ]);
    const both = member(DAVE, [MODERATOR_ROLE, MUTED_ROLE]);
    const bits = channelPermissions(guild, both, findChannelOf(guild, EXTRA));
    assert.equal(hasBits(bits, EMBED_LINKS), true);
    assert.equal(hasBits(bits, SEND_MESSAGES), false);
  });

  it('lets a role overwrite undo the @everyone overwrite', () => {
    const guild = guildWithChannel([
      overwrite(EVERYONE_ROLE, 0, 0n, SEND_MESSAGES),
      overwrite(MODERATOR_ROLE, 0, SEND_MESSAGES, 0n),
    ]);
    const extra = findChannelOf(guild, EXTRA);
    assert.equal(hasBits(channelPermissions(guild, findMember(guild, BOB), extra), SEND_MESSAGES), true);
    assert.equal(hasBits(channelPermissions(guild, findMember(guild, CAROL), extra), SEND_MESSAGES), false);
  });

  it('ignores role overwrites for roles the member lacks', () => {
    const guild = guildWithChannel([overwrite(MODERATOR_ROLE, 0, EMBED_LINKS, VIEW_CHANNEL)]);
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), findChannelOf(guild, EXTRA)), EVERYONE);
  });

  it('applies the member overwrite last, deny then allow', () => {
    const guild = guildWithChannel([
      overwrite(MODERATOR_ROLE, 0, EMBED_LINKS, SEND_MESSAGES),
      overwrite(BOB, 1, SEND_MESSAGES | ATTACH_FILES, EMBED_LINKS | MANAGE_GUILD),
    ]);
    const bits = channelPermissions(guild, findMember(guild, BOB), findChannelOf(guild, EXTRA));
    assert.equal(bits, ((EVERYONE | MODERATOR) & ~MANAGE_GUILD) | SEND_MESSAGES | ATTACH_FILES);
  });

  it('ignores a member overwrite for someone else', () => {
    const guild = guildWithChannel([overwrite(CAROL, 1, 0n, ALL)]);
    assert.equal(channelPermissions(guild, findMember(guild, BOB), findChannelOf(guild, EXTRA)), EVERYONE | MODERATOR);
  });

  it('does not let an overwrite grant ADMINISTRATOR powers', () => {
    const guild = guildWithChannel([overwrite(CAROL, 1, ADMINISTRATOR, 0n)]);
    const bits = channelPermissions(guild, findMember(guild, CAROL), findChannelOf(guild, EXTRA));
    assert.equal(bits, EVERYONE | ADMINISTRATOR);
    assert.notEqual(bits, ALL);
  });

  it('gives a thread its parent channel overwrites, not its own', () => {
    const guild = testGuild();
    const parent = findChannelOf(guild, GENERAL);
    parent.permission_overwrites = [overwrite(EVERYONE_ROLE, 0, 0n, USE_APPLICATION_COMMANDS)];
    const thread = findChannelOf(guild, THREAD);
    thread.permission_overwrites = [overwrite(EVERYONE_ROLE, 0, EMBED_LINKS, 0n)];
    assert.equal(governingChannel(guild, thread), parent);
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), thread), EVERYONE & ~USE_APPLICATION_COMMANDS);
  });

  it('reads a thread under announcements with the announcements overwrites', () => {
    const guild = testGuild();
    guild.channels.push(
      channel('1345183757107200015', 12, 'private-thread', { parent_id: ANNOUNCEMENTS, thread_member_ids: [CAROL] }),
    );
    const thread = findChannelOf(guild, '1345183757107200015');
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), thread), EVERYONE & ~SEND_MESSAGES);
  });

  it('lets a thread whose parent is missing use its own overwrites', () => {
    const guild = testGuild();
    const orphan = channel('1345183757107200016', 10, 'orphan', {
      parent_id: '1',
      permission_overwrites: [overwrite(EVERYONE_ROLE, 0, 0n, USE_APPLICATION_COMMANDS)],
    });
    guild.channels.push(orphan);
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), orphan), EVERYONE & ~USE_APPLICATION_COMMANDS);
  });

  it('does not depend on the order of the overwrites', () => {
    const flags = fc.constantFrom(0n, SEND_MESSAGES, EMBED_LINKS, VIEW_CHANNEL, SEND_MESSAGES | EMBED_LINKS);
    const entry = fc.record({
      id: fc.constantFrom(EVERYONE_ROLE, MODERATOR_ROLE, MUTED_ROLE, ADMIN_ROLE, BOB, DAVE),
      allow: flags,
      deny: flags,
    });
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => e.id, maxLength: 6 }), fc.context(), (entries, ctx) => {
        const list = entries.map((e) => overwrite(e.id, e.id === BOB || e.id === DAVE ? 1 : 0, e.allow, e.deny));
        const forward = guildWithChannel(list);
        const backward = guildWithChannel([...list].reverse());
        const subject = member(BOB, [MODERATOR_ROLE, MUTED_ROLE]);
        ctx.log(JSON.stringify(list));
        assert.equal(
          channelPermissions(forward, subject, findChannelOf(forward, EXTRA)),
          channelPermissions(backward, subject, findChannelOf(backward, EXTRA)),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('helpers over channel permissions', () => {
  it('canViewChannel follows VIEW_CHANNEL after overwrites', () => {
    const guild = guildWithChannel([
      overwrite(EVERYONE_ROLE, 0, 0n, VIEW_CHANNEL),
      overwrite(MODERATOR_ROLE, 0, VIEW_CHANNEL, 0n),
    ]);
    const extra = findChannelOf(guild, EXTRA);
    assert.equal(canViewChannel(guild, findMember(guild, CAROL), extra), false);
    assert.equal(canViewChannel(guild, findMember(guild, BOB), extra), true);
    assert.equal(canViewChannel(guild, findMember(guild, ALICE), extra), true);
  });

  it('canSendMessages uses SEND_MESSAGES_IN_THREADS in a thread', () => {
    const guild = testGuild();
    const carol = findMember(guild, CAROL);
    assert.equal(canSendMessages(guild, carol, findChannelOf(guild, GENERAL)), true);
    assert.equal(canSendMessages(guild, carol, findChannelOf(guild, ANNOUNCEMENTS)), false);
    assert.equal(canSendMessages(guild, carol, findChannelOf(guild, THREAD)), false);
    guild.roles[0] = { ...guild.roles[0]!, permissions: (EVERYONE | SEND_MESSAGES_IN_THREADS).toString() };
    assert.equal(canSendMessages(guild, carol, findChannelOf(guild, THREAD)), true);
  });
});

describe('appChannelPermissions (app_permissions)', () => {
  it('is @everyone plus the install bit set, with the channel overwrites', () => {
    const guild = testGuild();
    guild.installs[0] = { ...guild.installs[0]!, permissions: (EMBED_LINKS | SEND_MESSAGES).toString() };
    assert.equal(appChannelPermissions(guild, DEMO_APP_ID, findChannelOf(guild, GENERAL)), EVERYONE | EMBED_LINKS);
    assert.equal(
      appChannelPermissions(guild, DEMO_APP_ID, findChannelOf(guild, ANNOUNCEMENTS)),
      (EVERYONE | EMBED_LINKS) & ~SEND_MESSAGES,
    );
  });

  it('applies a member overwrite for the bot user (its id is the application id)', () => {
    const guild = guildWithChannel([
      overwrite(DEMO_APP_ID, 1, SEND_MESSAGES, USE_APPLICATION_COMMANDS),
      overwrite(EVERYONE_ROLE, 0, 0n, SEND_MESSAGES),
    ]);
    assert.equal(
      appChannelPermissions(guild, DEMO_APP_ID, findChannelOf(guild, EXTRA)),
      EVERYONE & ~USE_APPLICATION_COMMANDS,
    );
  });

  it('is what a member without roles gets for an install without bot permissions', () => {
    const guild = testGuild();
    assert.equal(findInstall(guild, ACTIVITY_APP_ID)?.permissions, null);
    assert.equal(
      appChannelPermissions(guild, ACTIVITY_APP_ID, findChannelOf(guild, ANNOUNCEMENTS)),
      EVERYONE & ~SEND_MESSAGES,
    );
    assert.equal(appChannelPermissions(guild, OTHER_APP_ID, findChannelOf(guild, GENERAL)), EVERYONE);
  });

  it('is every permission for an install with ADMINISTRATOR', () => {
    const guild = guildWithChannel([overwrite(DEMO_APP_ID, 1, 0n, ALL)]);
    guild.installs = [{ application_id: DEMO_APP_ID, scopes: ['bot'], permissions: '8' }];
    assert.equal(appChannelPermissions(guild, DEMO_APP_ID, findChannelOf(guild, EXTRA)), ALL);
  });
});

describe('isInstalledForCommands', () => {
  it('needs an install with applications.commands or bot', () => {
    const guild = testGuild();
    assert.equal(isInstalledForCommands(guild, DEMO_APP_ID), true);
    assert.equal(isInstalledForCommands(guild, ACTIVITY_APP_ID), true);
    assert.equal(isInstalledForCommands(guild, OTHER_APP_ID), false);
    guild.installs = [{ application_id: DEMO_APP_ID, scopes: ['bot'], permissions: null }];
    assert.equal(isInstalledForCommands(guild, DEMO_APP_ID), true);
    guild.installs = [{ application_id: DEMO_APP_ID, scopes: ['identify'], permissions: null }];
    assert.equal(isInstalledForCommands(guild, DEMO_APP_ID), false);
  });
});

function hasBits(bits: bigint, flags: bigint): boolean {
  return (bits & flags) === flags;
}

describe('channelPermissions without VIEW_CHANNEL (v10: nothing at all in that channel)', () => {
  it('is 0 for a member whose @everyone overwrite denies VIEW_CHANNEL, though SEND_MESSAGES stays allowed at guild level', () => {
    const guild = guildWithChannel([overwrite(EVERYONE_ROLE, 0, 0n, VIEW_CHANNEL)]);
    const carol = findMember(guild, CAROL);
    assert.ok(basePermissions(guild, carol) & SEND_MESSAGES, 'the guild level grants SEND_MESSAGES');
    assert.equal(channelPermissions(guild, carol, findChannelOf(guild, EXTRA)), 0n);
    assert.equal(canSendMessages(guild, carol, findChannelOf(guild, EXTRA)), false);
  });

  it('is 0 when a member overwrite denies VIEW_CHANNEL even with other bits allowed by it', () => {
    const guild = guildWithChannel([overwrite(CAROL, 1, EMBED_LINKS | ATTACH_FILES, VIEW_CHANNEL)]);
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), findChannelOf(guild, EXTRA)), 0n);
    assert.ok(
      channelPermissions(guild, findMember(guild, BOB), findChannelOf(guild, EXTRA)) & VIEW_CHANNEL,
      'bob is not concerned',
    );
  });

  it('is 0 in a thread whose parent hides itself from the member', () => {
    const guild = guildWithChannel([overwrite(CAROL, 1, 0n, VIEW_CHANNEL)]);
    guild.channels.push(channel('1345183757107200098', 11, 'hidden-thread', { parent_id: EXTRA }));
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), findChannelOf(guild, '1345183757107200098')), 0n);
  });

  it('stays ALL for an administrator and the owner, whom no overwrite can hide a channel from', () => {
    const guild = guildWithChannel([
      overwrite(EVERYONE_ROLE, 0, 0n, VIEW_CHANNEL),
      overwrite(ADMIN_ROLE, 0, 0n, VIEW_CHANNEL),
    ]);
    assert.equal(channelPermissions(guild, findMember(guild, ALICE), findChannelOf(guild, EXTRA)), ALL);
    const owned = guildWithChannel([overwrite(EVERYONE_ROLE, 0, 0n, VIEW_CHANNEL)], testGuild());
    assert.equal(channelPermissions(owned, findMember(owned, ALICE), findChannelOf(owned, EXTRA)), ALL);
  });

  it('is 0 for an app whose bot is denied VIEW_CHANNEL by a member overwrite', () => {
    const guild = guildWithChannel([overwrite(DEMO_APP_ID, 1, 0n, VIEW_CHANNEL)]);
    assert.equal(appChannelPermissions(guild, DEMO_APP_ID, findChannelOf(guild, EXTRA)), 0n);
  });

  it('property: any overwrite set leaving VIEW_CHANNEL unset leaves no bit at all for a non-administrator', () => {
    const bits = fc.bigInt({ min: 0n, max: (1n << 53n) - 1n }).map((b) => b & ~ADMINISTRATOR);
    fc.assert(
      fc.property(bits, bits, bits, bits, (everyoneAllow, everyoneDeny, memberAllow, memberDeny) => {
        const guild = guildWithChannel([
          overwrite(EVERYONE_ROLE, 0, everyoneAllow, everyoneDeny),
          overwrite(CAROL, 1, memberAllow, memberDeny),
        ]);
        const result = channelPermissions(guild, findMember(guild, CAROL), findChannelOf(guild, EXTRA));
        return (result & VIEW_CHANNEL) !== 0n || result === 0n;
      }),
    );
  });
});

describe('private threads (type 12): only their members and MANAGE_THREADS see them', () => {
  const PRIVATE = '1345183757107200097';
  function withPrivateThread(memberIds: string[]): Guild {
    const guild = guildWithChannel([]);
    guild.channels.push(channel(PRIVATE, 12, 'private', { parent_id: EXTRA, thread_member_ids: memberIds }));
    return guild;
  }

  it('gives a member of the thread its parent permissions and a non-member nothing', () => {
    const guild = withPrivateThread([CAROL]);
    const thread = findChannelOf(guild, PRIVATE);
    assert.equal(channelPermissions(guild, findMember(guild, CAROL), thread), EVERYONE);
    assert.equal(channelPermissions(guild, findMember(guild, DAVE), thread), 0n);
    assert.equal(canViewChannel(guild, findMember(guild, DAVE), thread), false);
  });

  it('lets MANAGE_THREADS and administrators see it without joining', () => {
    const guild = withPrivateThread([]);
    guild.roles = guild.roles.map((r) =>
      r.id === MODERATOR_ROLE ? { ...r, permissions: String(MODERATOR | (1n << 34n)) } : r,
    );
    const thread = findChannelOf(guild, PRIVATE);
    assert.equal(canViewChannel(guild, findMember(guild, BOB), thread), true);
    assert.equal(channelPermissions(guild, findMember(guild, ALICE), thread), ALL);
  });

  it('lets a bot in only as a thread member (by its application id)', () => {
    assert.equal(
      appChannelPermissions(withPrivateThread([]), DEMO_APP_ID, findChannelOf(withPrivateThread([]), PRIVATE)),
      0n,
    );
    const joined = withPrivateThread([DEMO_APP_ID]);
    assert.ok(appChannelPermissions(joined, DEMO_APP_ID, findChannelOf(joined, PRIVATE)) & VIEW_CHANNEL);
  });
});
