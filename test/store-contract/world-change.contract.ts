/** The WorldStore contract for changes of part of the world: applyWorldChange, the world file digest, countWorld. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorldChange } from '../../src/core/world/world-change.js';
import { SEED_WORLD_DIGEST, WORLD_FILE_DIGEST } from '../../src/store/rows.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import {
  ALICE,
  APP_A,
  APP_B,
  application,
  BOB,
  GUILD_1,
  GUILD_2,
  smallWorld,
  TOKEN_A,
  TOKEN_B,
  user,
} from './fixtures.js';

function change(parts: { put?: Partial<WorldChange['put']>; remove?: Partial<WorldChange['remove']> }): WorldChange {
  return {
    put: { applications: [], users: [], guilds: [], oauth2_tokens: [], ...parts.put },
    remove: { applications: [], users: [], guilds: [], oauth2_tokens: [], ...parts.remove },
  };
}

export function describeWorldChangeContract(name: string, make: MakeStores): void {
  describe(`${name}: WorldStore changes`, () => {
    const t = freshDatabasePerTest(make);

    it('applies puts and removals together, leaving what the change does not name', async () => {
      const { world } = t.stores;
      await world.replaceWorld(smallWorld());
      const carol = user('1200000000000000003', 'carol-token');
      await world.applyWorldChange(
        change({
          put: { users: [carol, user(BOB, 'bob-token', 'bobby')] },
          remove: { guilds: [GUILD_2], applications: [APP_B], oauth2_tokens: ['alice-bearer'] },
        }),
      );
      assert.deepEqual(await world.getUser(carol.id), carol);
      assert.equal((await world.getUser(BOB))?.username, 'bobby');
      assert.equal((await world.getUser(ALICE))?.id, ALICE, 'a user the change does not name stays');
      assert.equal(await world.getGuild(GUILD_2), null);
      assert.equal((await world.getGuild(GUILD_1))?.members.length, 1);
      assert.equal(await world.getApplication(APP_B), null);
      assert.equal(await world.findOAuth2Token('alice-bearer'), null);
      assert.ok(await world.findOAuth2Token('a-client-credentials'));
      assert.deepEqual(await world.countWorld(), { applications: 1, users: 3, guilds: 1, oauth2_tokens: 1 });
    });

    it('objects written together may swap their tokens', async () => {
      const { world } = t.stores;
      await world.replaceWorld(smallWorld());
      await world.applyWorldChange(
        change({
          put: {
            users: [user(ALICE, 'bob-token'), user(BOB, 'alice-token')],
            applications: [application(APP_A, TOKEN_B), application(APP_B, TOKEN_A)],
          },
        }),
      );
      assert.equal((await world.findUserByToken('bob-token'))?.id, ALICE);
      assert.equal((await world.findUserByToken('alice-token'))?.id, BOB);
      assert.equal((await world.findApplicationByBotToken(TOKEN_A))?.id, APP_B);
    });

    it('records the world file digest, forgotten by any other write of the world', async () => {
      const { world } = t.stores;
      assert.equal(await world.worldFileDigest(), null);
      await world.applyWorldChange(change({ put: smallWorld() }), { name: WORLD_FILE_DIGEST, value: 'digest-1' });
      assert.equal(await world.worldFileDigest(), 'digest-1');
      await world.applyWorldChange(change({}));
      assert.equal(await world.worldFileDigest(), 'digest-1', 'a change of nothing keeps it');
      await world.putUser(user(ALICE, 'alice-token', 'renamed'));
      assert.equal(await world.worldFileDigest(), null, 'a user written alone forgets it');
      await world.applyWorldChange(change({}), { name: WORLD_FILE_DIGEST, value: 'digest-2' });
      await world.putOAuth2Token({
        access_token: 'issued',
        user_id: ALICE,
        application_id: APP_A,
        scopes: [],
        expires_at: Date.now() + 60_000,
      });
      assert.equal(await world.worldFileDigest(), 'digest-2', 'a token issued by a grant is no part of the file');
      await t.stores.members.deleteGuildMember(GUILD_1, ALICE);
      assert.equal(await world.worldFileDigest(), null, 'a member removed forgets it');
    });

    it('records the seed world digest, kept whatever is written after', async () => {
      const { world } = t.stores;
      assert.equal(await world.seedWorldDigest(), null);
      await world.applyWorldChange(change({ put: smallWorld() }), { name: SEED_WORLD_DIGEST, value: 'seed-1' });
      assert.equal(await world.seedWorldDigest(), 'seed-1');
      assert.equal(await world.worldFileDigest(), null, 'a seed is no world file');
      await world.putUser(user(ALICE, 'alice-token', 'renamed'));
      await t.stores.members.deleteGuildMember(GUILD_1, ALICE);
      assert.equal(await world.seedWorldDigest(), 'seed-1');
    });
  });
}
