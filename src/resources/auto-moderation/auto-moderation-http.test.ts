/**
 * Auto moderation over real HTTP on SQLite and PostgreSQL, every automod request and answer checked
 * against the public OpenAPI document: rules made, read, edited and deleted by a bot with
 * MANAGE_GUILD (AUTO_MODERATION_RULE_* to another bot, audit entries 140-142); v10's validation
 * (50035 at the field's path, nothing written), the caps (6 keyword rules, 1 of each other type:
 * AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED), who may (50013, 50001, 10066 across guilds); and the
 * rules acting on users' messages: a keyword blocked (200000 with the custom message, nothing
 * stored, an alert of type 24, AUTO_MODERATION_ACTION_EXECUTION, 143/144), a regex, a preset and
 * its allow list, an edit blocked, the owner and an exempt role let through, a catastrophic pattern
 * held to its time bound, and mention spam timing the member out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { THIRD_GUILD_ID, gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertErrorBody, assertMatchesOperation } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_BOT_TOKEN,
  ALICE_TOKEN,
  ANNOUNCEMENTS,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DAVE_TOKEN,
  DEMO_APP_ID,
  GENERAL,
  MUTED_ROLE,
  NOBODY,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const VIEW_CHANNEL = 1n << 10n;
const MANAGE_GUILD = 1n << 5n;
const MODERATE_MEMBERS = 1n << 40n;
const VIEW_AUDIT_LOG = 1n << 7n;

/** The gateway world: the demo bot manages the test guild and the third one; Other App manages the test guild and watches. */
function automodWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  for (const install of guild.installs) {
    if (install.application_id === DEMO_APP_ID) {
      install.permissions = (
        BigInt(install.permissions ?? '0') |
        MANAGE_GUILD |
        MODERATE_MEMBERS |
        VIEW_AUDIT_LOG
      ).toString();
    }
    if (install.application_id === OTHER_APP_ID) install.permissions = (VIEW_CHANNEL | MANAGE_GUILD).toString();
  }
  const third = world.guilds.find((g) => g.id === THIRD_GUILD_ID)!;
  third.installs[0]!.permissions = MANAGE_GUILD.toString();
  return world;
}

const LIST = '/guilds/{guild_id}/auto-moderation/rules';
const ONE = '/guilds/{guild_id}/auto-moderation/rules/{rule_id}';

function describeAutoModeration(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: auto moderation`, () => {
    let server: TestServer;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => String(p.t));
    const base = `/guilds/${TEST_GUILD_ID}/auto-moderation/rules`;

    before(async () => {
      server = await startServer({ ...options(), world: automodWorld() });
      watcher = await watchingBot(
        server,
        OTHER_BOT_TOKEN,
        [
          GatewayIntentBits.Guilds,
          GatewayIntentBits.AutoModerationConfiguration,
          GatewayIntentBits.AutoModerationExecution,
          GatewayIntentBits.MessageContent,
        ],
        raw,
      );
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    /** An automod request as the document has it: the body it allows, the answer it promises. */
    async function call(method: string, path: string, body?: Json, auth = BOT) {
      const template = path.split('/').length > 5 ? ONE : LIST;
      if (body !== undefined) assertMatchesOperation(method, template, 'request', body);
      const response = await server.request(method, path, { auth, body });
      if (response.status >= 400) assertErrorBody(response.status, response.body);
      else if (response.status === 204) assert.equal(response.text, '');
      else assertMatchesOperation(method, template, response.status, response.body);
      return response;
    }
    async function create(body: Json): Promise<Json> {
      const created = await call('POST', base, body);
      assert.equal(created.status, 200, created.text);
      return created.body as Json;
    }
    const remove = async (id: string) => assert.equal((await call('DELETE', `${base}/${id}`)).status, 204);
    const say = (auth: string, content: string, channel = GENERAL) =>
      server.request('POST', `/channels/${channel}/messages`, { auth, body: { content } });
    const keywordRule = (extra: Json = {}) => ({
      name: 'No bad words',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['badword', 'cat*', '*fish'], allow_list: ['catalog'] },
      actions: [
        { type: 1, metadata: { custom_message: 'Please keep it friendly.' } },
        { type: 2, metadata: { channel_id: ANNOUNCEMENTS } },
      ],
      enabled: true,
      ...extra,
    });

    test('create a keyword rule: v10 shape, read back, listed, AUTO_MODERATION_RULE_CREATE to another bot', async () => {
      const rule = await create(keywordRule());
      assert.equal(rule.creator_id, DEMO_APP_ID);
      assert.equal(rule.guild_id, TEST_GUILD_ID);
      assert.deepEqual(rule.trigger_metadata, {
        keyword_filter: ['badword', 'cat*', '*fish'],
        regex_patterns: [],
        allow_list: ['catalog'],
      });
      assert.deepEqual(rule.actions[0], { type: 1, metadata: { custom_message: 'Please keep it friendly.' } });
      const read = await call('GET', `${base}/${rule.id}`);
      assert.deepEqual(read.body, rule);
      const listed = await call('GET', base);
      assert.deepEqual(
        listed.body.map((r: Json) => r.id),
        [rule.id],
      );
      const told = await raw.find((p) => p.t === 'AUTO_MODERATION_RULE_CREATE' && p.d.id === rule.id, 'rule create');
      assert.deepEqual(told.d, rule);
      await remove(rule.id);
      await raw.find((p) => p.t === 'AUTO_MODERATION_RULE_DELETE' && p.d.id === rule.id, 'rule delete');
    });

    test('bad bodies: 50035 at the field, nothing written', async () => {
      const regex = (patterns: string[]) => keywordRule({ trigger_metadata: { regex_patterns: patterns } });
      const cases: [Json, string, string][] = [
        [keywordRule({ name: undefined }), 'name', 'BASE_TYPE_REQUIRED'],
        [keywordRule({ trigger_type: 2 }), 'trigger_type', 'BASE_TYPE_CHOICES'],
        [keywordRule({ event_type: 2 }), 'event_type', 'BASE_TYPE_CHOICES'],
        [
          keywordRule({ trigger_metadata: { keyword_filter: Array.from({ length: 1001 }, (_, i) => `w${i}`) } }),
          'trigger_metadata.keyword_filter',
          'BASE_TYPE_MAX_LENGTH',
        ],
        [
          keywordRule({ trigger_metadata: { keyword_filter: ['x'.repeat(61)] } }),
          'trigger_metadata.keyword_filter.0',
          'BASE_TYPE_BAD_LENGTH',
        ],
        [regex(['(?=look)ahead']), 'trigger_metadata.regex_patterns.0', 'AUTO_MODERATION_INVALID_REGEX'],
        [regex(['ok', '(?<!behind)x']), 'trigger_metadata.regex_patterns.1', 'AUTO_MODERATION_INVALID_REGEX'],
        [regex(['(a)\\1']), 'trigger_metadata.regex_patterns.0', 'AUTO_MODERATION_INVALID_REGEX'],
        [regex(['(unclosed']), 'trigger_metadata.regex_patterns.0', 'AUTO_MODERATION_INVALID_REGEX'],
        [regex(['a'.repeat(261)]), 'trigger_metadata.regex_patterns.0', 'BASE_TYPE_BAD_LENGTH'],
        [
          regex(Array.from({ length: 11 }, (_, i) => `p${i}`)),
          'trigger_metadata.regex_patterns',
          'BASE_TYPE_MAX_LENGTH',
        ],
        [
          keywordRule({ trigger_metadata: { allow_list: Array.from({ length: 101 }, (_, i) => `a${i}`) } }),
          'trigger_metadata.allow_list',
          'BASE_TYPE_MAX_LENGTH',
        ],
        [
          {
            name: 'mentions',
            event_type: 1,
            trigger_type: 5,
            trigger_metadata: { mention_total_limit: 51 },
            actions: [{ type: 1 }],
          },
          'trigger_metadata.mention_total_limit',
          'NUMBER_TYPE_MAX',
        ],
        [
          keywordRule({ actions: [{ type: 1, metadata: { custom_message: 'x'.repeat(151) } }] }),
          'actions.0.metadata.custom_message',
          'BASE_TYPE_MAX_LENGTH',
        ],
        [
          { name: 'spam', event_type: 1, trigger_type: 3, actions: [{ type: 3, metadata: { duration_seconds: 60 } }] },
          'actions.0.type',
          'AUTO_MODERATION_INVALID_ACTION',
        ],
        [
          keywordRule({ actions: [{ type: 3, metadata: { duration_seconds: 2419201 } }] }),
          'actions.0.metadata.duration_seconds',
          'NUMBER_TYPE_MAX',
        ],
        [keywordRule({ actions: [{ type: 2, metadata: {} }] }), 'actions.0.metadata.channel_id', 'BASE_TYPE_REQUIRED'],
        [
          keywordRule({ actions: [{ type: 2, metadata: { channel_id: NOBODY } }] }),
          'actions.0.metadata.channel_id',
          'AUTO_MODERATION_INVALID_CHANNEL',
        ],
        [keywordRule({ actions: [] }), 'actions', 'BASE_TYPE_MIN_LENGTH'],
        [
          keywordRule({ exempt_roles: Array.from({ length: 21 }, (_, i) => String(1345183757107300000n + BigInt(i))) }),
          'exempt_roles',
          'BASE_TYPE_MAX_LENGTH',
        ],
        [
          keywordRule({
            exempt_channels: Array.from({ length: 51 }, (_, i) => String(1345183757107300000n + BigInt(i))),
          }),
          'exempt_channels',
          'BASE_TYPE_MAX_LENGTH',
        ],
      ];
      for (const [body, path, code] of cases) {
        const sent = JSON.parse(JSON.stringify(body)) as Json;
        const refused = await server.request('POST', base, { auth: BOT, body: sent });
        assert.equal(refused.status, 400, `${path}: ${refused.text}`);
        assertErrorBody(400, refused.body);
        assert.equal(refused.body.code, 50035, refused.text);
        const node = path.split('.').reduce((n: Json | undefined, key) => n?.[key], refused.body.errors);
        assert.ok(node?._errors, `${path}: ${refused.text}`);
        assert.equal(node._errors[0].code, code, `${path}: ${refused.text}`);
      }
      const listed = await call('GET', base);
      assert.deepEqual(listed.body, [], 'nothing was written');
    });

    test('caps: 6 keyword rules and 1 of each other type, then AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED', async () => {
      const made: string[] = [];
      for (let i = 0; i < 6; i++) made.push((await create(keywordRule({ name: `rule ${i}`, enabled: false }))).id);
      const mention = await create({
        name: 'mentions',
        event_type: 1,
        trigger_type: 5,
        trigger_metadata: { mention_total_limit: 5 },
        actions: [{ type: 1 }],
      });
      made.push(mention.id);
      for (const body of [
        keywordRule({ name: 'seventh' }),
        { name: 'mentions again', event_type: 1, trigger_type: 5, actions: [{ type: 1 }] },
      ]) {
        const refused = await call('POST', base, body);
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 50035);
        assert.equal(refused.body.errors.trigger_type._errors[0].code, 'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED');
      }
      assert.equal((await call('GET', base)).body.length, 7);
      for (const id of made) await remove(id);
    });

    test('who may: MANAGE_GUILD (50013 without), not outside the guild (50001), no rule of another guild (10066)', async () => {
      const rule = await create(keywordRule());
      assert.equal((await call('GET', base, undefined, CAROL_TOKEN)).body.code, 50013);
      assert.equal((await call('POST', base, keywordRule(), CAROL_TOKEN)).body.code, 50013);
      // bob is a moderator (MANAGE_GUILD): he reads the guild's rules, whoever made them.
      const bobs = await call('GET', base, undefined, BOB_TOKEN);
      assert.deepEqual(
        bobs.body.map((r: Json) => r.id),
        [rule.id],
      );
      assert.equal((await call('GET', base, undefined, `Bot ${ACTIVITY_BOT_TOKEN}`)).body.code, 50001);
      // Other App's bot is in the second guild without MANAGE_GUILD.
      const second = `/guilds/${SECOND_GUILD_ID}/auto-moderation/rules`;
      assert.equal((await call('GET', second, undefined, `Bot ${OTHER_BOT_TOKEN}`)).body.code, 50013);
      assert.equal((await call('POST', second, keywordRule(), `Bot ${OTHER_BOT_TOKEN}`)).body.code, 50013);
      const third = `/guilds/${THIRD_GUILD_ID}/auto-moderation/rules`;
      assert.deepEqual((await call('GET', third)).body, []);
      assert.equal((await call('GET', `${third}/${rule.id}`)).body.code, 10066);
      assert.equal((await call('PATCH', `${third}/${rule.id}`, { name: 'taken' })).body.code, 10066);
      assert.equal((await call('DELETE', `${third}/${rule.id}`)).body.code, 10066);
      assert.equal((await call('GET', `${base}/${NOBODY}`)).body.code, 10066);
      assert.equal((await call('GET', base)).body[0].name, 'No bad words', 'untouched');
      await remove(rule.id);
    });

    test("a keyword blocks carol's message: 200000 with the custom message, nothing stored, an alert, the bot told", async () => {
      const rule = await create(keywordRule({ exempt_roles: [MUTED_ROLE] }));
      const blocked = await say(CAROL_TOKEN, 'you are a BadWord, really');
      assert.equal(blocked.status, 400, blocked.text);
      assertErrorBody(400, blocked.body);
      assert.equal(blocked.body.code, 200000);
      assert.equal(blocked.body.custom_message, 'Please keep it friendly.');
      const recent = await server.request('GET', `/channels/${GENERAL}/messages?limit=10`, { auth: CAROL_TOKEN });
      assert.ok(!recent.body.some((m: Json) => /badword/i.test(m.content)), 'nothing stored');

      const executions = await raw.findMany(
        2,
        (p) => p.t === 'AUTO_MODERATION_ACTION_EXECUTION' && p.d.rule_id === rule.id,
        'two executions',
      );
      const block = executions.find((p) => p.d.action.type === 1)!.d;
      assert.equal(block.user_id, CAROL_ID);
      assert.equal(block.channel_id, GENERAL);
      assert.equal(block.content, 'you are a BadWord, really');
      assert.equal(block.matched_keyword, 'badword');
      assert.equal(block.matched_content, 'BadWord');
      assert.equal(block.message_id, undefined);
      const alert = executions.find((p) => p.d.action.type === 2)!.d;
      const system = await server.request(
        'GET',
        `/channels/${ANNOUNCEMENTS}/messages/${alert.alert_system_message_id}`,
        {
          auth: BOT,
        },
      );
      assert.equal(system.status, 200, system.text);
      assert.equal(system.body.type, 24);
      assert.equal(system.body.author.id, CAROL_ID);
      assert.equal(system.body.embeds[0].type, 'auto_moderation_message');
      assert.equal(system.body.embeds[0].description, 'you are a BadWord, really');

      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs?user_id=${CAROL_ID}`, { auth: BOT });
      const actions = (log.body.audit_log_entries as Json[]).map((e) => e.action_type).sort();
      assert.deepEqual(actions, [143, 144]);
      const entry = (log.body.audit_log_entries as Json[]).find((e) => e.action_type === 143)!;
      assert.equal(entry.options.auto_moderation_rule_name, 'No bad words');
      assert.equal(entry.options.channel_id, GENERAL);

      // Wildcards: `cat*` a word's start, `*fish` its end; `catalog` is allowed; a word inside another is not `badword`.
      assert.equal((await say(CAROL_TOKEN, 'my catapult')).body.code, 200000);
      assert.equal((await say(CAROL_TOKEN, 'a swordfish')).body.code, 200000);
      assert.equal((await say(CAROL_TOKEN, 'the catalog is out')).status, 200);
      assert.equal((await say(CAROL_TOKEN, 'notbadwords here')).status, 200);
      // The owner, and a member with an exempt role, are let through.
      assert.equal((await say(ALICE_TOKEN, 'badword from the owner')).status, 200);
      assert.equal((await say(DAVE_TOKEN, 'badword from the muted')).status, 200);

      // An edit into a keyword is refused too, and the message keeps its content.
      const posted = await say(CAROL_TOKEN, 'a fine message');
      const edit = await server.request('PATCH', `/channels/${GENERAL}/messages/${posted.body.id}`, {
        auth: CAROL_TOKEN,
        body: { content: 'a badword message' },
      });
      assert.equal(edit.body.code, 200000, edit.text);
      const kept = await server.request('GET', `/channels/${GENERAL}/messages/${posted.body.id}`, {
        auth: CAROL_TOKEN,
      });
      assert.equal(kept.body.content, 'a fine message');
      await remove(rule.id);
    });

    test('regex patterns (Rust syntax) block; a catastrophic pattern is held to its time bound and lets the message through', async () => {
      const rule = await create(
        keywordRule({
          trigger_metadata: { regex_patterns: ['(?i)b[a4]d\\s?w[o0]rd', '(?P<run>a+)+b'] },
          actions: [{ type: 1 }],
        }),
      );
      const blocked = await say(CAROL_TOKEN, 'such a B4D W0RD');
      assert.equal(blocked.body.code, 200000, blocked.text);
      assert.equal(blocked.body.custom_message, undefined);
      assert.equal((await say(CAROL_TOKEN, 'aab')).body.code, 200000);
      const slow = await say(CAROL_TOKEN, `${'a'.repeat(40)}!`);
      assert.equal(slow.status, 200, slow.text);
      await remove(rule.id);
    });

    test('a keyword preset blocks its words; its allow list lets one through; the rule edited and deleted, audited', async () => {
      const rule = await create({
        name: 'Presets',
        event_type: 1,
        trigger_type: 4,
        trigger_metadata: { presets: [1] },
        actions: [{ type: 1, metadata: { custom_message: 'Language!' } }],
        enabled: true,
      });
      assert.deepEqual(rule.trigger_metadata, { presets: [1], allow_list: [] });
      const blocked = await say(CAROL_TOKEN, 'oh crap');
      assert.equal(blocked.body.custom_message, 'Language!');
      const edited = await call('PATCH', `${base}/${rule.id}`, {
        name: 'Presets, loosened',
        trigger_metadata: { presets: [1], allow_list: ['crap'] },
      });
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body.name, 'Presets, loosened');
      await raw.find((p) => p.t === 'AUTO_MODERATION_RULE_UPDATE' && p.d.name === 'Presets, loosened', 'update');
      assert.equal((await say(CAROL_TOKEN, 'oh crap')).status, 200);
      assert.equal((await say(CAROL_TOKEN, 'damn')).body.code, 200000);
      for (const [body, path] of [
        [{ trigger_metadata: { presets: [1, 1] } }, ['trigger_metadata', 'presets', 1]],
        [{ trigger_metadata: { presets: [9] } }, ['trigger_metadata', 'presets', 0]],
        [
          { actions: [{ type: 2, metadata: { channel_id: '1399999999999999999' } }] },
          ['actions', 0, 'metadata', 'channel_id'],
        ],
        [{ name: '' }, ['name']],
      ] as const) {
        const refused = await server.request('PATCH', `${base}/${rule.id}`, { auth: BOT, body });
        assert.equal(refused.body.code, 50035, refused.text);
        const node = (path as readonly (string | number)[]).reduce(
          (n: Json | undefined, key) => n?.[key],
          refused.body.errors,
        );
        assert.ok(node?._errors, `${path.join('.')}: ${refused.text}`);
      }
      assert.equal((await call('GET', `${base}/${rule.id}`)).body.name, 'Presets, loosened', 'nothing written');
      const immutable = await call('PATCH', `${base}/${rule.id}`, { trigger_type: 1 });
      assert.equal(immutable.body.errors.trigger_type._errors[0].code, 'AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE');
      await remove(rule.id);
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs`, { auth: BOT });
      const actions = (log.body.audit_log_entries as Json[])
        .filter((e) => e.target_id === rule.id)
        .map((e) => e.action_type);
      assert.deepEqual(actions.sort(), [140, 141, 142]);
    });

    test('mention spam times the member out (communication_disabled_until), the message posted and named', async () => {
      const rule = await create({
        name: 'Mentions',
        event_type: 1,
        trigger_type: 5,
        trigger_metadata: { mention_total_limit: 2, mention_raid_protection_enabled: false },
        actions: [
          { type: 3, metadata: { duration_seconds: 600 } },
          { type: 2, metadata: { channel_id: ANNOUNCEMENTS } },
        ],
        enabled: true,
      });
      assert.equal(
        (await say(CAROL_TOKEN, '<@1335036896870400001> <@1335036896870400001> <@&1345183757107200003>')).status,
        200,
      );
      const posted = await say(CAROL_TOKEN, '<@1335036896870400001> <@1335036896870400002> <@&1345183757107200003>');
      assert.equal(posted.status, 200, posted.text);
      const timeout = await raw.find(
        (p) => p.t === 'AUTO_MODERATION_ACTION_EXECUTION' && p.d.rule_id === rule.id && p.d.action.type === 3,
        'the timeout',
      );
      assert.equal(timeout.d.message_id, posted.body.id);
      assert.deepEqual(timeout.d.action, { type: 3, metadata: { duration_seconds: 600 } });
      const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, { auth: BOT });
      const until = Date.parse(member.body.communication_disabled_until);
      assert.ok(until > Date.now() + 500_000, member.text);
      const alert = await raw.find(
        (p) => p.t === 'AUTO_MODERATION_ACTION_EXECUTION' && p.d.rule_id === rule.id && p.d.action.type === 2,
        'the alert',
      );
      const system = await server.request(
        'GET',
        `/channels/${ANNOUNCEMENTS}/messages/${alert.d.alert_system_message_id}`,
        {
          auth: BOT,
        },
      );
      const fields = Object.fromEntries((system.body.embeds[0].fields as Json[]).map((f) => [f.name, f.value]));
      assert.equal(fields.flagged_message_id, posted.body.id);
      assert.equal(fields.timeout_duration, '600');
      // Timed out, carol sends no more.
      assert.equal((await say(CAROL_TOKEN, 'hello?')).status, 403);
      await remove(rule.id);
    });
  });
}

describeAutoModeration(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_automod');
describeAutoModeration(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
