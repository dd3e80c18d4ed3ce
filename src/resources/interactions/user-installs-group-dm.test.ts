/**
 * A user install in a group DM (context 2, PRIVATE_CHANNEL): the world file's `group_dms` hold
 * one of erin, bob and carol, and no bot is ever in it. After erin installs Demo Bot to her
 * account, its commands whose contexts hold 2 are in her picker there and answer through the
 * interaction webhook, read by a real discord.js bot (`interaction.context`,
 * `interaction.authorizingIntegrationOwners`, a reply and a follow-up); a command without 2 is
 * absent and refused. The group DM's `last_message_id` follows the app's answers; "Why not?" names
 * the user-install rule in the group DM and in a guild without the bot. On SQLite and
 * PostgreSQL; the group DM also comes through `POST /admin/world`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChannelType, Events, GatewayIntentBits, type Client, type Interaction } from 'discord.js';
import { InteractionContextType } from 'discord-api-types/v10';
import { Inbox } from '../../../test/helpers/inbox.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { invocationBody } from '../../../test/helpers/invocation.js';
import type { Json } from '../../../test/helpers/json.js';
import { consent } from '../../../test/helpers/oauth2.js';
import { assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { adminRequest, startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  BOB_ID,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  DAVE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  exampleWorld,
} from '../../../test/helpers/world.js';

const GROUP_DM = '1350000000000000301';
const ADDED_GROUP_DM = '1350000000000000302';
/** v10's group-DM app_permissions: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE. */
const GROUP_DM_APP_PERMISSIONS = String((1n << 15n) | (1n << 14n) | (1n << 17n));

interface Seen {
  id: string;
  context: number | null;
  owners: { guildId: string | null; userId: string | null };
  rawOwners: unknown;
  rawChannel: Json | undefined;
  channelType: number | undefined;
  appPermissions: string;
}

function describeGroupDms(label: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`user installs in a group DM (${label})`, () => {
    let server: TestServer;
    let bot: Client;
    const seen = new Inbox<Seen>();
    const raw = new Inbox<RawDispatch>();
    const commands: Record<string, Json> = {};

    before(async () => {
      const world = exampleWorld();
      world.group_dms = [{ id: GROUP_DM, name: 'trio', owner_id: ERIN_ID, recipients: [ERIN_ID, BOB_ID, CAROL_ID] }];
      // bob is in erin's guild too (Demo Bot is not), for "Why not?" there.
      world.guilds
        .find((g) => g.id === SECOND_GUILD_ID)!
        .members.push({ user_id: BOB_ID, roles: [], nick: null, joined_at: '2025-01-01T00:00:00.000Z' });
      server = await startServer({ world, ...options() });
      for (const body of [
        { name: 'note', description: 'Anywhere', integration_types: [1], contexts: [0, 1, 2] },
        { name: 'dmonly', description: 'Bot DM only', integration_types: [1], contexts: [1] },
        { name: 'guildside', description: 'Guild installs', integration_types: [0], contexts: [0, 1, 2] },
      ]) {
        const created = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, { auth: BOT, body });
        assert.equal(created.status, 201, created.text);
        commands[body.name] = created.body as Json;
      }
      bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw, (client) => {
        client.on(Events.InteractionCreate, (interaction: Interaction) => {
          if (!interaction.isChatInputCommand()) return;
          const packet = raw.all().find((p) => p.t === 'INTERACTION_CREATE' && p.d.id === interaction.id)?.d;
          seen.push({
            id: interaction.id,
            context: interaction.context,
            owners: {
              guildId: interaction.authorizingIntegrationOwners.guildId,
              userId: interaction.authorizingIntegrationOwners.userId,
            },
            rawOwners: packet?.authorizing_integration_owners,
            rawChannel: packet?.channel as Json | undefined,
            channelType: interaction.channel?.type,
            appPermissions: interaction.appPermissions.bitfield.toString(),
          });
          void (async () => {
            await interaction.reply({ content: `noted in the group for ${interaction.user.username}` });
            await interaction.followUp({ content: 'and a follow-up' });
          })();
        });
      });
    });

    after(async () => {
      await bot?.destroy();
      await server?.close();
      await cleanup();
    });

    const picker = (channelId: string, token: string) =>
      server.request('GET', `/channels/${channelId}/application-command-index`, { auth: token });
    const names = (index: Json) => (index.application_commands as Json[]).map((c) => c.name as string).sort();
    const invoke = (token: string, name: string, channelId: string) =>
      server.request('POST', '/interactions', {
        auth: token,
        body: invocationBody(commands[name]!, { guildId: null, channelId }),
      });

    async function appMessages(channelId: string, token: string, count: number): Promise<Json[]> {
      for (let attempt = 0; attempt < 200; attempt++) {
        const listed = await server.request('GET', `/channels/${channelId}/messages`, { auth: token });
        assert.equal(listed.status, 200, listed.text);
        const ofApp = (listed.body as Json[]).filter((m) => m.application_id === DEMO_APP_ID);
        if (ofApp.length >= count) return ofApp.reverse();
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.fail(`${count} messages of the app never appeared in ${channelId}`);
    }

    test("the group DM is in each recipient's channel list as v10's type 3, and nobody else's", async () => {
      const listed = await server.request('GET', '/users/@me/channels', { auth: ERIN_TOKEN });
      assert.equal(listed.status, 200, listed.text);
      const group = (listed.body as Json[]).find((c) => c.id === GROUP_DM);
      assert.ok(group, 'listed');
      assert.equal(group.type, ChannelType.GroupDM);
      assert.equal(group.name, 'trio');
      assert.deepEqual((group.recipients as Json[]).map((u) => u.id).sort(), [BOB_ID, CAROL_ID].sort());
      const daves = await server.request('GET', '/users/@me/channels', { auth: DAVE_TOKEN });
      assert.equal((daves.body as Json[]).filter((c) => c.id === GROUP_DM).length, 0);
      const exported = await adminRequest(server, 'GET', '/world');
      assert.deepEqual(
        (exported.body.group_dms as Json[]).map((g) => g.id),
        [GROUP_DM],
      );
    });

    test('before the install the picker is empty and invoking is 403 50013; a stranger gets 50001 and 10003', async () => {
      const index = await picker(GROUP_DM, ERIN_TOKEN);
      assert.equal(index.status, 200, index.text);
      assert.deepEqual(names(index.body as Json), []);
      const refused = await invoke(ERIN_TOKEN, 'note', GROUP_DM);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      const stranger = await picker(GROUP_DM, DAVE_TOKEN);
      assert.equal(stranger.status, 403, stranger.text);
      assert.equal(stranger.body.code, 50001);
      const strangerInvokes = await invoke(DAVE_TOKEN, 'note', GROUP_DM);
      assert.equal(strangerInvokes.status, 404, strangerInvokes.text);
      assert.equal(strangerInvokes.body.code, 10003);
    });

    test("after the install: only the USER_INSTALL command whose contexts hold 2 is in her picker, not bob's", async () => {
      const query = new URLSearchParams({
        client_id: DEMO_APP_ID,
        scope: 'applications.commands',
        integration_type: '1',
      });
      const result = await consent(server.url, `${server.url}/oauth2/authorize?${query.toString()}`, {
        userToken: ERIN_TOKEN,
      });
      assert.ok(result.status < 400, `the install went through: ${result.status}`);
      const index = await picker(GROUP_DM, ERIN_TOKEN);
      assert.deepEqual(names(index.body as Json), ['note']);
      const bobs = await picker(GROUP_DM, BOB_TOKEN);
      assert.deepEqual(names(bobs.body as Json), [], "erin's install is hers alone");
    });

    test('invoked there: context 2, a type 3 channel, owners {"1": erin}, the group-DM app_permissions; answers as the app', async () => {
      const answered = await invoke(ERIN_TOKEN, 'note', GROUP_DM);
      assert.equal(answered.status, 200, answered.text);
      const interaction = await seen.find((s) => s.id === answered.body.id, 'the bot gets the interaction');
      assert.equal(interaction.context, InteractionContextType.PrivateChannel);
      assert.deepEqual(interaction.rawOwners, { '1': ERIN_ID });
      assert.deepEqual(interaction.owners, { guildId: null, userId: ERIN_ID });
      assert.equal(interaction.rawChannel?.type, ChannelType.GroupDM);
      assert.equal(interaction.rawChannel?.id, GROUP_DM);
      assert.equal(interaction.appPermissions, GROUP_DM_APP_PERMISSIONS);
      const [reply, followUp] = await appMessages(GROUP_DM, BOB_TOKEN, 2);
      assert.equal(reply!.content, 'noted in the group for erin');
      assert.equal(followUp!.content, 'and a follow-up');
      for (const message of [reply!, followUp!]) {
        assert.equal(message.webhook_id, DEMO_APP_ID, 'sent through the interaction webhook, as the app');
        assert.equal((message.author as Json).id, DEMO_APP_ID);
        assert.deepEqual((message.interaction_metadata as Json).authorizing_integration_owners, { '1': ERIN_ID });
      }
    });

    test("the group DM's last_message_id follows its messages: listed and read alone, refused to a stranger and a bot", async () => {
      const messages = await appMessages(GROUP_DM, ERIN_TOKEN, 2);
      const newest = messages[messages.length - 1]!.id as string;
      const listed = await server.request('GET', '/users/@me/channels', { auth: BOB_TOKEN });
      assert.equal(listed.status, 200, listed.text);
      assert.equal((listed.body as Json[]).find((c) => c.id === GROUP_DM)!.last_message_id, newest);
      const read = await server.request('GET', `/channels/${GROUP_DM}`, { auth: ERIN_TOKEN });
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.type, ChannelType.GroupDM);
      assert.equal(read.body.last_message_id, newest);
      assertMatchesSchema('PrivateGroupChannelResponse', read.body);
      const strangers = await server.request('GET', `/channels/${GROUP_DM}`, { auth: DAVE_TOKEN });
      assert.equal(strangers.status, 403, strangers.text);
      assert.equal(strangers.body.code, 50001);
      const bots = await server.request('GET', `/channels/${GROUP_DM}`, { auth: BOT });
      assert.equal(bots.status, 403, bots.text);
    });

    test('commands whose contexts lack 2, or without USER_INSTALL, are refused there and nothing is delivered', async () => {
      const before = seen.all().length;
      for (const name of ['dmonly', 'guildside']) {
        const refused = await invoke(ERIN_TOKEN, name, GROUP_DM);
        assert.equal(refused.status, 403, `${name}: ${refused.text}`);
        assert.equal(refused.body.code, 50013);
      }
      assert.equal(seen.all().length, before);
    });

    test('"Why not?" in the group DM names the rule for each command, and for bob the missing install', async () => {
      const explain = (token: string) =>
        server.request('GET', `/channels/${GROUP_DM}/application-command-index/explain`, { auth: token });
      const erins = await explain(ERIN_TOKEN);
      assert.equal(erins.status, 200, erins.text);
      assert.equal(erins.body.guild_id, null);
      assert.equal(erins.body.channel.type, ChannelType.GroupDM);
      const demo = (erins.body.applications as Json[]).find((a) => a.id === DEMO_APP_ID)!;
      const byName = (app: Json) =>
        Object.fromEntries((app.commands as Json[]).map((c) => [(c.command as Json).name, c]));
      const erinsCommands = byName(demo);
      assert.equal(erinsCommands.note!.verdict, 'shown');
      assert.equal((erinsCommands.dmonly!.reason as Json).kind, 'user_install_context');
      assert.match(erinsCommands.dmonly!.text as string, /PRIVATE_CHANNEL/);
      assert.equal((erinsCommands.guildside!.reason as Json).kind, 'user_install_integration_type');
      const bobs = await explain(BOB_TOKEN);
      const bobsCommands = byName((bobs.body.applications as Json[]).find((a) => a.id === DEMO_APP_ID)!);
      assert.equal(bobsCommands.note!.verdict, 'hidden');
      assert.equal((bobsCommands.note!.reason as Json).kind, 'user_install_missing');
      assert.match(bobsCommands.note!.text as string, /not installed to your account/);
      const strangers = await explain(DAVE_TOKEN);
      assert.equal(strangers.status, 403, strangers.text);
    });

    test('"Why not?" in a guild without the bot: the user-install rule of each command, and for bob the missing install', async () => {
      const explain = (token: string) =>
        server.request('GET', `/channels/${SECOND_GUILD_CHANNEL}/application-command-index/explain`, { auth: token });
      const erins = await explain(ERIN_TOKEN);
      assert.equal(erins.status, 200, erins.text);
      assert.equal(erins.body.guild_id, SECOND_GUILD_ID);
      const byName = (app: Json) =>
        Object.fromEntries((app.commands as Json[]).map((c) => [(c.command as Json).name, c]));
      const demo = (body: Json) => (body.applications as Json[]).find((a) => a.id === DEMO_APP_ID)!;
      const erinsCommands = byName(demo(erins.body as Json));
      assert.equal(erinsCommands.note!.verdict, 'shown');
      assert.equal((erinsCommands.note!.reason as Json).kind, 'user_install_allowed');
      assert.match(erinsCommands.note!.text as string, /works in servers/);
      assert.equal(erinsCommands.dmonly!.verdict, 'hidden');
      assert.equal((erinsCommands.dmonly!.reason as Json).kind, 'user_install_context');
      assert.match(erinsCommands.dmonly!.text as string, /leave out servers \(GUILD\)/);
      assert.equal((erinsCommands.guildside!.reason as Json).kind, 'user_install_integration_type');
      // What "Why not?" shows is what the picker lists.
      const index = await picker(SECOND_GUILD_CHANNEL, ERIN_TOKEN);
      assert.deepEqual(names(index.body as Json), ['note']);

      const bobs = await explain(BOB_TOKEN);
      assert.equal(bobs.status, 200, bobs.text);
      const bobsCommands = byName(demo(bobs.body as Json));
      assert.equal(bobsCommands.note!.verdict, 'hidden');
      assert.equal((bobsCommands.note!.reason as Json).kind, 'user_install_missing');
      assert.equal((bobsCommands.dmonly!.reason as Json).kind, 'user_install_context', 'the command rule comes first');
      assert.deepEqual(names((await picker(SECOND_GUILD_CHANNEL, BOB_TOKEN)).body as Json), []);
    });

    test('the bot itself cannot post in the group DM (50001)', async () => {
      const posted = await server.request('POST', `/channels/${GROUP_DM}/messages`, {
        auth: BOT,
        body: { content: 'hello' },
      });
      assert.equal(posted.status, 403, posted.text);
      assert.equal(posted.body.code, 50001);
    });

    test('POST /admin/world adds a group DM; a recipient who is no user is refused at its path, nothing written', async () => {
      const refused = await adminRequest(server, 'POST', '/world', {
        group_dms: [{ id: ADDED_GROUP_DM, recipients: [ERIN_ID, '1399999999999999999'] }],
      });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 50035);
      assert.ok(refused.body.errors.group_dms['0'].recipients['1']._errors, refused.text);
      const tooFew = await adminRequest(server, 'POST', '/world', {
        group_dms: [{ id: ADDED_GROUP_DM, recipients: [] }],
      });
      assert.equal(tooFew.status, 400, tooFew.text);
      assert.ok(tooFew.body.errors.group_dms['0'].recipients._errors, tooFew.text);
      const empty = await picker(ADDED_GROUP_DM, ERIN_TOKEN);
      assert.equal(empty.status, 404, 'not written');
      const added = await adminRequest(server, 'POST', '/world', {
        group_dms: [{ id: ADDED_GROUP_DM, recipients: [ERIN_ID, BOB_ID] }],
      });
      assert.ok(added.status < 300, added.text);
      const index = await picker(ADDED_GROUP_DM, ERIN_TOKEN);
      assert.equal(index.status, 200, index.text);
      assert.deepEqual(names(index.body as Json), ['note']);
    });
  });
}

describeGroupDms(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_group_dms');
describeGroupDms(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
