/**
 * The BotProfileStore contract: a profile is its application's (another's is not touched), a plan
 * reads the stored profile and writes what it returns in one go (or nothing), an image is kept
 * unless given one or null and is read by its current hash only, and the world store's application
 * reads carry the profile (while a world write of the application keeps it); deleting the
 * application deletes its profile.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BotProfileStore, BotProfileWrite, StoredBotProfile } from '../../src/resources/users/store.js';
import { freshDatabasePerTest, START_MS, type MakeStores } from './harness.js';
import { APP_A, APP_B, TOKEN_A, TOKEN_B, application } from './fixtures.js';

const PNG = { hash: 'a'.repeat(32), contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2]) };
const GIF = { hash: 'a_' + 'b'.repeat(32), contentType: 'image/gif', bytes: new Uint8Array([0x47, 0x49, 0x46, 0x38]) };

function profile(parts: Partial<StoredBotProfile> = {}): StoredBotProfile {
  return { username: null, avatar: null, banner: null, username_changes: [], ...parts };
}

/** A plan that writes `write` whatever it reads, and answers what it read. */
const writing = (write: BotProfileWrite | null) => (current: StoredBotProfile | null) => ({ write, outcome: current });

export function describeBotProfileStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: BotProfileStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): BotProfileStore => t.stores.botProfiles;

    it('a plan reads the stored profile and writes what it returns; null writes nothing', async () => {
      assert.equal(await store().mutateBotProfile(APP_A, writing(null)), null);
      assert.equal(await store().getBotProfile(APP_A), null);
      const first = profile({ username: 'First', avatar: PNG.hash, username_changes: [START_MS] });
      assert.equal(
        await store().mutateBotProfile(APP_A, writing({ profile: first, avatar: PNG, banner: undefined })),
        null,
      );
      assert.deepEqual(await store().getBotProfile(APP_A), first);
      assert.deepEqual(await store().mutateBotProfile(APP_A, writing(null)), first);
      assert.equal(await store().getBotProfile(APP_B), null, 'another application’s is untouched');
    });

    it('an image is kept unless given one or null, and read by its current hash only', async () => {
      const both = profile({ avatar: PNG.hash, banner: GIF.hash });
      await store().mutateBotProfile(APP_A, writing({ profile: both, avatar: PNG, banner: GIF }));
      assert.deepEqual(await store().getBotImage(APP_A, 'avatar', PNG.hash), PNG);
      assert.deepEqual(await store().getBotImage(APP_A, 'banner', GIF.hash), GIF);
      assert.equal(await store().getBotImage(APP_A, 'banner', PNG.hash), null, 'by the banner’s own hash');
      assert.equal(await store().getBotImage(APP_B, 'avatar', PNG.hash), null, 'by its own application');
      const renamed = { ...both, username: 'Renamed' };
      await store().mutateBotProfile(APP_A, writing({ profile: renamed, avatar: undefined, banner: undefined }));
      assert.deepEqual(await store().getBotImage(APP_A, 'avatar', PNG.hash), PNG, 'undefined keeps the image');
      const noAvatar = { ...renamed, avatar: null };
      await store().mutateBotProfile(APP_A, writing({ profile: noAvatar, avatar: null, banner: undefined }));
      assert.equal(await store().getBotImage(APP_A, 'avatar', PNG.hash), null, 'null removes it');
      assert.deepEqual(await store().getBotImage(APP_A, 'banner', GIF.hash), GIF);
    });

    it('application reads carry the profile, a world write keeps it, and the application takes it along', async () => {
      await t.stores.world.putApplication(application(APP_A, TOKEN_A, 'App A'));
      await t.stores.world.putApplication(application(APP_B, TOKEN_B, 'App B'));
      const read = await t.stores.world.getApplication(APP_A);
      assert.equal(read?.bot_profile, undefined, 'no profile yet');
      const set = profile({ username: 'Bot A', avatar: PNG.hash });
      await store().mutateBotProfile(APP_A, writing({ profile: set, avatar: PNG, banner: undefined }));
      const shown = { username: 'Bot A', avatar: PNG.hash, banner: null };
      assert.deepEqual((await t.stores.world.getApplication(APP_A))?.bot_profile, shown);
      assert.deepEqual((await t.stores.world.findApplicationByBotToken(TOKEN_A))?.bot_profile, shown);
      const listed = await t.stores.world.listApplications();
      assert.deepEqual(
        listed.map((app) => app.bot_profile),
        [shown, undefined],
      );
      // A world write of the application (its name changed) keeps what its bot set.
      await t.stores.world.putApplication({ ...application(APP_A, TOKEN_A, 'App A renamed'), bot_profile: profile() });
      const after = await t.stores.world.getApplication(APP_A);
      assert.equal(after?.name, 'App A renamed');
      assert.deepEqual(after?.bot_profile, shown);
      const exported = await t.stores.world.exportWorld();
      assert.ok(
        exported.applications.every((app) => !('bot_profile' in app)),
        'no world file carries a profile',
      );
      await t.stores.world.deleteApplication(APP_A);
      assert.equal(await store().getBotProfile(APP_A), null);
      assert.equal(await store().getBotImage(APP_A, 'avatar', PNG.hash), null);
    });
  });
}
