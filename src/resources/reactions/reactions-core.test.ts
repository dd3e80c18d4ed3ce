/** The pure half of reactions: which emoji a path names, the users query, and the intent each event needs. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Intent, intentsAllow } from '../../core/gateway/intents.js';
import {
  emojiOfKey,
  emojiUsableBy,
  readReactionEmoji,
  readReactionUsersQuery,
  REACTION_USERS_PAGE_DEFAULT,
  wireReaction,
} from './rules.js';

describe('reactions core', () => {
  test('a unicode emoji (ZWJ sequences, flags, keycaps, skin tones) is read; text, pairs and custom emojis are not', () => {
    for (const emoji of ['👍', '❤️', '👨‍👩‍👧', '🇫🇷', '1️⃣', '👍🏽']) {
      assert.deepEqual(readReactionEmoji(emoji, []), { key: emoji, wire: { id: null, name: emoji } }, emoji);
    }
    for (const raw of ['', 'a', 'thumbsup', '👍👍', 'blob:1345183757107200999', 'a:blob:1345183757107200999', '1']) {
      assert.equal(readReactionEmoji(raw, []), null, raw);
    }
  });

  const BLOB = { id: '1345183757107200999', name: 'blob', animated: true, roles: [], available: true };

  test('a custom emoji of the guild is read by its id (`name:id`, `a:name:id`), keyed by its id', () => {
    const read = { key: BLOB.id, wire: { id: BLOB.id, name: 'blob', animated: true }, custom: BLOB };
    assert.deepEqual(readReactionEmoji(`blob:${BLOB.id}`, [BLOB]), read);
    assert.deepEqual(readReactionEmoji(`a:blob:${BLOB.id}`, [BLOB]), read);
    assert.equal(readReactionEmoji('blob:1345183757107200998', [BLOB]), null);
    // A stored key names the emoji as the guild has it now; one it no longer has keeps its id.
    assert.deepEqual(emojiOfKey(BLOB.id, [BLOB]), { id: BLOB.id, name: 'blob', animated: true });
    assert.deepEqual(emojiOfKey(BLOB.id, []), { id: BLOB.id, name: null });
    assert.deepEqual(emojiOfKey('👍', [BLOB]), { id: null, name: '👍' });
  });

  test('a custom emoji is usable when available, and by a member with one of its roles when it names some', () => {
    assert.equal(emojiUsableBy(BLOB, []), true);
    assert.equal(emojiUsableBy({ ...BLOB, available: false }, []), false);
    const locked = { ...BLOB, roles: ['1345183757107201000'] };
    assert.equal(emojiUsableBy(locked, []), false);
    assert.equal(emojiUsableBy(locked, ['1345183757107201000']), true);
  });

  test('the users query: limit 1-100 defaulting to 25, after a snowflake, type 0 or 1', () => {
    const plain = readReactionUsersQuery({});
    assert.ok(plain.ok);
    assert.deepEqual(plain.value, { limit: REACTION_USERS_PAGE_DEFAULT, after: undefined, burst: false });
    const bad = readReactionUsersQuery({ limit: '0', after: 'x', type: '2' });
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.deepEqual(bad.issues.map((i) => i.path.join('.')).sort(), ['after', 'limit', 'type']);
  });

  test('MESSAGE_REACTION_* need GUILD_MESSAGE_REACTIONS in a guild, DIRECT_MESSAGE_REACTIONS in a DM', () => {
    for (const t of [
      'MESSAGE_REACTION_ADD',
      'MESSAGE_REACTION_REMOVE',
      'MESSAGE_REACTION_REMOVE_ALL',
      'MESSAGE_REACTION_REMOVE_EMOJI',
    ]) {
      assert.equal(intentsAllow(Intent.GuildMessageReactions, t, true), true, t);
      assert.equal(intentsAllow(Intent.Guilds | Intent.GuildMessages, t, true), false, t);
      assert.equal(intentsAllow(Intent.DirectMessageReactions, t, false), true, t);
      assert.equal(intentsAllow(Intent.GuildMessageReactions, t, false), false, t);
    }
  });

  test('a message object’s reaction has v10’s fields', () => {
    assert.deepEqual(wireReaction('👍', 2, true, []), {
      count: 2,
      count_details: { burst: 0, normal: 2 },
      me: true,
      me_burst: false,
      emoji: { id: null, name: '👍' },
      burst_colors: [],
    });
  });
});
