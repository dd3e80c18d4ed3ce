import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StoredCommand } from '../../core/commands/model.js';
import { buildInteraction, type InteractionInput } from './rules/build-interaction.js';
import {
  checkInvocation,
  type CheckedInvocation,
  type InvocationKind,
  type InvocationTarget,
} from './rules/check-invocation.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import { formatPermissions } from '../../core/permissions/bits.js';
import { channelPermissions } from '../../core/permissions/channel-permissions.js';
import type { Application, Member } from '../../core/world/types.js';
import { toWirePublicUser } from '../../core/world/wire.js';
import {
  ALICE,
  APP_ID,
  BOB,
  CAROL,
  CATEGORY,
  COMMAND_ID,
  ERIN,
  GENERAL,
  GUILD_ID,
  HELLO_MESSAGE,
  MODERATOR_ROLE,
  NOBODY,
  dmTarget,
  everyOptionCommand,
  guildTarget,
  invocationData,
  messageCommand,
  subcommandCommand,
  testGuild,
  userCommand,
  userOf,
  world,
  INTERACTION_ID,
  ADMIN_ROLE,
} from '../../../test/interactions-fixtures.js';

type Wire = Record<string, unknown>;

const TOKEN = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5';

function app(): Application {
  const found = world().applications.find((candidate) => candidate.id === APP_ID);
  if (!found) throw new Error('app missing');
  return found;
}

function memberOf(userId: string): Member {
  const member = testGuild().members.find((candidate) => candidate.user_id === userId);
  if (!member) throw new Error(`member ${userId} missing`);
  return member;
}

function check(
  command: StoredCommand,
  extra: Record<string, unknown>,
  kind: InvocationKind,
  target: InvocationTarget,
): CheckedInvocation {
  const result = checkInvocation(command, invocationData(command, extra), kind, target);
  if (!result.ok) assert.fail(JSON.stringify(result.issues));
  return result.value;
}

/** The interaction bob (a member with the Moderator role, locale fr) gets for `extra` in #general. */
function inGuild(command: StoredCommand, extra: Record<string, unknown>, kind: InvocationKind = 'command'): Wire {
  const target = guildTarget();
  const guild = testGuild();
  const member = memberOf(BOB);
  return buildInteraction({
    id: INTERACTION_ID,
    token: TOKEN,
    kind,
    app: app(),
    command,
    checked: check(command, extra, kind, target),
    user: userOf(BOB),
    guild,
    member,
    channel: target.channel,
    locale: 'fr',
    messages: target.messages,
    users: target.users,
    authorizingIntegrationOwners: { '0': GUILD_ID },
    context: 0,
    appPermissions: '2147552256',
    memberPermissions: formatPermissions(channelPermissions(guild, member, target.channel)),
  });
}

function inDm(command: StoredCommand, extra: Record<string, unknown>): Wire {
  const target = dmTarget();
  return buildInteraction({
    id: INTERACTION_ID,
    token: TOKEN,
    kind: 'command',
    app: app(),
    command,
    checked: check(command, extra, 'command', target),
    user: userOf(ALICE),
    guild: null,
    member: null,
    channel: target.channel,
    locale: 'en-US',
    messages: [],
    users: target.users,
    authorizingIntegrationOwners: { '0': '0' },
    context: 1,
    appPermissions: '0',
    memberPermissions: null,
  });
}

/** As it leaves on the wire: maps keyed by ids have no prototype, which strict equality would see. */
function wire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function field<T = Wire>(object: unknown, ...path: string[]): T {
  let current = object;
  for (const key of path) current = (current as Wire)[key];
  return current as T;
}

const bobPermissionsInGeneral = () =>
  formatPermissions(channelPermissions(testGuild(), memberOf(BOB), guildTarget().channel));

describe('buildInteraction in a guild', () => {
  const interaction = inGuild(everyOptionCommand(), { options: [{ name: 'text', type: 3, value: 'hello' }] });

  it('has every top-level field of the v10 API (docs/v10-behaviour.md#interactions)', () => {
    assert.deepEqual(Object.keys(interaction).sort(), [
      'app_permissions',
      'application_id',
      'attachment_size_limit',
      'authorizing_integration_owners',
      'channel',
      'channel_id',
      'context',
      'data',
      'entitlements',
      'guild',
      'guild_id',
      'guild_locale',
      'id',
      'locale',
      'member',
      'token',
      'type',
      'version',
    ]);
    assert.equal(interaction.id, INTERACTION_ID);
    assert.equal(interaction.application_id, APP_ID);
    assert.equal(interaction.type, 2);
    assert.equal(interaction.token, TOKEN);
    assert.equal(interaction.version, 1);
    assert.equal(interaction.guild_id, GUILD_ID);
    assert.deepEqual(interaction.guild, { id: GUILD_ID, locale: 'en-US', features: [] });
    assert.equal(interaction.channel_id, GENERAL);
    assert.equal(interaction.app_permissions, '2147552256');
    assert.equal(interaction.locale, 'fr');
    assert.equal(interaction.guild_locale, 'en-US');
    assert.equal(interaction.context, 0);
    assert.deepEqual(interaction.authorizing_integration_owners, { '0': GUILD_ID });
    assert.deepEqual(interaction.entitlements, []);
    assert.equal(interaction.attachment_size_limit, 26214400);
  });

  it("a partial channel with the member's permissions in it", () => {
    assert.deepEqual(interaction.channel, {
      id: GENERAL,
      type: 0,
      name: 'general',
      nsfw: false,
      parent_id: CATEGORY,
      flags: 0,
      guild_id: GUILD_ID,
      permissions: bobPermissionsInGeneral(),
    });
  });

  it('the member with its user, roles without @everyone, and the permissions string', () => {
    assert.deepEqual(interaction.member, {
      user: toWirePublicUser(userOf(BOB)),
      roles: [MODERATOR_ROLE],
      permissions: bobPermissionsInGeneral(),
      joined_at: '2025-03-02T00:00:00.000Z',
      nick: 'Bobby',
      avatar: null,
      banner: null,
      premium_since: null,
      pending: false,
      is_pending: false,
      mute: false,
      deaf: false,
      flags: 0,
      communication_disabled_until: null,
      unusual_dm_activity_until: null,
    });
    assert.equal(typeof field(interaction, 'member', 'permissions'), 'string');
  });

  it('data: id, default name, type, options; no guild_id for a global command; no resolved without ids', () => {
    assert.deepEqual(interaction.data, {
      id: COMMAND_ID,
      name: 'demo',
      type: 1,
      options: [{ name: 'text', type: 3, value: 'hello' }],
    });
  });

  it("names are never localized, though the user's locale has localizations", () => {
    const data = field(interaction, 'data');
    assert.equal(data.name, 'demo');
    assert.equal(field<{ name: string }[]>(data, 'options')[0]?.name, 'text');
    assert.equal(JSON.stringify(interaction).includes('texte'), false);
    assert.equal(JSON.stringify(interaction).includes('démo'), false);
  });

  it('is plain JSON: nothing undefined, nothing lost in serialization', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(interaction)), interaction);
  });

  it('data.guild_id for a guild command, and nested subcommand options', () => {
    const options = [
      { name: 'config', type: 2, options: [{ name: 'get', type: 1, options: [{ name: 'key', type: 3, value: 'k' }] }] },
    ];
    const built = inGuild(subcommandCommand(), { options });
    assert.deepEqual(built.data, { id: COMMAND_ID, name: 'admin', type: 1, guild_id: GUILD_ID, options });
  });

  it('type 4 for autocomplete, with the focused option', () => {
    const built = inGuild(
      everyOptionCommand(),
      { options: [{ name: 'query', type: 3, value: 'ab', focused: true }] },
      'autocomplete',
    );
    assert.equal(built.type, 4);
    assert.deepEqual(field(built, 'data', 'options'), [{ name: 'query', type: 3, value: 'ab', focused: true }]);
  });
});

describe('buildInteraction outside a guild', () => {
  const interaction = inDm(everyOptionCommand(), {
    options: [
      { name: 'text', type: 3, value: 'hello' },
      { name: 'who', type: 6, value: BOB },
    ],
  });

  it('carries user instead of member, and no guild fields', () => {
    assert.deepEqual(interaction.user, toWirePublicUser(userOf(ALICE)));
    for (const absent of ['member', 'guild', 'guild_id', 'guild_locale'])
      assert.equal(absent in interaction, false, absent);
    assert.equal(interaction.context, 1);
    assert.deepEqual(interaction.authorizing_integration_owners, { '0': '0' });
  });

  it('a channel without permissions, and users without members', () => {
    assert.equal('permissions' in field(interaction, 'channel'), false);
    assert.equal('guild_id' in field(interaction, 'channel'), false);
    assert.deepEqual(wire(field(interaction, 'data', 'resolved')), { users: { [BOB]: toWirePublicUser(userOf(BOB)) } });
  });
});

describe('data.resolved', () => {
  it('a USER command on a member: target_id, the user and the partial member', () => {
    const built = inGuild(userCommand(), { target_id: ALICE });
    const data = field(built, 'data');
    assert.equal(data.name, 'Inspect');
    assert.equal(data.type, 2);
    assert.equal(data.target_id, ALICE);
    assert.equal('options' in data, false);
    const guild = testGuild();
    assert.deepEqual(wire(data.resolved), {
      users: { [ALICE]: toWirePublicUser(userOf(ALICE)) },
      members: {
        [ALICE]: {
          roles: [ADMIN_ROLE],
          permissions: formatPermissions(channelPermissions(guild, memberOf(ALICE), guildTarget().channel)),
          joined_at: '2025-03-01T00:00:00.000Z',
          nick: null,
          avatar: null,
          banner: null,
          premium_since: null,
          pending: false,
          flags: 0,
          communication_disabled_until: null,
          unusual_dm_activity_until: null,
        },
      },
    });
    const member = field(data, 'resolved', 'members', ALICE);
    for (const absent of ['user', 'deaf', 'mute']) assert.equal(absent in member, false, absent);
  });

  it('a USER command on a user who is not a member: no members map', () => {
    const resolved = field(inGuild(userCommand(), { target_id: ERIN }), 'data', 'resolved');
    assert.deepEqual(Object.keys(resolved), ['users']);
  });

  it('a MESSAGE command: the message as a v10 message object', () => {
    const data = field(inGuild(messageCommand(), { target_id: HELLO_MESSAGE }), 'data');
    assert.equal(data.target_id, HELLO_MESSAGE);
    assert.deepEqual(Object.keys(field(data, 'resolved')), ['messages']);
    assert.deepEqual(field(data, 'resolved', 'messages', HELLO_MESSAGE), {
      id: HELLO_MESSAGE,
      type: 0,
      channel_id: GENERAL,
      author: toWirePublicUser(userOf(CAROL)),
      content: 'hello world',
      timestamp: new Date(Number((BigInt(HELLO_MESSAGE) >> 22n) + 1420070400000n)).toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      flags: 0,
      components: [],
    });
  });

  it('a MESSAGE command on a stored response: the bot wrote it, and it answers a command', () => {
    const command = messageCommand();
    const guild = testGuild();
    const target = guildTarget();
    const responseId = '1370000000000000009';
    const stored: StoredMessage = {
      id: responseId,
      channel_id: GENERAL,
      guild_id: GUILD_ID,
      author: { kind: 'app', id: APP_ID },
      content: 'pong',
      embeds: [],
      components: [],
      flags: 0,
      timestamp: '2025-04-01T00:00:00.000Z',
      edited_timestamp: null,
      ephemeral_for_user_id: null,
      interaction_metadata: {
        id: INTERACTION_ID,
        type: 2,
        user_id: BOB,
        authorizing_integration_owners: { '0': GUILD_ID },
        name: 'demo',
        command_type: 1,
      },
    };
    const messages = [...target.messages, stored];
    const checked = check(command, { target_id: responseId }, 'command', { ...target, messages });
    const built = buildInteraction({
      id: INTERACTION_ID,
      token: TOKEN,
      kind: 'command',
      app: app(),
      command,
      checked,
      user: userOf(ALICE),
      guild,
      member: memberOf(ALICE),
      channel: target.channel,
      locale: 'en-US',
      messages,
      users: target.users,
      authorizingIntegrationOwners: { '0': GUILD_ID },
      context: 0,
      appPermissions: '0',
      memberPermissions: '0',
    });
    const message = field(built, 'data', 'resolved', 'messages', responseId);
    assert.equal(message.type, 20);
    assert.equal(field(message, 'author').bot, true);
    assert.equal(field(message, 'author').username, 'Demo Bot');
    assert.equal(message.webhook_id, APP_ID);
    assert.equal(field(message, 'interaction_metadata').name, 'demo');
  });

  it('roles, channels and attachments that options reference', () => {
    const built = inGuild(everyOptionCommand(), {
      options: [
        { name: 'text', value: 'hello' },
        { name: 'role', value: MODERATOR_ROLE },
        { name: 'any', value: GUILD_ID },
        { name: 'anywhere', value: CATEGORY },
        { name: 'file', value: NOBODY },
      ],
    });
    const resolved = field(built, 'data', 'resolved');
    assert.deepEqual(Object.keys(resolved).sort(), ['attachments', 'channels', 'roles']);
    assert.deepEqual(field(resolved, 'roles', MODERATOR_ROLE), {
      id: MODERATOR_ROLE,
      name: 'Moderator',
      permissions: '268435490',
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      managed: false,
      mentionable: false,
      position: 2,
      icon: null,
      unicode_emoji: null,
      flags: 0,
    });
    assert.equal(field(resolved, 'roles', GUILD_ID).position, 0);
    assert.equal(field(resolved, 'roles', GUILD_ID).name, '@everyone');
    const guild = testGuild();
    const category = guild.channels.find((channel) => channel.id === CATEGORY);
    assert.ok(category);
    assert.deepEqual(field(resolved, 'channels', CATEGORY), {
      id: CATEGORY,
      type: 4,
      name: 'Text',
      nsfw: false,
      parent_id: null,
      flags: 0,
      guild_id: GUILD_ID,
      permissions: formatPermissions(channelPermissions(guild, memberOf(BOB), category)),
    });
    assert.deepEqual(field(resolved, 'attachments', NOBODY), {
      id: NOBODY,
      filename: 'file',
      size: 0,
      url: '',
      proxy_url: '',
      content_type: 'application/octet-stream',
      ephemeral: true,
    });
  });

  it('an attachment the caller supplies replaces the placeholder', () => {
    const command = everyOptionCommand();
    const target = guildTarget();
    const upload = {
      id: NOBODY,
      filename: 'cat.png',
      size: 3,
      url: 'http://127.0.0.1/cat.png',
      proxy_url: 'http://127.0.0.1/cat.png',
    };
    const input: InteractionInput = {
      id: INTERACTION_ID,
      token: TOKEN,
      kind: 'command',
      app: app(),
      command,
      checked: check(
        command,
        {
          options: [
            { name: 'text', value: 'hello' },
            { name: 'file', value: NOBODY },
          ],
        },
        'command',
        target,
      ),
      user: userOf(BOB),
      guild: testGuild(),
      member: memberOf(BOB),
      channel: target.channel,
      locale: 'fr',
      messages: [],
      users: target.users,
      authorizingIntegrationOwners: { '0': GUILD_ID },
      context: 0,
      appPermissions: '0',
      memberPermissions: '0',
      attachments: { [NOBODY]: upload },
    };
    assert.deepEqual(field(buildInteraction(input), 'data', 'resolved', 'attachments', NOBODY), upload);
  });

  it('a referenced member implies its user', () => {
    const command = userCommand();
    const target = guildTarget();
    const checked: CheckedInvocation = {
      options: undefined,
      focused: null,
      target_id: BOB,
      referenced: { users: [], members: [BOB], roles: [], channels: [], messages: [], attachments: [] },
    };
    const built = buildInteraction({
      id: INTERACTION_ID,
      token: TOKEN,
      kind: 'command',
      app: app(),
      command,
      checked,
      user: userOf(ALICE),
      guild: testGuild(),
      member: memberOf(ALICE),
      channel: target.channel,
      locale: 'en-US',
      messages: [],
      users: target.users,
      authorizingIntegrationOwners: { '0': GUILD_ID },
      context: 0,
      appPermissions: '0',
      memberPermissions: '0',
    });
    assert.deepEqual(Object.keys(field(built, 'data', 'resolved', 'users')), [BOB]);
  });
});
