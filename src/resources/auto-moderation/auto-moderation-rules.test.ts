/**
 * Auto moderation's pure parts, in the fast tier: a Rust pattern read (refused where the regex
 * crate refuses it, translated where JavaScript spells it otherwise), keyword wildcards and the
 * allow list, presets, mention counting, who a rule looks at (exempt roles and channels, owners and
 * MANAGE_GUILD), the time-bounded runner, and who the gateway tells (the intents, MANAGE_GUILD, no
 * content without MESSAGE_CONTENT).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AutoModerationActionType, GatewayIntentBits } from 'discord-api-types/v10';
import { worldDispatchFor } from '../../core/gateway/world-filter.js';
import type { Guild } from '../../core/world/types.js';
import { messagePatternRunner, patternRunner } from './pattern-runner.js';
import { executionDispatch, ruleApplies, ruleDispatch } from './rules/execution.js';
import { keywordPattern, ruleMatch, uniqueMentions } from './rules/matching.js';
import { readRustPattern } from './rules/regex.js';
import { emptyTriggerMetadata, type StoredRule } from './rules/rule.js';

const GUILD = '1800000000000000001';
const CHANNEL = '1800000000000000011';
const CATEGORY = '1800000000000000010';
const OWNER = '1800000000000000100';
const MEMBER = '1800000000000000101';
const ROLE = '1800000000000000200';
const MANAGER_ROLE = '1800000000000000201';
const APP = '1800000000000000300';

function guild(appPermissions = '32'): Guild {
  return {
    id: GUILD,
    name: 'g',
    owner_id: OWNER,
    preferred_locale: 'en-US',
    roles: [
      { id: GUILD, name: '@everyone', permissions: '3072' },
      { id: ROLE, name: 'quiet', permissions: '0' },
      { id: MANAGER_ROLE, name: 'managers', permissions: '32' },
    ],
    channels: [
      { id: CATEGORY, type: 4, name: 'cat', nsfw: false, parent_id: null, permission_overwrites: [] },
      { id: CHANNEL, type: 0, name: 'general', nsfw: false, parent_id: CATEGORY, permission_overwrites: [] },
    ],
    members: [
      { user_id: OWNER, roles: [], nick: null, joined_at: '2025-01-01T00:00:00.000Z' },
      { user_id: MEMBER, roles: [], nick: null, joined_at: '2025-01-01T00:00:00.000Z' },
    ],
    installs: [{ application_id: APP, scopes: ['bot'], permissions: appPermissions }],
    messages: [],
  };
}

function rule(extra: Partial<StoredRule> = {}, metadata: Partial<StoredRule['trigger_metadata']> = {}): StoredRule {
  return {
    id: '1900000000000000001',
    guild_id: GUILD,
    creator_id: APP,
    name: 'r',
    event_type: 1,
    trigger_type: 1,
    trigger_metadata: { ...emptyTriggerMetadata(), ...metadata },
    actions: [{ type: AutoModerationActionType.BlockMessage, custom_message: null }],
    enabled: true,
    exempt_roles: [],
    exempt_channels: [],
    ...extra,
  };
}

const run = patternRunner();

describe('auto moderation: Rust patterns', () => {
  test('refuses what the regex crate refuses', () => {
    for (const pattern of [
      'a(?=b)',
      'a(?!b)',
      '(?<=a)b',
      '(?<!a)b',
      '(a)\\1',
      '(?<n>a)\\k<n>',
      '(?>a)',
      '(',
      '[a',
      'a{2,1}',
    ]) {
      assert.equal(readRustPattern(pattern).kind, 'refused', pattern);
    }
  });

  test('translates what JavaScript spells otherwise, and matches as Rust does', () => {
    const cases: [string, string, string[]][] = [
      ['(?P<word>b[a4]d)', 'so B4D', ['B4D']],
      ['\\Abad', 'bad start', ['bad']],
      ['end\\z', 'the end', ['end']],
      ['[]x]+', 'a]x]b', [']x]']],
      ['\\pL+', 'héllo 12', ['héllo']],
      ['a\\-b', 'a-b', ['a-b']],
      ['(?i)CAPS', 'caps', ['caps']],
    ];
    for (const [pattern, content, expected] of cases) {
      const read = readRustPattern(pattern);
      assert.equal(read.kind, 'pattern', `${pattern}: ${JSON.stringify(read)}`);
      if (read.kind === 'pattern') assert.deepEqual(run(read.pattern, content), expected, pattern);
    }
  });

  test('a catastrophic pattern is stopped by the time bound and matches nothing', () => {
    const slow = patternRunner(20);
    const read = readRustPattern('(a+)+b');
    assert.equal(read.kind, 'pattern');
    if (read.kind !== 'pattern') return;
    assert.deepEqual(slow(read.pattern, `${'a'.repeat(40)}!`), []);
    assert.equal(slow.timedOut(), 1);
    assert.deepEqual(run(read.pattern, 'aab'), ['aab'], 'the same pattern on a match, with the usual bound');
  });

  test('the patterns of one message share a budget: once it is spent, a pattern matches nothing', () => {
    let now = 0;
    const runs: number[] = [];
    const runner = Object.assign(
      (_pattern: unknown, content: string, limit?: number) => {
        runs.push(limit ?? -1);
        now += 60;
        return [content];
      },
      { timedOut: () => 0 },
    );
    const budgeted = messagePatternRunner(runner, () => now, 100);
    const pattern = { source: 'x', flags: 'iu' };
    assert.deepEqual(budgeted(pattern, 'x'), ['x']);
    assert.deepEqual(budgeted(pattern, 'x'), ['x']);
    assert.deepEqual(budgeted(pattern, 'x'), [], 'the budget is spent');
    assert.deepEqual(runs, [100, 40], 'each run gets what is left');
  });
});

describe('auto moderation: matching', () => {
  test('keyword wildcards: whole words, a word’s start, its end, anywhere', () => {
    const matches = (keyword: string, content: string) =>
      [...content.matchAll(keywordPattern(keyword))].map((m) => m[0]);
    assert.deepEqual(matches('cat', 'cat catapult bobcat'), ['cat']);
    assert.deepEqual(matches('cat*', 'cat catapult bobcat'), ['cat', 'catapult']);
    assert.deepEqual(matches('*cat', 'cat catapult bobcat'), ['cat', 'bobcat']);
    assert.deepEqual(matches('*cat*', 'cat catapult bobcat concatenate'), ['cat', 'catapult', 'bobcat', 'concatenate']);
    assert.deepEqual(matches('two words', 'say Two Words now'), ['Two Words']);
    assert.deepEqual(matches('a.b', 'axb a.b'), ['a.b'], 'a keyword is literal');
  });

  test('the allow list lets a match pass; the next one still counts', () => {
    const keyword = rule({}, { keyword_filter: ['cat*'], allow_list: ['catalog'] });
    assert.equal(ruleMatch(keyword, 'the catalog', run), null);
    assert.deepEqual(ruleMatch(keyword, 'the catalog and a catapult', run), {
      matched_keyword: 'cat*',
      matched_content: 'catapult',
    });
  });

  test('presets name no keyword; mention spam counts unique users and roles', () => {
    const preset = rule({ trigger_type: 4 }, { presets: [1] });
    assert.deepEqual(ruleMatch(preset, 'oh CRAP', run), { matched_keyword: null, matched_content: 'CRAP' });
    assert.equal(ruleMatch(preset, 'crapshoot', run), null);
    assert.equal(uniqueMentions('<@1> <@!1> <@2> <@&1> <@&1>'), 3);
    const mentions = rule({ trigger_type: 5 }, { mention_total_limit: 2 });
    assert.equal(ruleMatch(mentions, '<@1> <@2>', run), null);
    assert.ok(ruleMatch(mentions, '<@1> <@2> <@&3>', run));
    assert.equal(ruleMatch(rule({ trigger_type: 3 }), 'buy now!!!', run), null, 'spam is not judged');
  });

  test('who a rule looks at: not the owner, MANAGE_GUILD, an exempt role or channel (or its category), nor when disabled', () => {
    const g = guild();
    const channel = g.channels[1]!;
    const member = g.members[1]!;
    assert.equal(ruleApplies(rule(), g, member, channel), true);
    assert.equal(ruleApplies(rule(), g, g.members[0]!, channel), false, 'the owner');
    assert.equal(ruleApplies(rule(), g, { ...member, roles: [MANAGER_ROLE] }, channel), false, 'MANAGE_GUILD');
    assert.equal(ruleApplies(rule({ exempt_roles: [ROLE] }), g, { ...member, roles: [ROLE] }, channel), false);
    assert.equal(ruleApplies(rule({ exempt_channels: [CHANNEL] }), g, member, channel), false);
    assert.equal(ruleApplies(rule({ exempt_channels: [CATEGORY] }), g, member, channel), false);
    assert.equal(ruleApplies(rule({ enabled: false }), g, member, channel), false);
  });
});

describe('auto moderation: who the gateway tells', () => {
  const session = (intents: number) => ({ applicationId: APP, intents, shardId: 0, numShards: 1 });
  const executionOf = () =>
    executionDispatch(
      { guildId: GUILD, channelId: CHANNEL, userId: MEMBER, content: 'a badword', messageId: null },
      { rule: rule(), match: { matched_keyword: 'badword', matched_content: 'badword' } },
      { type: AutoModerationActionType.BlockMessage, custom_message: null },
      null,
    );

  test('rule events need AUTO_MODERATION_CONFIGURATION and MANAGE_GUILD', () => {
    const event = ruleDispatch('AUTO_MODERATION_RULE_CREATE', rule());
    assert.ok(event.kind === 'dispatch');
    if (event.kind !== 'dispatch') return;
    assert.ok(worldDispatchFor(event.event, session(GatewayIntentBits.AutoModerationConfiguration), guild()));
    assert.equal(worldDispatchFor(event.event, session(GatewayIntentBits.AutoModerationExecution), guild()), null);
    assert.equal(
      worldDispatchFor(event.event, session(GatewayIntentBits.AutoModerationConfiguration), guild('0')),
      null,
      'no MANAGE_GUILD',
    );
  });

  test('an execution needs AUTO_MODERATION_EXECUTION; its content needs MESSAGE_CONTENT', () => {
    const event = executionOf();
    if (event.kind !== 'dispatch') return assert.fail('a dispatch');
    const execution = GatewayIntentBits.AutoModerationExecution;
    assert.equal(worldDispatchFor(event.event, session(GatewayIntentBits.AutoModerationConfiguration), guild()), null);
    const bare = worldDispatchFor(event.event, session(execution), guild());
    assert.equal(bare?.content, '');
    assert.equal(bare?.matched_content, '');
    assert.equal(bare?.matched_keyword, 'badword');
    const full = worldDispatchFor(event.event, session(execution | GatewayIntentBits.MessageContent), guild());
    assert.equal(full?.content, 'a badword');
    assert.equal(worldDispatchFor(event.event, session(execution), guild('0')), null, 'no MANAGE_GUILD');
  });
});
