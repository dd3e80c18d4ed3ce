/**
 * Prune over real HTTP on SQLite and PostgreSQL, at a time set on the node's clock: the count
 * (`GET /guilds/{id}/prune`) and the prune (`POST`) remove members who joined `days` or more ago
 * holding no role but those of `include_roles`, never the owner; KICK_MEMBERS and MANAGE_GUILD
 * (50013), bad queries and bodies (50035 at their paths), GUILD_MEMBER_REMOVE for each member
 * removed and a MEMBER_PRUNE audit entry.
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
  BOT,
  CAROL_ID,
  DAVE_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  MUTED_ROLE,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** KICK_MEMBERS, MANAGE_GUILD and VIEW_AUDIT_LOG. */
const PRUNE_BITS = (1n << 1n) | (1n << 5n) | (1n << 7n);
/** A week after the last of the world's members joined (dave, 2025-03-04; carol, with no role, 2025-03-03). */
const NOW = Date.parse('2025-03-10T00:00:00.000Z');

function describePrune(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: prune`, () => {
    let server: TestServer;
    let watcher: Client;
    const raw = new Inbox<RawDispatch>((p) => `${p.t} ${p.d?.user?.id ?? ''}`);
    const path = `/guilds/${TEST_GUILD_ID}/prune`;

    before(async () => {
      server = withSchemaChecks(await startServer({ ...options(), world: gatewayWorld(), now: () => NOW }));
      watcher = await watchingBot(
        server,
        DEMO_BOT_TOKEN,
        [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
        raw,
      );
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    const count = async (query: string) => {
      const answer = await server.request('GET', `${path}?${query}`, { auth: BOT });
      assert.equal(answer.status, 200, answer.text);
      assertMatchesSchema('GuildPruneResponse', answer.body);
      return answer.body.pruned as number;
    };

    test('without KICK_MEMBERS and MANAGE_GUILD: 50013; bad queries and bodies: 50035 at their paths', async () => {
      const refused = await server.request('GET', path, { auth: BOT });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, PRUNE_BITS);
      const days = await server.request('GET', `${path}?days=31`, { auth: BOT });
      assert.deepEqual([days.status, Object.keys(days.body.errors ?? {})], [400, ['days']]);
      const roles = await server.request('GET', `${path}?include_roles=abc`, { auth: BOT });
      assert.deepEqual([roles.status, Object.keys(roles.body.errors ?? {})], [400, ['include_roles']]);
      const body = await server.request('POST', path, {
        auth: BOT,
        body: { days: 0, compute_prune_count: 'yes', include_roles: ['x'] },
      });
      assert.equal(body.status, 400, body.text);
      assert.deepEqual(Object.keys(body.body.errors).sort(), ['compute_prune_count', 'days', 'include_roles']);
    });

    test('the count: members who joined `days` ago or more, with no role but those included; never the owner', async () => {
      assert.equal(await count('days=7'), 1, 'carol: no role, joined 7 days ago');
      assert.equal(await count('days=8'), 0);
      assert.equal(await count(`days=6&include_roles=${MUTED_ROLE}`), 2, 'dave too, whose only role is included');
      assert.equal(await count('days=30'), 0);
    });

    test('the prune: the members removed in one write, GUILD_MEMBER_REMOVE each, a MEMBER_PRUNE entry', async () => {
      const body = { days: 6, include_roles: [MUTED_ROLE], compute_prune_count: true };
      assertMatchesSchema('PruneGuildRequest', body);
      const pruned = await server.request('POST', path, {
        auth: BOT,
        body,
        headers: { 'x-audit-log-reason': 'spring cleaning' },
      });
      assert.equal(pruned.status, 200, pruned.text);
      assert.deepEqual(pruned.body, { pruned: 2 });
      assertMatchesSchema('GuildPruneResponse', pruned.body);
      for (const id of [CAROL_ID, DAVE_ID]) {
        await raw.find((p) => p.t === 'GUILD_MEMBER_REMOVE' && p.d.user?.id === id, `GUILD_MEMBER_REMOVE ${id}`);
        const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${id}`, { auth: BOT });
        assert.equal(member.body.code, 10007);
      }
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs?action_type=21`, { auth: BOT });
      const entry = log.body.audit_log_entries[0];
      assert.deepEqual(
        [entry.options, entry.reason],
        [{ delete_member_days: '6', members_removed: '2' }, 'spring cleaning'],
      );
      assert.equal(await count(`days=1&include_roles=${MUTED_ROLE}`), 0);
      const quiet = await server.request('POST', path, { auth: BOT, body: { compute_prune_count: false } });
      assert.deepEqual(quiet.body, { pruned: null });
    });
  });
}

describePrune(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_prune');
describePrune(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
