/**
 * The WebhookStore contract: a channel holds at most `maxPerChannel` webhooks (a create or a move
 * beyond is refused, writing nothing), each is its app's (another app neither reads, edits nor
 * deletes it; the token routes find it by id alone), lists are by id, an edit keeps or replaces the
 * avatar's image, and the avatar is read only by its current hash. A channel follower (type 2) keeps
 * its source, and the followers of a channel are listed by it, any app's, by id, up to the limit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredWebhook, WebhookStore } from '../../src/resources/webhooks/store.js';
import { freshDatabasePerTest, START_MS, type MakeStores } from './harness.js';
import { APP_A, APP_B, CHANNEL_1, CHANNEL_1B, CHANNEL_2, GUILD_1, GUILD_2 } from './fixtures.js';

const PNG = { hash: 'a'.repeat(32), contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2]) };
const GIF = { hash: 'b'.repeat(32), contentType: 'image/gif', bytes: new Uint8Array([0x47, 0x49, 0x46, 0x38]) };

function webhook(id: string, parts: Partial<StoredWebhook> = {}): StoredWebhook {
  return {
    id,
    application_id: APP_A,
    guild_id: GUILD_1,
    channel_id: CHANNEL_1,
    type: 1,
    source_guild_id: null,
    source_channel_id: null,
    name: `hook ${id}`,
    avatar: null,
    token_digest: `digest-${id}`,
    created_at: START_MS,
    ...parts,
  };
}

export function describeWebhookStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: WebhookStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): WebhookStore => t.stores.webhooks;

    it('creates up to the channel’s bound; the next is refused and not written', async () => {
      assert.equal(await store().createWebhook(webhook('1600000000000000001'), null, 2), 'done');
      assert.equal(
        await store().createWebhook(webhook('1600000000000000002', { application_id: APP_B }), null, 2),
        'done',
      );
      assert.equal(await store().createWebhook(webhook('1600000000000000003'), null, 2), 'full');
      assert.equal(await store().findWebhook('1600000000000000003'), null);
      // Another channel counts apart.
      assert.equal(
        await store().createWebhook(webhook('1600000000000000004', { channel_id: CHANNEL_1B }), null, 2),
        'done',
      );
      assert.deepEqual(await store().findWebhook('1600000000000000001'), webhook('1600000000000000001'));
    });

    it('each webhook is its app’s: another app reads, lists, edits and deletes none of it', async () => {
      const mine = webhook('1600000000000000011', { avatar: PNG.hash });
      await store().createWebhook(mine, PNG, 15);
      await store().createWebhook(webhook('1600000000000000012', { application_id: APP_B }), null, 15);
      await store().createWebhook(
        webhook('1600000000000000013', { guild_id: GUILD_2, channel_id: CHANNEL_2 }),
        null,
        15,
      );
      assert.deepEqual(await store().getWebhook(APP_A, mine.id), mine);
      assert.equal(await store().getWebhook(APP_B, mine.id), null);
      assert.deepEqual(
        (await store().listChannelWebhooks(APP_A, CHANNEL_1)).map((w) => w.id),
        [mine.id],
      );
      assert.deepEqual(
        (await store().listGuildWebhooks(APP_B, GUILD_1)).map((w) => w.id),
        ['1600000000000000012'],
      );
      assert.deepEqual(
        (await store().listGuildWebhooks(APP_A, GUILD_2)).map((w) => w.id),
        ['1600000000000000013'],
      );
      assert.equal(await store().updateWebhook(APP_B, { ...mine, name: 'taken' }, undefined, 15), 'gone');
      assert.equal(await store().deleteWebhook(APP_B, mine.id), null);
      assert.equal((await store().findWebhook(mine.id))?.name, mine.name);
    });

    it('an edit keeps the image unless given one or null; the avatar is read by its current hash only', async () => {
      const hook = webhook('1600000000000000021', { avatar: PNG.hash });
      await store().createWebhook(hook, PNG, 15);
      assert.deepEqual(await store().getAvatar(hook.id, PNG.hash), PNG);
      assert.equal(await store().updateWebhook(APP_A, { ...hook, name: 'renamed' }, undefined, 15), 'done');
      assert.deepEqual(await store().getAvatar(hook.id, PNG.hash), PNG);
      assert.equal(await store().updateWebhook(APP_A, { ...hook, avatar: GIF.hash }, GIF, 15), 'done');
      assert.equal(await store().getAvatar(hook.id, PNG.hash), null);
      assert.deepEqual(await store().getAvatar(hook.id, GIF.hash), GIF);
      assert.equal(await store().updateWebhook(APP_A, { ...hook, avatar: null }, null, 15), 'done');
      assert.equal(await store().getAvatar(hook.id, GIF.hash), null);
      assert.equal((await store().findWebhook(hook.id))?.avatar, null);
    });

    it('a move into a full channel is refused and changes nothing; a move within bounds counts there', async () => {
      await store().createWebhook(webhook('1600000000000000031', { channel_id: CHANNEL_1B }), null, 1);
      const moving = webhook('1600000000000000032');
      await store().createWebhook(moving, null, 1);
      assert.equal(await store().updateWebhook(APP_A, { ...moving, channel_id: CHANNEL_1B }, undefined, 1), 'full');
      assert.equal((await store().findWebhook(moving.id))?.channel_id, CHANNEL_1);
      // Staying in its own full channel is no move.
      assert.equal(await store().updateWebhook(APP_A, { ...moving, name: 'same place' }, undefined, 1), 'done');
      assert.equal(await store().updateWebhook(APP_A, { ...moving, channel_id: CHANNEL_1B }, undefined, 2), 'done');
      assert.equal((await store().listChannelWebhooks(APP_A, CHANNEL_1B)).length, 2);
    });

    it('deletes by the app or, for the token routes, by id alone; the row deleted is returned once', async () => {
      const a = webhook('1600000000000000041');
      const b = webhook('1600000000000000042', { application_id: APP_B });
      await store().createWebhook(a, null, 15);
      await store().createWebhook(b, null, 15);
      assert.deepEqual(await store().deleteWebhook(APP_A, a.id), a);
      assert.equal(await store().deleteWebhook(APP_A, a.id), null);
      assert.deepEqual(await store().deleteWebhook(null, b.id), b);
      assert.equal(await store().findWebhook(b.id), null);
    });

    it('followers keep their source; a channel’s followers are listed by it, any app’s, by id, up to the limit', async () => {
      const follower = (id: string, parts: Partial<StoredWebhook> = {}): StoredWebhook =>
        webhook(id, { type: 2, source_guild_id: GUILD_2, source_channel_id: CHANNEL_2, ...parts });
      const second = follower('1600000000000000052', { application_id: APP_B, channel_id: CHANNEL_1B });
      const first = follower('1600000000000000051');
      await store().createWebhook(second, null, 15);
      await store().createWebhook(first, null, 15);
      await store().createWebhook(follower('1600000000000000053', { source_channel_id: CHANNEL_1B }), null, 15);
      await store().createWebhook(webhook('1600000000000000054'), null, 15);
      assert.deepEqual(await store().findWebhook(first.id), first);
      assert.deepEqual(await store().listFollowers(CHANNEL_2, 10), [first, second]);
      assert.deepEqual(await store().listFollowers(CHANNEL_2, 1), [first]);
      assert.deepEqual(await store().listFollowers(GUILD_1, 10), []);
      // An incoming webhook follows nothing; a deleted follower is no longer listed.
      await store().deleteWebhook(APP_B, second.id);
      assert.deepEqual(
        (await store().listFollowers(CHANNEL_2, 10)).map((w) => w.id),
        [first.id],
      );
    });
  });
}
