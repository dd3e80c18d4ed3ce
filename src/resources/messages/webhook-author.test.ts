/**
 * A message a channel webhook wrote: its author is the webhook (its id, the name and avatar it
 * sent with, a bot, discriminator "0000"), and the message carries `webhook_id` (and the
 * application that owns the webhook), as v10 renders it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toWireMessage, type StoredMessage } from './rules/messages.js';

const message: StoredMessage = {
  id: '2000',
  channel_id: '300',
  guild_id: '100',
  author: { kind: 'webhook', id: '4000', username: 'Deploys', avatar: 'a1b2c3' },
  content: 'shipped',
  embeds: [],
  components: [],
  flags: 0,
  timestamp: new Date(0).toISOString(),
  edited_timestamp: null,
  ephemeral_for_user_id: null,
  webhook_id: '4000',
  application_id: '500',
};

describe('a webhook’s message', () => {
  test('is written by the webhook, a bot with discriminator "0000", and carries webhook_id', () => {
    const asked: string[] = [];
    const wire = toWireMessage(message, {
      findUser: (id) => (asked.push(id), undefined),
      findApplication: () => undefined,
    });
    const { id, username, avatar, discriminator, bot, global_name } = wire.author;
    assert.deepEqual(
      { id, username, avatar, discriminator, bot, global_name },
      { id: '4000', username: 'Deploys', avatar: 'a1b2c3', discriminator: '0000', bot: true, global_name: null },
    );
    assert.equal(wire.author.public_flags, 0, 'the rest of a public user object, as v10 sends it');
    assert.equal(wire.webhook_id, '4000');
    assert.equal(wire.application_id, '500');
    assert.equal(wire.type, 0);
    assert.deepEqual(asked, [], 'no user is looked up for the webhook');
  });
});
