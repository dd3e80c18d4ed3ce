import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  fromWorldMessage,
  messageTypeOf,
  messageVisibleTo,
  toWireMessage,
  type MessageRenderContext,
  type StoredInteractionMetadata,
  type StoredMessage,
} from '../messages/rules/messages.js';
import { toWirePublicUser } from '../../core/world/wire.js';
import {
  ALICE,
  APP_ID,
  BOB,
  CAROL,
  GENERAL,
  GUILD_ID,
  HELLO_MESSAGE,
  NOBODY,
  testGuild,
  userOf,
  world,
  INTERACTION_ID,
} from '../../../test/interactions-fixtures.js';

const RESPONSE_ID = '1370000000000000002';

const context: MessageRenderContext = {
  findUser: (id) => world().users.find((user) => user.id === id),
  findApplication: (id) => world().applications.find((app) => app.id === id),
};

function metadata(extra: Partial<StoredInteractionMetadata> = {}): StoredInteractionMetadata {
  return {
    id: INTERACTION_ID,
    type: 2,
    user_id: BOB,
    authorizing_integration_owners: { '0': GUILD_ID },
    name: 'demo',
    command_type: 1,
    ...extra,
  };
}

function response(extra: Partial<StoredMessage> = {}): StoredMessage {
  return {
    id: RESPONSE_ID,
    channel_id: GENERAL,
    guild_id: GUILD_ID,
    author: { kind: 'app', id: APP_ID },
    content: 'pong',
    embeds: [],
    components: [],
    flags: 0,
    timestamp: '2025-04-01T00:00:00.000Z',
    edited_timestamp: null,
    interaction_metadata: metadata(),
    ephemeral_for_user_id: null,
    ...extra,
  };
}

describe('toWireMessage', () => {
  it('a response to a slash command: the bot as author, webhook and application ids, type 20, interaction_metadata', () => {
    const wire = toWireMessage(response(), context);
    assert.deepEqual(wire, {
      id: RESPONSE_ID,
      type: 20,
      channel_id: GENERAL,
      author: { ...toWirePublicUser({ ...userOf(ALICE), id: APP_ID, username: 'Demo Bot' }), bot: true },
      content: 'pong',
      timestamp: '2025-04-01T00:00:00.000Z',
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
      webhook_id: APP_ID,
      application_id: APP_ID,
      interaction_metadata: {
        id: INTERACTION_ID,
        type: 2,
        user: toWirePublicUser(userOf(BOB)),
        authorizing_integration_owners: { '0': GUILD_ID },
        name: 'demo',
        command_type: 1,
      },
      interaction: { id: INTERACTION_ID, type: 2, name: 'demo', user: toWirePublicUser(userOf(BOB)) },
    });
  });

  it('an ephemeral message carries flag 64 on top of its own flags', () => {
    assert.equal(toWireMessage(response({ flags: 4, ephemeral_for_user_id: BOB }), context).flags, 68);
  });

  it('answers to context menu commands are type 23', () => {
    for (const commandType of [2, 3]) {
      assert.equal(messageTypeOf(response({ interaction_metadata: metadata({ command_type: commandType }) })), 23);
    }
  });

  it('a follow-up of a USER command names its original response and target', () => {
    const message = response({
      interaction_metadata: metadata({
        command_type: 2,
        original_response_message_id: RESPONSE_ID,
        target_user_id: CAROL,
      }),
    });
    const wire = toWireMessage(message, context).interaction_metadata;
    assert.equal(wire?.original_response_message_id, RESPONSE_ID);
    assert.deepEqual(wire?.target_user, toWirePublicUser(userOf(CAROL)));
  });

  it("a MESSAGE command's answer names the target message", () => {
    const message = response({ interaction_metadata: metadata({ command_type: 3, target_message_id: HELLO_MESSAGE }) });
    assert.equal(toWireMessage(message, context).interaction_metadata?.target_message_id, HELLO_MESSAGE);
  });

  it("a user's message: type 0, no webhook, no interaction fields", () => {
    const hello = testGuild().messages[0];
    assert.ok(hello);
    const wire = toWireMessage(fromWorldMessage(hello, GUILD_ID), context);
    assert.equal(wire.type, 0);
    assert.deepEqual(wire.author, toWirePublicUser(userOf(CAROL)));
    for (const absent of ['webhook_id', 'application_id', 'interaction_metadata', 'interaction'])
      assert.equal(absent in wire, false, absent);
  });

  it("explicit webhook and application ids win over the author's", () => {
    const wire = toWireMessage(response({ webhook_id: NOBODY, application_id: APP_ID }), context);
    assert.equal(wire.webhook_id, NOBODY);
  });

  it('an author nobody knows any more is shown as a deleted user', () => {
    const message = response({ author: { kind: 'user', id: NOBODY } });
    delete message.interaction_metadata;
    const wire = toWireMessage(message, context);
    assert.deepEqual(wire.author, toWirePublicUser({ ...userOf(ALICE), id: NOBODY, username: 'Deleted User' }));
  });

  it('is plain JSON', () => {
    const wire = toWireMessage(response(), context);
    assert.deepEqual(JSON.parse(JSON.stringify(wire)), wire);
  });
});

describe('fromWorldMessage', () => {
  it('takes its time from the snowflake', () => {
    const stored = fromWorldMessage(
      { id: HELLO_MESSAGE, channel_id: GENERAL, author_id: CAROL, content: 'hello world' },
      GUILD_ID,
    );
    assert.equal(Date.parse(stored.timestamp), Number((BigInt(HELLO_MESSAGE) >> 22n) + 1420070400000n));
    assert.equal(stored.ephemeral_for_user_id, null);
  });
});

describe('messageVisibleTo', () => {
  it('a normal message is seen by everyone', () => {
    assert.equal(messageVisibleTo(response(), ALICE), true);
    assert.equal(messageVisibleTo(response(), BOB), true);
  });

  it('an ephemeral message only by its invoking user', () => {
    const message = response({ ephemeral_for_user_id: BOB });
    assert.equal(messageVisibleTo(message, BOB), true);
    assert.equal(messageVisibleTo(message, ALICE), false);
  });
});
