/**
 * Scheduled events through the libraries as bots use them: discord.js `guild.scheduledEvents.create`,
 * `fetch`, `edit`, `setStatus`, `fetchSubscribers` and `delete`, another bot's client raising
 * `guildScheduledEventCreate`, `guildScheduledEventUpdate`, and GUILD_SCHEDULED_EVENT_USER_ADD when a user
 * marks themselves interested through the client's route; and discord.py's
 * `create_scheduled_event`, `fetch_scheduled_events`, `edit`, `start` and `delete`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Events,
  GatewayIntentBits,
  GuildScheduledEventEntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus,
  type Client,
  type GuildScheduledEvent,
} from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { restBot, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const VOICE = '1345183757107200016';
const EVENT_PERMISSIONS = (1n << 10n) | (1n << 20n) | (1n << 33n) | (1n << 44n);
const HOUR = 60 * 60 * 1000;

function eventsWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  guild.installs.find((i) => i.application_id === DEMO_APP_ID)!.permissions = EVENT_PERMISSIONS.toString();
  guild.channels.push({ id: VOICE, type: 2, name: 'voice', nsfw: false, parent_id: null, permission_overwrites: [] });
  return world;
}

describe('scheduled events through discord.js and discord.py', () => {
  let server: TestServer;
  let bot: Client;
  let watcher: Client;
  const raw = new Inbox<RawDispatch>((p) => String(p.t));
  const seen = new Inbox<string>();

  before(async () => {
    server = await startServer({ world: eventsWorld() });
    watcher = await watchingBot(
      server,
      OTHER_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents],
      raw,
      (client) => {
        client.on(Events.GuildScheduledEventCreate, (event) => seen.push(`create ${event.name}`));
        client.on(Events.GuildScheduledEventUpdate, (_old, event) => seen.push(`update ${event.name} ${event.status}`));
      },
    );
    bot = await restBot(server, DEMO_BOT_TOKEN, TEST_GUILD_ID);
  });
  after(async () => {
    await Promise.all([bot?.destroy(), watcher?.destroy()]);
    await server?.close();
  });

  test('discord.js: create, fetch, edit, setStatus, subscribers, delete; the other bot is told', async () => {
    const guild = await bot.guilds.fetch(TEST_GUILD_ID);
    const start = new Date(Date.now() + HOUR);
    const event: GuildScheduledEvent = await guild.scheduledEvents.create({
      name: 'discord.js meetup',
      scheduledStartTime: start,
      scheduledEndTime: new Date(start.getTime() + HOUR),
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.External,
      entityMetadata: { location: 'the park' },
      description: 'bring snacks',
    });
    assert.equal(event.status, GuildScheduledEventStatus.Scheduled);
    assert.equal(event.entityMetadata?.location, 'the park');
    assert.equal(event.creatorId, DEMO_APP_ID);
    await seen.find((s) => s === 'create discord.js meetup', 'guildScheduledEventCreate');

    const fetched = await guild.scheduledEvents.fetch({
      guildScheduledEvent: event.id,
      withUserCount: true,
      force: true,
    });
    assert.equal(fetched.userCount, 0);
    assert.equal(fetched.scheduledStartAt?.getTime(), start.getTime());

    const interested = await server.request('PUT', `/guilds/${TEST_GUILD_ID}/scheduled-events/${event.id}/users/@me`, {
      auth: ALICE_TOKEN,
    });
    assert.equal(interested.status, 204, interested.text);
    // discord.js raises guildScheduledEventUserAdd only for a user it has cached (or with partials): the dispatch is checked.
    await raw.find(
      (p) =>
        p.t === 'GUILD_SCHEDULED_EVENT_USER_ADD' &&
        p.d.guild_scheduled_event_id === event.id &&
        p.d.user_id === ALICE_ID,
      'GUILD_SCHEDULED_EVENT_USER_ADD',
    );
    const subscribers = await fetched.fetchSubscribers({ withMember: true });
    assert.deepEqual([...subscribers.keys()], [ALICE_ID]);
    assert.ok(subscribers.get(ALICE_ID)?.member, 'with its member');

    const edited = await fetched.edit({ name: 'discord.js meetup, moved', entityMetadata: { location: 'the beach' } });
    assert.equal(edited.entityMetadata?.location, 'the beach');
    await seen.find((s) => s.startsWith('update discord.js meetup, moved'), 'guildScheduledEventUpdate');
    const scheduled = edited as unknown as GuildScheduledEvent<GuildScheduledEventStatus.Scheduled>;
    const active = await scheduled.setStatus(GuildScheduledEventStatus.Active);
    assert.equal(active.status, GuildScheduledEventStatus.Active);
    // discord.js types only the transitions v10 allows: this one is sent anyway, as a bot could.
    await assert.rejects(active.setStatus(GuildScheduledEventStatus.Scheduled as never), (error: { code?: number }) => {
      assert.equal(error.code, 50035);
      return true;
    });
    await active.delete();
    await raw.find((p) => p.t === 'GUILD_SCHEDULED_EVENT_DELETE' && p.d.id === event.id, 'delete');
    await assert.rejects(
      guild.scheduledEvents.fetch({ guildScheduledEvent: event.id, force: true }),
      (error: { code?: number }) => {
        assert.equal(error.code, 10070);
        return true;
      },
    );
  });

  test('discord.py: create_scheduled_event, fetch_scheduled_events, edit, start, delete', async () => {
    const result = await runDiscordPy('discord_scheduled_events.py', [
      server.api,
      DEMO_BOT_TOKEN,
      TEST_GUILD_ID,
      VOICE,
    ]);
    assert.deepEqual(result.created.slice(1), ['discord.py meetup', 'the park', 'EventStatus.scheduled']);
    assert.deepEqual(result.listed, [[result.created[0], 0]]);
    assert.deepEqual(result.edited, ['discord.py meetup, moved', 'the beach']);
    assert.deepEqual(result.started, ['EventStatus.active', VOICE]);
    assert.equal(result.after_delete, 10070);
  });
});
