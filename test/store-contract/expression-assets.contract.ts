/**
 * The ExpressionAssetStore contract: a guild holds at most `maxPerGuild` files of a kind (a put
 * beyond is refused, writing nothing; the other kind and other guilds count apart), a file is read
 * by its kind and id, bytes and type as stored, and deleted only by its own guild.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExpressionAsset, ExpressionAssetStore } from '../../src/resources/expressions/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { GUILD_1, GUILD_2 } from './fixtures.js';

function asset(id: string, parts: Partial<ExpressionAsset> = {}): ExpressionAsset {
  return {
    id,
    guild_id: GUILD_1,
    kind: 'emoji',
    content_type: 'image/png',
    bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, Number(id.slice(-1))]),
    ...parts,
  };
}

export function describeExpressionAssetStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: ExpressionAssetStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): ExpressionAssetStore => t.stores.expressionAssets;

    it('puts up to the guild’s bound of a kind; the next is refused and not written', async () => {
      assert.equal(await store().putAsset(asset('1700000000000000001'), 2), 'done');
      assert.equal(await store().putAsset(asset('1700000000000000002'), 2), 'done');
      assert.equal(await store().putAsset(asset('1700000000000000003'), 2), 'full');
      assert.equal(await store().getAsset('emoji', '1700000000000000003'), null);
      // Another kind, another guild: counted apart.
      assert.equal(await store().putAsset(asset('1700000000000000004', { kind: 'sticker' }), 2), 'done');
      assert.equal(await store().putAsset(asset('1700000000000000005', { guild_id: GUILD_2 }), 2), 'done');
    });

    it('reads a file by kind and id, as stored', async () => {
      const gif = asset('1700000000000000006', { kind: 'sticker', content_type: 'image/gif' });
      await store().putAsset(gif, 5);
      assert.deepEqual(await store().getAsset('sticker', gif.id), gif);
      assert.equal(await store().getAsset('emoji', gif.id), null, 'another kind does not find it');
    });

    it('deletes a file only for its own guild', async () => {
      await store().putAsset(asset('1700000000000000007'), 5);
      assert.equal(await store().deleteAsset(GUILD_2, '1700000000000000007'), false);
      assert.ok(await store().getAsset('emoji', '1700000000000000007'));
      assert.equal(await store().deleteAsset(GUILD_1, '1700000000000000007'), true);
      assert.equal(await store().getAsset('emoji', '1700000000000000007'), null);
      assert.equal(await store().deleteAsset(GUILD_1, '1700000000000000007'), false);
    });
  });
}
