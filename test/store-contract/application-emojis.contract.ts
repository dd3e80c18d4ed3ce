/**
 * The ApplicationEmojiStore contract (`Store.applicationEmojis`): an application's emojis are keyed
 * by it (another's id finds, renames and deletes nothing, and lists never mix), listed by id as
 * numbers, each name once per application (another application may have it), bounded (the count
 * and the write one transaction); their images and ids are read alone (the CDN-like path, a
 * reaction's emoji); on this store and another opened on the same database. With them, an
 * application's Activity instance is read by its id, and only its application's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredApplicationEmoji } from '../../src/resources/application-emojis/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { activityInstance, APP_A, APP_B } from './fixtures.js';

const FILE = { content_type: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };

function emoji(id: string, name: string, applicationId = APP_A, animated = false): StoredApplicationEmoji {
  return { id, application_id: applicationId, name, animated };
}

export function describeApplicationEmojisContract(name: string, make: MakeStores): void {
  describe(`${name}: application emojis`, () => {
    const t = freshDatabasePerTest(make);

    it('emojis are keyed by their application and listed by id as numbers', async () => {
      const store = t.stores.applicationEmojis;
      // 19 and 20 digits: text order would put the longer id first.
      assert.equal(await store.create(emoji('1000000000000000001', 'second'), FILE, 10), 'created');
      assert.equal(await store.create(emoji('999999999999999999', 'first', APP_A, true), FILE, 10), 'created');
      assert.equal(await store.create(emoji('1000000000000000002', 'first', APP_B), FILE, 10), 'created');
      const other = await t.db.connect();
      assert.deepEqual(await other.applicationEmojis.list(APP_A), [
        emoji('999999999999999999', 'first', APP_A, true),
        emoji('1000000000000000001', 'second'),
      ]);
      assert.deepEqual(await other.applicationEmojis.list(APP_B), [emoji('1000000000000000002', 'first', APP_B)]);
      assert.deepEqual(
        await other.applicationEmojis.get(APP_A, '1000000000000000001'),
        emoji('1000000000000000001', 'second'),
      );
      assert.equal(await other.applicationEmojis.get(APP_B, '1000000000000000001'), null);
      assert.deepEqual(await other.applicationEmojis.list('1100000000000000999'), []);
    });

    it('a name is taken once per application, at create and at rename; refusals write nothing', async () => {
      const store = t.stores.applicationEmojis;
      await store.create(emoji('1000000000000000001', 'taken'), FILE, 10);
      await store.create(emoji('1000000000000000002', 'free'), FILE, 10);
      assert.equal(await store.create(emoji('1000000000000000003', 'taken'), FILE, 10), 'name_taken');
      assert.equal(await store.rename(APP_A, '1000000000000000002', 'taken'), 'name_taken');
      assert.equal(await store.rename(APP_A, '1000000000000000001', 'taken'), 'renamed', 'its own name again');
      assert.equal(await store.rename(APP_B, '1000000000000000002', 'other'), 'unknown', "another's emoji");
      assert.equal(await store.rename(APP_A, '1000000000000000009', 'other'), 'unknown');
      const other = await t.db.connect();
      assert.deepEqual(
        (await other.applicationEmojis.list(APP_A)).map((e) => e.name),
        ['taken', 'free'],
      );
      assert.equal(await store.rename(APP_A, '1000000000000000002', 'renamed'), 'renamed');
      assert.equal((await other.applicationEmojis.get(APP_A, '1000000000000000002'))?.name, 'renamed');
      assert.equal(await store.create(emoji('1000000000000000004', 'free'), FILE, 10), 'created', 'a freed name');
    });

    it('the bound: at max nothing more is written, each application its own', async () => {
      const store = t.stores.applicationEmojis;
      assert.equal(await store.create(emoji('1000000000000000001', 'a1'), FILE, 2), 'created');
      assert.equal(await store.create(emoji('1000000000000000002', 'a2'), FILE, 2), 'created');
      assert.equal(await store.create(emoji('1000000000000000003', 'a3'), FILE, 2), 'full');
      assert.equal(await store.create(emoji('1000000000000000004', 'b1', APP_B), FILE, 2), 'created');
      assert.equal((await store.list(APP_A)).length, 2);
      assert.equal(await store.getFile('1000000000000000003'), null, 'no image of a refused one');
    });

    it('images and ids are read alone; a delete removes both, and is keyed by the application', async () => {
      const store = t.stores.applicationEmojis;
      await store.create(emoji('1000000000000000001', 'mine'), FILE, 10);
      await store.create(emoji('1000000000000000002', 'theirs', APP_B), FILE, 10);
      const other = await t.db.connect();
      const file = await other.applicationEmojis.getFile('1000000000000000001');
      assert.deepEqual([file?.content_type, [...(file?.bytes ?? [])]], [FILE.content_type, [...FILE.bytes]]);
      assert.deepEqual(
        (await other.applicationEmojis.findByIds(['1000000000000000002', '1000000000000000001', '1000000000000000009']))
          .map((e) => [e.id, e.application_id])
          .sort(),
        [
          ['1000000000000000001', APP_A],
          ['1000000000000000002', APP_B],
        ],
      );
      assert.deepEqual(await other.applicationEmojis.findByIds([]), []);
      assert.equal(await store.delete(APP_B, '1000000000000000001'), false, "another's");
      assert.equal(await store.delete(APP_A, '1000000000000000001'), true);
      assert.equal(await store.delete(APP_A, '1000000000000000001'), false);
      assert.equal(await other.applicationEmojis.getFile('1000000000000000001'), null);
      assert.deepEqual(await other.applicationEmojis.findByIds(['1000000000000000001']), []);
      assert.equal((await other.applicationEmojis.list(APP_B)).length, 1);
    });

    it("an Activity instance is read by its id, only its application's", async () => {
      const instance = activityInstance(APP_A, '1910000000000000001');
      await t.stores.interactions.putActivityInstance(instance);
      const other = await t.db.connect();
      assert.deepEqual(await other.interactions.getActivityInstance(APP_A, instance.id), instance);
      assert.equal(await other.interactions.getActivityInstance(APP_B, instance.id), null);
      assert.equal(await other.interactions.getActivityInstance(APP_A, '1910000000000000002'), null);
    });
  });
}
