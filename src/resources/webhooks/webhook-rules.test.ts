/**
 * The webhook rules alone: names (1-80 characters, counted as characters, without "clyde" or
 * "discord" in any case), avatars (data URIs of PNG, JPEG, GIF or WebP bytes, by their bytes
 * whatever type the URI names, at most WEBHOOK_AVATAR_BYTES_MAX, hashed by content), and an
 * execute's own fields and query.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gifHead, jpegHead, pngImage, webpHead } from '../../../test/helpers/images.js';
import type { Issue } from '../../core/io/issue.js';
import {
  WEBHOOK_AVATAR_BYTES_MAX,
  readAvatar,
  readExecuteQuery,
  readExecuteSender,
  readWebhookCreate,
  readWebhookName,
} from './rules.js';

function codes(issues: Issue[]): string[] {
  return issues.map((issue) => `${issue.path.join('.')}:${issue.code}`);
}

describe('webhook rules', () => {
  test('names: 1 to 80 characters (an emoji is one), no reserved word in any case', () => {
    const issues: Issue[] = [];
    assert.equal(readWebhookName('🚀'.repeat(80), ['name'], issues), '🚀'.repeat(80));
    assert.equal(readWebhookName('x'.repeat(81), ['name'], issues), undefined);
    assert.equal(readWebhookName('', ['name'], issues), undefined);
    assert.equal(readWebhookName('ClYdE', ['name'], issues), undefined);
    assert.equal(readWebhookName('my-discord-feed', ['name'], issues), undefined);
    assert.equal(readWebhookName(5, ['name'], issues), undefined);
    assert.deepEqual(codes(issues), [
      'name:BASE_TYPE_BAD_LENGTH',
      'name:BASE_TYPE_BAD_LENGTH',
      'name:WEBHOOK_INVALID_USERNAME',
      'name:WEBHOOK_INVALID_USERNAME',
      'name:STRING_TYPE_CONVERT',
    ]);
  });

  test('avatars: the four formats by their bytes, whatever type the URI names; a hash of the content', () => {
    const uri = (bytes: Buffer, type = 'image/jpg') => `data:${type};base64,${bytes.toString('base64')}`;
    const issues: Issue[] = [];
    const formats = [pngImage(2, 2), jpegHead(2, 2), gifHead(2, 2), webpHead(2, 2)].map(
      (bytes) => readAvatar(uri(bytes), ['avatar'], issues)?.contentType,
    );
    assert.deepEqual(formats, ['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    const one = readAvatar(uri(pngImage(2, 2)), ['avatar'], issues);
    const same = readAvatar(uri(pngImage(2, 2), 'image/png'), ['avatar'], issues);
    const other = readAvatar(uri(pngImage(3, 3)), ['avatar'], issues);
    assert.equal(one?.hash, same?.hash);
    assert.notEqual(one?.hash, other?.hash);
    assert.equal(readAvatar(null, ['avatar'], issues), null, 'null removes the avatar');
    assert.deepEqual(issues, []);
  });

  test('avatars refused: not a data URI, not base64, not an image, too large', () => {
    const issues: Issue[] = [];
    for (const value of [
      'https://example.test/a.png',
      'data:text/plain;base64,aGVsbG8=',
      'data:image/png;base64,***',
      `data:image/png;base64,${Buffer.from('plain text').toString('base64')}`,
      42,
    ]) {
      assert.equal(readAvatar(value, ['avatar'], issues), undefined, String(value));
    }
    const tooLarge = `data:image/png;base64,${'A'.repeat(Math.ceil((WEBHOOK_AVATAR_BYTES_MAX + 1) / 3) * 4)}`;
    assert.equal(readAvatar(tooLarge, ['avatar'], issues), undefined);
    assert.deepEqual(codes(issues), [...Array<string>(5).fill('avatar:IMAGE_INVALID'), 'avatar:BINARY_TYPE_MAX_SIZE']);
  });

  test('create: name required; the issues of both fields at once', () => {
    const refused = readWebhookCreate({ avatar: 'nope' });
    assert.ok(!refused.ok);
    assert.deepEqual(codes([...refused.issues]), ['name:BASE_TYPE_REQUIRED', 'avatar:IMAGE_INVALID']);
    assert.ok(!readWebhookCreate([]).ok);
  });

  test('execute: its own fields are taken out of the message; wait and thread_id read', () => {
    const read = readExecuteSender({
      content: 'hi',
      username: 'CI',
      avatar_url: 'https://example.test/a.png',
      thread_name: 'Post',
      message_reference: { message_id: '1' },
    });
    assert.ok(read.ok);
    assert.deepEqual(read.value.message, { content: 'hi' });
    assert.deepEqual(read.value.sender, {
      username: 'CI',
      avatarUrl: 'https://example.test/a.png',
      threadName: 'Post',
    });
    const badPost = readExecuteSender({ thread_name: 'x'.repeat(101) });
    assert.ok(!badPost.ok);
    assert.deepEqual(codes([...badPost.issues]), ['thread_name:BASE_TYPE_BAD_LENGTH']);
    assert.deepEqual(readExecuteQuery(true, '1345183757107200014'), {
      ok: true,
      value: { wait: true, threadId: '1345183757107200014' },
    });
    const bad = readExecuteQuery(null, 'general');
    assert.ok(!bad.ok);
    assert.deepEqual(codes([...bad.issues]), ['wait:BOOLEAN_TYPE_CONVERT', 'thread_id:NUMBER_TYPE_COERCE']);
  });
});
