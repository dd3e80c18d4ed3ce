/**
 * `PATCH /guilds/{id}` and `GET /guilds/{id}/preview` over real HTTP on SQLite and PostgreSQL,
 * with a bot watching the gateway: MANAGE_GUILD (50013), another app's guild (50001), bad bodies
 * (50035 at their paths, the channels named must be the guild's), GUILD_UPDATE and its audit
 * entry, the settings on every read (GET, GUILD_CREATE of a bot logging in after, an admin write of
 * the guild), a snapshot restoring them, and INVITES_DISABLED pausing joins; each request and
 * answer checked against the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertMatchesSchema, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_TOKEN,
  BOT,
  CATEGORY,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_TOKEN,
  GENERAL,
  NSFW_LOUNGE,
  OTHER_BOT_TOKEN,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const ADMIN = `Bearer ${ADMIN_TOKEN}`;
/** CREATE_INSTANT_INVITE, MANAGE_GUILD and VIEW_AUDIT_LOG. */
const GUILD_BITS = (1n << 0n) | (1n << 5n) | (1n << 7n);
/** A 1x1 PNG. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function describeGuildEdit(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: the guild edited over HTTP`, () => {
    let server: TestServer;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => String(p.t));

    before(async () => {
      server = withSchemaChecks(await startServer({ ...options(), world: gatewayWorld() }));
      watcher = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds], raw);
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    function edit(body: unknown, auth = BOT, guildId = TEST_GUILD_ID) {
      return server.request('PATCH', `/guilds/${guildId}`, { auth, body, headers: { 'x-audit-log-reason': 'tidy' } });
    }
    function fieldErrors(response: { status: number; body: Json; text: string }): string[] {
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.code, 50035);
      return Object.keys(response.body.errors as Json).sort();
    }

    test('without MANAGE_GUILD: 50013; another app’s guild: 50001; nothing changes', async () => {
      const refused = await edit({ name: 'Renamed' });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      const foreign = await edit({ name: 'Renamed' }, BOT, SECOND_GUILD_ID);
      assert.equal(foreign.status, 403, foreign.text);
      assert.equal(foreign.body.code, 50001);
      const read = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.equal(read.body.name, 'Test Guild');
    });

    test('bad bodies: 50035 at each field; channels must be the guild’s, of the right type', async () => {
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, GUILD_BITS);
      assert.deepEqual(fieldErrors(await edit({ name: 'x', verification_level: 9 })), ['name', 'verification_level']);
      assert.deepEqual(fieldErrors(await edit({ icon: 'not an image', afk_timeout: 61 })), ['afk_timeout', 'icon']);
      assert.deepEqual(fieldErrors(await edit({ description: 'd'.repeat(121), features: 'x' })), [
        'description',
        'features',
      ]);
      assert.deepEqual(
        fieldErrors(await edit({ system_channel_id: SECOND_GUILD_CHANNEL, rules_channel_id: CATEGORY })),
        ['rules_channel_id', 'system_channel_id'],
      );
      assert.deepEqual(fieldErrors(await edit({ afk_channel_id: GENERAL })), ['afk_channel_id']);
      assert.deepEqual(fieldErrors(await edit([1])), ['_errors']);
      const read = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.equal(read.body.system_channel_id, null, 'nothing written');
    });

    test('an edit: the guild after it, GUILD_UPDATE, a GUILD_UPDATE audit entry, and every read shows it', async () => {
      const snapshot = await server.request('POST', `${server.url}/admin/snapshots`, { auth: ADMIN });
      assert.equal(snapshot.status, 201, snapshot.text);
      const body = {
        name: 'Renamed Guild',
        icon: PNG,
        description: 'a guild',
        system_channel_id: GENERAL,
        rules_channel_id: NSFW_LOUNGE,
        verification_level: 2,
        default_message_notifications: 1,
        explicit_content_filter: 2,
        afk_timeout: 900,
        features: ['INVITES_DISABLED', 'ANIMATED_ICON'],
      };
      assertMatchesSchema('GuildPatchRequestPartial', body);
      const edited = await edit(body);
      assert.equal(edited.status, 200, edited.text);
      assertMatchesSchema('GuildResponse', edited.body);
      const guild = edited.body as Json;
      assert.equal(guild.name, 'Renamed Guild');
      assert.match(guild.icon, /^[0-9a-f]{32}$/);
      assert.deepEqual(
        [guild.system_channel_id, guild.rules_channel_id, guild.verification_level, guild.afk_timeout],
        [GENERAL, NSFW_LOUNGE, 2, 900],
      );
      assert.deepEqual(guild.features, ['INVITES_DISABLED'], 'only the features a bot may toggle');
      const update = await raw.find((p) => p.t === 'GUILD_UPDATE' && p.d.name === 'Renamed Guild', 'GUILD_UPDATE');
      assert.equal(update.d.system_channel_id, GENERAL);

      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs?action_type=1`, { auth: BOT });
      assert.equal(log.status, 200, log.text);
      const entry = (log.body.audit_log_entries as Json[])[0]!;
      assert.equal(entry.reason, 'tidy');
      const nameChange = (entry.changes as Json[]).find((c) => c.key === 'name');
      assert.deepEqual([nameChange?.old_value, nameChange?.new_value], ['Test Guild', 'Renamed Guild']);

      const read = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.deepEqual([read.body.name, read.body.description], ['Renamed Guild', 'a guild']);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, 1n << 10n);
      const afterAdmin = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.equal(afterAdmin.body.system_channel_id, GENERAL, 'an admin write of the guild keeps its settings');
      const mine = await server.request('GET', '/users/@me/guilds', { auth: BOT });
      assert.deepEqual((mine.body as Json[]).find((g) => g.id === TEST_GUILD_ID)?.features, ['INVITES_DISABLED']);

      const created = new Inbox<RawDispatch>((p) => String(p.t));
      const late = await watchingBot(server, OTHER_BOT_TOKEN, [GatewayIntentBits.Guilds], created);
      try {
        const guildCreate = await created.find(
          (p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID,
          'GUILD_CREATE',
        );
        assert.deepEqual([guildCreate.d.name, guildCreate.d.system_channel_id], ['Renamed Guild', GENERAL]);
      } finally {
        await late.destroy();
      }

      const preview = await server.request('GET', `/guilds/${TEST_GUILD_ID}/preview`, { auth: BOT });
      assert.equal(preview.status, 200, preview.text);
      assertMatchesSchema('GuildPreviewResponse', preview.body);
      assert.equal(preview.body.description, 'a guild');
      assert.equal(preview.body.approximate_member_count, 6);

      const invite = await server.request('POST', `/channels/${GENERAL}/invites`, { auth: BOT, body: {} });
      assert.equal(invite.status, 200, invite.text);
      const paused = await server.request('POST', `/invites/${invite.body.code}`, { auth: ERIN_TOKEN, body: {} });
      assert.equal(paused.status, 403, 'INVITES_DISABLED: no one joins');
      assert.equal(paused.body.code, 40006);

      const restored = await server.request('POST', `${server.url}/admin/snapshots/${snapshot.body.id}/restore`, {
        auth: ADMIN,
      });
      assert.equal(restored.status, 204, restored.text);
      const back = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
      assert.deepEqual([back.body.name, back.body.system_channel_id, back.body.features], ['Test Guild', null, []]);
    });

    test('an edit that changes nothing answers the guild and tells no one', async () => {
      const same = await edit({ name: 'Test Guild' });
      assert.equal(same.status, 200, same.text);
      const reset = await edit({ system_channel_id: null, features: [] });
      assert.equal(reset.status, 200, reset.text);
      assert.equal(reset.body.system_channel_id, null);
    });
  });
}

describeGuildEdit(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_guild_edit');
describeGuildEdit(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
