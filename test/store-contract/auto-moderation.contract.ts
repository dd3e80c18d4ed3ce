/**
 * The AutoModerationStore contract: a rule read back as written, a guild's rules listed by id (as
 * snowflakes), guilds kept apart (a rule is never read, changed or deleted through another guild),
 * the bound counted per guild and per trigger type, and racing creates never passing it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AutoModerationActionType } from 'discord-api-types/v10';
import type { StoredRule } from '../../src/resources/auto-moderation/rules/rule.js';
import { emptyTriggerMetadata } from '../../src/resources/auto-moderation/rules/rule.js';
import type { AutoModerationStore } from '../../src/resources/auto-moderation/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { APP_A } from './fixtures.js';

const GUILD = '1800000000000000001';
const OTHER_GUILD = '1800000000000000002';

function rule(id: string, extra: Partial<StoredRule> = {}): StoredRule {
  return {
    id,
    guild_id: GUILD,
    creator_id: APP_A,
    name: `rule ${id}`,
    event_type: 1,
    trigger_type: 1,
    trigger_metadata: { ...emptyTriggerMetadata(), keyword_filter: ['badword'], allow_list: ['ok*'] },
    actions: [{ type: AutoModerationActionType.BlockMessage, custom_message: 'no' }],
    enabled: true,
    exempt_roles: ['1800000000000000100'],
    exempt_channels: [],
    ...extra,
  };
}

export function describeAutoModerationStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: AutoModerationStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): AutoModerationStore => t.stores.autoModeration;

    it('reads a rule back as written, lists a guild’s by id, and keeps guilds apart', async () => {
      const first = rule('1900000000000000010');
      const second = rule('900000000000000011', {
        trigger_type: 5,
        trigger_metadata: { ...emptyTriggerMetadata(), mention_total_limit: 3 },
        actions: [{ type: AutoModerationActionType.Timeout, duration_seconds: 60 }],
      });
      assert.equal(await store().createRule(first, 6), 'created');
      assert.equal(await store().createRule(second, 1), 'created');
      assert.equal(await store().createRule(rule('1900000000000000012', { guild_id: OTHER_GUILD }), 6), 'created');
      assert.deepEqual(await store().getRule(GUILD, first.id), first);
      assert.equal(await store().getRule(OTHER_GUILD, first.id), null);
      assert.deepEqual(
        (await store().listRules(GUILD)).map((r) => r.id),
        [second.id, first.id],
        'the shorter id first',
      );
      assert.deepEqual(
        (await store().listRules(OTHER_GUILD)).map((r) => r.id),
        ['1900000000000000012'],
      );
    });

    it('updates and deletes only through the rule’s own guild', async () => {
      const kept = rule('1900000000000000020');
      await store().createRule(kept, 6);
      assert.equal(await store().updateRule({ ...kept, guild_id: OTHER_GUILD, name: 'taken' }), false);
      assert.equal(await store().deleteRule(OTHER_GUILD, kept.id), false);
      assert.equal((await store().getRule(GUILD, kept.id))?.name, kept.name);
      assert.equal(await store().updateRule({ ...kept, name: 'renamed', enabled: false }), true);
      assert.deepEqual(await store().getRule(GUILD, kept.id), { ...kept, name: 'renamed', enabled: false });
      assert.equal(await store().deleteRule(GUILD, kept.id), true);
      assert.equal(await store().deleteRule(GUILD, kept.id), false);
      assert.equal(await store().getRule(GUILD, kept.id), null);
      assert.equal(await store().updateRule(kept), false, 'gone');
    });

    it('the bound counts the guild’s rules of the trigger type; a deleted rule frees its place', async () => {
      assert.equal(await store().createRule(rule('1900000000000000030'), 2), 'created');
      assert.equal(await store().createRule(rule('1900000000000000031'), 2), 'created');
      assert.equal(await store().createRule(rule('1900000000000000032'), 2), 'full');
      assert.equal(await store().createRule(rule('1900000000000000033', { trigger_type: 4 }), 1), 'created');
      assert.equal(await store().createRule(rule('1900000000000000034', { guild_id: OTHER_GUILD }), 2), 'created');
      assert.equal(await store().getRule(GUILD, '1900000000000000032'), null, 'nothing written when full');
      assert.ok(await store().deleteRule(GUILD, '1900000000000000030'));
      assert.equal(await store().createRule(rule('1900000000000000032'), 2), 'created');
    });

    it('racing creates never pass the bound', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store().createRule(rule(`19000000000000001${i}0`), 3)),
      );
      assert.equal(outcomes.filter((o) => o === 'created').length, 3);
      assert.equal((await store().listRules(GUILD)).length, 3);
    });
  });
}
