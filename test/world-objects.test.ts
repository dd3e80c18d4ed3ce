/**
 * The v10 world objects (src/core/world/v10-objects.ts, guild-create.ts) against the OpenAPI
 * schemas, and the GUILD_CREATE payload a bot gets: its channels, the threads it can view, its
 * members (only its own once the guild is large).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { messageDeleteDispatch, messageDispatch } from '../src/core/world/dispatch.js';
import { toWireGuildCreate } from '../src/core/world/guild-create.js';
import type { StoredMessage } from '../src/resources/messages/rules/messages.js';
import { directoryOf } from '../src/core/world/guild-members.js';
import { toWireChannel, toWireGuild } from '../src/core/world/v10-objects.js';
import { NO_STORED_COUNTERS, withCounters } from '../src/core/world/channel-counters.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { ALICE_ID, DEMO_APP_ID, GENERAL, TEST_GUILD_ID, THREAD, exampleWorld } from './helpers/world.js';
import type { Json } from './helpers/json.js';

const PRIVATE_THREAD = '1345183757107200015';

describe('v10 world objects', () => {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.channels.push({
    id: PRIVATE_THREAD,
    type: 12,
    name: 'private',
    nsfw: false,
    parent_id: GENERAL,
    permission_overwrites: [],
    thread_member_ids: [],
  });
  const directory = directoryOf(world.users, world.applications);

  test('the guild and every channel and thread match their schemas', () => {
    assertMatchesSchema('GuildResponse', toWireGuild(guild));
    for (const channel of guild.channels) {
      const wire = toWireChannel(guild, channel, withCounters(guild));
      assertMatchesSchema(channel.type >= 10 && channel.type <= 12 ? 'ThreadResponse' : 'GuildChannelResponse', wire);
    }
  });

  test('GUILD_CREATE: channels without threads, the threads the bot can view, every member', () => {
    const d: Json = toWireGuildCreate(
      guild,
      DEMO_APP_ID,
      directory,
      { largeThreshold: 50, withMembers: true },
      NO_STORED_COUNTERS,
    );
    assert.equal(d.id, TEST_GUILD_ID);
    assert.equal(d.unavailable, false);
    assert.equal(d.large, false);
    assert.equal(d.member_count, 5);
    assert.equal(d.members.length, 5);
    assert.equal(d.joined_at, d.members.find((m: Json) => m.user.id === DEMO_APP_ID).joined_at);
    assert.ok(d.channels.every((c: Json) => c.type < 10));
    // The bot is no member of the private thread and cannot manage threads.
    assert.deepEqual(
      d.threads.map((t: Json) => t.id),
      [THREAD],
    );
    for (const member of d.members) assertMatchesSchema('GuildMemberResponse', member);
    assert.deepEqual(d.presences, []);
  });

  test('GUILD_CREATE of a large guild lists only the bot itself', () => {
    const d: Json = toWireGuildCreate(
      guild,
      DEMO_APP_ID,
      directory,
      { largeThreshold: 2, withMembers: true },
      NO_STORED_COUNTERS,
    );
    assert.equal(d.large, true);
    assert.equal(d.member_count, 5);
    assert.deepEqual(
      d.members.map((m: Json) => m.user.id),
      [DEMO_APP_ID],
    );
  });

  test('GUILD_CREATE without GUILD_MEMBERS lists only the bot itself, and counts everyone', () => {
    const d: Json = toWireGuildCreate(
      guild,
      DEMO_APP_ID,
      directory,
      { largeThreshold: 50, withMembers: false },
      NO_STORED_COUNTERS,
    );
    assert.equal(d.large, false);
    assert.equal(d.member_count, 5);
    assert.deepEqual(
      d.members.map((m: Json) => m.user.id),
      [DEMO_APP_ID],
    );
    assert.equal(d.members[0].user.bot, true);
  });

  test('a message in a DM: no guild, its recipients named, no member', () => {
    const message: StoredMessage = {
      id: '1345183757107200500',
      channel_id: '1345183757107200501',
      guild_id: null,
      author: { kind: 'app', id: DEMO_APP_ID },
      content: 'hi',
      embeds: [],
      components: [],
      flags: 0,
      timestamp: '2025-03-01T00:00:00.000Z',
      edited_timestamp: null,
      ephemeral_for_user_id: null,
    };
    const ctx = { findUser: directory.user, findApplication: directory.application };
    const recipients = [DEMO_APP_ID, ALICE_ID];
    const created = messageDispatch('MESSAGE_CREATE', message, { guild: null, recipientIds: recipients }, ctx);
    assert.deepEqual(
      [created.guildId, created.channelId, created.recipientIds],
      [null, message.channel_id, recipients],
    );
    assert.equal(created.d.guild_id, undefined);
    assert.equal(created.d.member, undefined);
    assertMatchesSchema('MessageResponse', created.d);
    const deleted = messageDeleteDispatch(message, recipients);
    assert.deepEqual(deleted.d, { id: message.id, channel_id: message.channel_id });
    assert.deepEqual(deleted.recipientIds, recipients);
  });
});
