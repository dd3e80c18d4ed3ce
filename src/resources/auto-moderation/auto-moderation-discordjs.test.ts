/**
 * Auto moderation through an unmodified discord.js `Client`, as a moderation bot uses it:
 * `guild.autoModerationRules.create(...)` (its `autoModerationRuleCreate`), a member's message then
 * blocked (200000 for the member) and the bot's `autoModerationActionExecution` (no content without
 * MESSAGE_CONTENT, as v10), `fetch`, `rule.edit(...)` (`autoModerationRuleUpdate`), a refusal as
 * discord.js throws it (50035), and `rule.delete()` (`autoModerationRuleDelete`), after which the
 * message passes. Every wait is on an event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AutoModerationActionType,
  AutoModerationRuleEventType,
  AutoModerationRuleTriggerType,
  Client,
  Events,
  GatewayIntentBits,
  type AutoModerationActionExecution,
  type AutoModerationRule,
  type Guild,
} from 'discord.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

describe('auto moderation with an unmodified discord.js Client', () => {
  let server: TestServer;
  let client: Client<true>;
  let guild: Guild;
  const created = new Inbox<AutoModerationRule>((r) => `create ${r.name}`);
  const updated = new Inbox<AutoModerationRule>((r) => `update ${r.name}`);
  const deleted = new Inbox<AutoModerationRule>((r) => `delete ${r.name}`);
  const executions = new Inbox<AutoModerationActionExecution>((e) => `execution ${e.action.type}`);

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, (1n << 5n) | (1n << 7n));
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.AutoModerationConfiguration,
        GatewayIntentBits.AutoModerationExecution,
      ],
      rest: { api: `${server.url}/api` },
    });
    client.on(Events.AutoModerationRuleCreate, (rule) => created.push(rule));
    client.on(Events.AutoModerationRuleUpdate, (_old, rule) => updated.push(rule));
    client.on(Events.AutoModerationRuleDelete, (rule) => deleted.push(rule));
    client.on(Events.AutoModerationActionExecution, (execution) => executions.push(execution));
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    guild = await client.guilds.fetch(TEST_GUILD_ID);
  });

  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  const carolSays = (content: string) =>
    server.request('POST', `/channels/${GENERAL}/messages`, { auth: CAROL_TOKEN, body: { content } });

  test('create a keyword rule; a member’s message is blocked and the bot sees the execution', async () => {
    const rule = await guild.autoModerationRules.create({
      name: 'No spoilers',
      eventType: AutoModerationRuleEventType.MessageSend,
      triggerType: AutoModerationRuleTriggerType.Keyword,
      triggerMetadata: { keywordFilter: ['spoiler*'], regexPatterns: ['ending\\s+is'] },
      actions: [{ type: AutoModerationActionType.BlockMessage, metadata: { customMessage: 'No spoilers here!' } }],
      enabled: true,
      reason: 'spoiler season',
    });
    assert.equal(rule.name, 'No spoilers');
    assert.equal(rule.creatorId, DEMO_APP_ID);
    assert.deepEqual(rule.triggerMetadata.keywordFilter, ['spoiler*']);
    assert.equal(rule.actions[0]?.metadata.customMessage, 'No spoilers here!');
    assert.equal((await created.find((r) => r.id === rule.id, 'autoModerationRuleCreate')).name, 'No spoilers');

    const blocked = await carolSays('SPOILERS: the ending is happy');
    assert.equal(blocked.status, 400, blocked.text);
    assert.equal(blocked.body.code, 200000);
    assert.equal(blocked.body.custom_message, 'No spoilers here!');
    const execution = await executions.find((e) => e.ruleId === rule.id, 'autoModerationActionExecution');
    assert.equal(execution.action.type, AutoModerationActionType.BlockMessage);
    assert.equal(execution.userId, CAROL_ID);
    assert.equal(execution.channelId, GENERAL);
    assert.equal(execution.ruleTriggerType, AutoModerationRuleTriggerType.Keyword);
    assert.equal(execution.matchedKeyword, 'spoiler*');
    assert.equal(execution.content, '', 'no MESSAGE_CONTENT: no content');
    assert.equal(execution.autoModerationRule?.id, rule.id, 'discord.js finds the rule in its cache');
  });

  test('fetch, edit and delete with discord.js; a refusal is a DiscordAPIError', async () => {
    const rules = await guild.autoModerationRules.fetch({ cache: false });
    const rule = rules.find((r) => r.name === 'No spoilers');
    assert.ok(rule);
    const edited = await rule.edit({ name: 'No spoilers, please', exemptChannels: [GENERAL] });
    assert.equal(edited.name, 'No spoilers, please');
    assert.deepEqual([...edited.exemptChannels.keys()], [GENERAL]);
    await updated.find((r) => r.id === rule.id && r.name === 'No spoilers, please', 'autoModerationRuleUpdate');
    // #general is exempt now.
    assert.equal((await carolSays('spoiler: it was a dream')).status, 200);

    await assert.rejects(
      guild.autoModerationRules.create({
        name: 'Lookahead',
        eventType: AutoModerationRuleEventType.MessageSend,
        triggerType: AutoModerationRuleTriggerType.Keyword,
        triggerMetadata: { regexPatterns: ['foo(?=bar)'] },
        actions: [{ type: AutoModerationActionType.BlockMessage }],
      }),
      v10Error(400, 50035),
    );
    await rule.delete('season over');
    await deleted.find((r) => r.id === rule.id, 'autoModerationRuleDelete');
    assert.equal((await guild.autoModerationRules.fetch({ cache: false })).size, 0);
    await assert.rejects(
      guild.autoModerationRules.fetch({ autoModerationRule: rule.id, force: true }),
      v10Error(404, 10066),
    );
  });
});
