/**
 * Application emojis' pure rules: a create's and a rename's bodies (each refusal at its field, a
 * GIF animated whatever type its URI names), and the emoji object (no roles, the bot as `user`);
 * with them an Activity instance's wire object, in a guild channel and in a DM.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gifHead, pngImage } from '../../../test/helpers/images.js';
import { toWireActivityInstance } from '../activity-instances/rules.js';
import {
  isAnimatedImage,
  readApplicationEmojiCreate,
  readApplicationEmojiEdit,
  toWireApplicationEmoji,
} from './rules.js';

const png = `data:image/png;base64,${pngImage(2, 2).toString('base64')}`;
const gifAsJpg = `data:image/jpg;base64,${gifHead(2, 2).toString('base64')}`;

function fields(result: { ok: boolean; issues?: readonly { path: readonly (string | number)[]; code: string }[] }) {
  assert.equal(result.ok, false);
  return (result.issues ?? []).map((issue) => [issue.path.join('.'), issue.code]);
}

describe('application emoji rules', () => {
  it('a create needs a name of 2-32 word characters and an image', () => {
    const made = readApplicationEmojiCreate({ name: 'Ab_9', image: png });
    assert.ok(made.ok);
    assert.equal(made.value.name, 'Ab_9');
    assert.equal(isAnimatedImage(made.value.image), false);
    const gif = readApplicationEmojiCreate({ name: 'spin', image: gifAsJpg });
    assert.ok(gif.ok && isAnimatedImage(gif.value.image), 'the bytes say GIF');
    assert.deepEqual(fields(readApplicationEmojiCreate({ name: 'x'.repeat(33), image: png })), [
      ['name', 'BASE_TYPE_BAD_LENGTH'],
    ]);
    assert.deepEqual(fields(readApplicationEmojiCreate({ name: 'é_ok', image: 'nope' })), [
      ['name', 'STRING_TYPE_REGEX'],
      ['image', 'IMAGE_INVALID'],
    ]);
    assert.deepEqual(fields(readApplicationEmojiCreate({})), [
      ['name', 'BASE_TYPE_REQUIRED'],
      ['image', 'BASE_TYPE_REQUIRED'],
    ]);
  });

  it('a rename changes the name only; absent or null keeps it', () => {
    const edit = readApplicationEmojiEdit({ name: 'new_name', image: 'ignored' });
    assert.ok(edit.ok);
    assert.deepEqual(edit.value, { name: 'new_name' });
    const none = readApplicationEmojiEdit({ name: null });
    assert.ok(none.ok);
    assert.deepEqual(none.value, {});
    assert.deepEqual(fields(readApplicationEmojiEdit({ name: 5 })), [['name', 'STRING_TYPE_CONVERT']]);
  });

  it('the emoji object: no roles, colons, not managed, available, its bot as user', () => {
    const emoji = { id: '1500000000000000001', application_id: '1100000000000000001', name: 'logo', animated: true };
    const bot = {
      id: '1100000000000000001',
      username: 'Bot',
      discriminator: '0000',
      global_name: null,
      avatar: null,
      bot: true,
    };
    assert.deepEqual(toWireApplicationEmoji(emoji, bot), {
      id: emoji.id,
      name: 'logo',
      roles: [],
      user: bot,
      require_colons: true,
      managed: false,
      animated: true,
      available: true,
    });
    assert.equal('user' in toWireApplicationEmoji(emoji, null), false);
  });

  it('an Activity instance: a guild channel location, or a private one', () => {
    const launched = {
      id: '1500000000000000010',
      application_id: '1100000000000000001',
      channel_id: '1400000000000000001',
      guild_id: '1300000000000000001',
      user_id: '1200000000000000001',
      interaction_id: '1500000000000000009',
    };
    assert.deepEqual(toWireActivityInstance(launched), {
      application_id: launched.application_id,
      instance_id: launched.id,
      launch_id: launched.interaction_id,
      location: {
        id: `gc-${launched.guild_id}-${launched.channel_id}`,
        kind: 'gc',
        channel_id: launched.channel_id,
        guild_id: launched.guild_id,
      },
      users: [launched.user_id],
    });
    assert.deepEqual(toWireActivityInstance({ ...launched, guild_id: null }).location, {
      id: `pc-${launched.channel_id}`,
      kind: 'pc',
      channel_id: launched.channel_id,
    });
  });
});
