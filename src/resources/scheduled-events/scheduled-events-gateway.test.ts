/**
 * GUILD_CREATE carries the guild's scheduled events (`guild_scheduled_events`, as v10 sends them),
 * on SQLite and PostgreSQL: each is the event object the REST list answers, an event in a channel
 * the bot cannot view is left out of that bot's, and an event deleted is gone from the next login's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { World } from '../../core/world/types.js';
import { GatewayClient } from '../../../test/helpers/gateway-client.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  HIDDEN,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const VIEW_CHANNEL = 1n << 10n;
const CONNECT = 1n << 20n;
const CREATE_EVENTS = 1n << 44n;
const MANAGE_EVENTS = 1n << 33n;
const HOUR = 60 * 60 * 1000;

/** The demo bot creates events; a voice channel only it (of the bots) sees. */
function eventsWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = (
    VIEW_CHANNEL |
    CONNECT |
    CREATE_EVENTS |
    MANAGE_EVENTS
  ).toString();
  guild.channels.push({
    id: HIDDEN,
    type: 2,
    name: 'hidden-voice',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [
      { id: TEST_GUILD_ID, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() },
      { id: DEMO_APP_ID, type: 1, allow: VIEW_CHANNEL.toString(), deny: '0' },
    ],
  });
  return world;
}

for (const store of ['SQLite', 'PostgreSQL'] as const) {
  describe(`GUILD_CREATE's guild_scheduled_events (${store})`, () => {
    let server: TestServer;
    const schema = freshSchemaName('r8_events_gateway');
    const clock = Date.UTC(2026, 11, 2, 12);
    const base = `/guilds/${TEST_GUILD_ID}/scheduled-events`;

    before(async () => {
      const options: ServerOptions =
        store === 'PostgreSQL' ? { db: postgresConnectionString, config: { dbSchema: schema } } : {};
      server = await startServer({ ...options, world: eventsWorld(), now: () => clock });
    });
    after(async () => {
      await server?.close();
      if (store === 'PostgreSQL') await dropSchema(schema);
    });

    async function guildCreateOf(token: string): Promise<Json> {
      const gateway = await GatewayClient.connect(server.url);
      try {
        await gateway.login(token, 1);
        const created = await gateway.next((p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID, 'GUILD_CREATE');
        return created.d;
      } finally {
        gateway.close();
      }
    }

    test('the events the bot sees, as the REST list has them; a deleted one is gone', async () => {
      const iso = (ms: number) => new Date(ms).toISOString();
      const outside = await server.request('POST', base, {
        auth: BOT,
        body: {
          name: 'Roof party',
          privacy_level: 2,
          entity_type: 3,
          scheduled_start_time: iso(clock + HOUR),
          scheduled_end_time: iso(clock + 2 * HOUR),
          entity_metadata: { location: 'the roof' },
        },
      });
      assert.equal(outside.status, 200, outside.text);
      const hidden = await server.request('POST', base, {
        auth: BOT,
        body: {
          name: 'Secret',
          privacy_level: 2,
          entity_type: 2,
          channel_id: HIDDEN,
          scheduled_start_time: iso(clock + HOUR),
        },
      });
      assert.equal(hidden.status, 200, hidden.text);

      const listed = await server.request('GET', base, { auth: BOT });
      const mine = await guildCreateOf(DEMO_BOT_TOKEN);
      assert.deepEqual(mine.guild_scheduled_events, listed.body);
      assert.deepEqual(
        mine.guild_scheduled_events.map((e: Json) => e.id),
        [outside.body.id, hidden.body.id],
      );
      const others = await guildCreateOf(OTHER_BOT_TOKEN);
      assert.deepEqual(
        others.guild_scheduled_events.map((e: Json) => e.id),
        [outside.body.id],
        'an event in a channel the bot cannot view is not in its GUILD_CREATE',
      );

      const deleted = await server.request('DELETE', `${base}/${outside.body.id}`, { auth: BOT });
      assert.equal(deleted.status, 204, deleted.text);
      const after = await guildCreateOf(DEMO_BOT_TOKEN);
      assert.deepEqual(
        after.guild_scheduled_events.map((e: Json) => e.id),
        [hidden.body.id],
      );
    });
  });
}
