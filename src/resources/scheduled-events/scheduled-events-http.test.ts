/**
 * Guild scheduled events over real HTTP on SQLite and PostgreSQL: create (external, voice) with
 * the OpenAPI's response shape, the 50035 trees (paths, nothing written), CREATE_EVENTS and the
 * channel's permissions (50013), an event in a channel a member cannot view being invisible to them,
 * users marking themselves interested (GUILD_SCHEDULED_EVENT_USER_ADD/REMOVE, `user_count`, the
 * paged users with members), status changes by edit (and the ones v10 refuses, 50035 and 180002),
 * the clock starting and ending an external event (one GUILD_SCHEDULED_EVENT_UPDATE each), the
 * cover served at its CDN path without a token, delete, the audit log, and the bound (30038).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, type Client } from 'discord.js';
import type { World } from '../../core/world/types.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { assertMatchesSchema } from '../../../test/helpers/openapi.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from '../../../test/helpers/postgres.js';
import { startServer, type ServerOptions, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  CAROL_TOKEN,
  DEMO_APP_ID,
  GENERAL,
  HIDDEN,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const VOICE = '1345183757107200016';
const VIEW_CHANNEL = 1n << 10n;
const CONNECT = 1n << 20n;
const MANAGE_EVENTS = 1n << 33n;
const CREATE_EVENTS = 1n << 44n;
const VIEW_AUDIT_LOG = 1n << 7n;
const HOUR = 60 * 60 * 1000;
/** The smallest PNG: a 1x1 transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The gateway world: the demo bot may create and manage events, a voice channel, and one only alice sees. */
function eventsWorld(): World {
  const world = gatewayWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (VIEW_CHANNEL | CONNECT | MANAGE_EVENTS | CREATE_EVENTS | VIEW_AUDIT_LOG).toString();
  guild.channels.push(
    { id: VOICE, type: 2, name: 'voice', nsfw: false, parent_id: null, permission_overwrites: [] },
    {
      id: HIDDEN,
      type: 2,
      name: 'hidden-voice',
      nsfw: false,
      parent_id: null,
      permission_overwrites: [
        { id: TEST_GUILD_ID, type: 0, allow: '0', deny: VIEW_CHANNEL.toString() },
        { id: DEMO_APP_ID, type: 1, allow: VIEW_CHANNEL.toString(), deny: '0' },
      ],
    },
  );
  return world;
}

function describeEvents(name: string, options: () => ServerOptions, cleanup: () => Promise<void>): void {
  describe(`${name}: guild scheduled events`, () => {
    let server: TestServer;
    let watcher: Client;
    let clock = Date.now();
    const raw = new Inbox<RawDispatch>((p) => String(p.t));
    const base = `/guilds/${TEST_GUILD_ID}/scheduled-events`;

    before(async () => {
      server = await startServer({ ...options(), world: eventsWorld(), now: () => clock });
      watcher = await watchingBot(server, OTHER_BOT_TOKEN, [GatewayIntentBits.GuildScheduledEvents], raw);
    });
    after(async () => {
      await watcher?.destroy();
      await server?.close();
      await cleanup();
    });

    const iso = (ms: number) => new Date(ms).toISOString();
    const external = (extra: Json = {}) => ({
      name: 'Launch party',
      description: 'cake',
      privacy_level: 2,
      entity_type: 3,
      scheduled_start_time: iso(clock + HOUR),
      scheduled_end_time: iso(clock + 2 * HOUR),
      entity_metadata: { location: 'the roof' },
      ...extra,
    });
    const voice = (extra: Json = {}) => ({
      name: 'Standup',
      privacy_level: 2,
      entity_type: 2,
      channel_id: VOICE,
      scheduled_start_time: iso(clock + HOUR),
      ...extra,
    });
    async function create(body: Json): Promise<Json> {
      const created = await server.request('POST', base, { auth: BOT, body });
      assert.equal(created.status, 200, created.text);
      return created.body as Json;
    }
    const dispatches = (t: string, id: string) =>
      raw.all().filter((p) => p.t === t && (p.d.id ?? p.d.guild_scheduled_event_id) === id);

    test('create an external event: v10 shape, creator, listed, GUILD_SCHEDULED_EVENT_CREATE to another bot', async () => {
      const event = await create(external());
      assertMatchesSchema('ExternalScheduledEventResponse', event);
      assert.equal(event.status, 1);
      assert.equal(event.creator_id, DEMO_APP_ID);
      assert.equal(event.creator.id, DEMO_APP_ID);
      assert.deepEqual(event.entity_metadata, { location: 'the roof' });
      assert.equal(event.channel_id, null);
      const listed = await server.request('GET', `${base}?with_user_count=true`, { auth: BOT });
      assert.equal(listed.status, 200, listed.text);
      const mine = (listed.body as Json[]).find((e) => e.id === event.id)!;
      assert.equal(mine.user_count, 0);
      const told = await raw.find((p) => p.t === 'GUILD_SCHEDULED_EVENT_CREATE' && p.d.id === event.id, 'create');
      assert.equal(told.d.name, 'Launch party');
    });

    test('bad bodies: 50035 at each path, and nothing is written', async () => {
      const before = (await server.request('GET', base, { auth: BOT })).body.length;
      const cases: [Json, string[]][] = [
        [{ ...external(), name: undefined }, ['name']],
        [external({ scheduled_start_time: iso(clock - HOUR) }), ['scheduled_start_time']],
        [external({ scheduled_end_time: iso(clock + HOUR / 2) }), ['scheduled_end_time']],
        [external({ entity_metadata: {} }), ['entity_metadata', 'location']],
        [external({ channel_id: VOICE }), ['channel_id']],
        [voice({ channel_id: GENERAL }), ['channel_id']],
        [voice({ channel_id: undefined }), ['channel_id']],
        [external({ privacy_level: 1 }), ['privacy_level']],
        [external({ scheduled_start_time: 'tomorrow' }), ['scheduled_start_time']],
        [external({ name: 'x'.repeat(101) }), ['name']],
        [external({ image: 'data:image/png;base64,AAAA' }), ['image']],
        [
          external({ recurrence_rule: { start: iso(clock + HOUR), frequency: 2, interval: 1, by_weekday: [0, 1] } }),
          ['recurrence_rule', 'by_weekday'],
        ],
        [
          external({ recurrence_rule: { start: iso(clock + HOUR), frequency: 3, interval: 1, count: 3 } }),
          ['recurrence_rule', 'count'],
        ],
      ];
      for (const [body, path] of cases) {
        const refused = await server.request('POST', base, { auth: BOT, body });
        assert.equal(refused.status, 400, `${path.join('.')}: ${refused.text}`);
        assert.equal(refused.body.code, 50035);
        let node = refused.body.errors;
        for (const key of path) node = node?.[key];
        assert.ok(node?._errors?.length, `an error at ${path.join('.')}: ${refused.text}`);
      }
      assert.equal((await server.request('GET', base, { auth: BOT })).body.length, before);
    });

    test('a weekly recurrence rule is kept as v10 shows it', async () => {
      const start = iso(clock + HOUR);
      const event = await create(external({ recurrence_rule: { start, frequency: 2, interval: 2, by_weekday: [3] } }));
      assert.deepEqual(event.recurrence_rule, {
        start,
        end: null,
        frequency: 2,
        interval: 2,
        by_weekday: [3],
        by_n_weekday: null,
        by_month: null,
        by_month_day: null,
        by_year_day: null,
        count: null,
      });
    });

    test('permissions: no CREATE_EVENTS is 50013; an event in a channel a member cannot view is not there for them', async () => {
      const refused = await server.request('POST', base, { auth: `Bot ${OTHER_BOT_TOKEN}`, body: external() });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 50013);
      const hidden = await create(voice({ channel_id: HIDDEN, name: 'secret standup' }));
      const carols = await server.request('GET', base, { auth: CAROL_TOKEN });
      assert.equal(carols.status, 200, carols.text);
      assert.ok(!(carols.body as Json[]).some((e) => e.id === hidden.id), 'not listed for carol');
      const one = await server.request('GET', `${base}/${hidden.id}`, { auth: CAROL_TOKEN });
      assert.equal(one.status, 404, one.text);
      assert.equal(one.body.code, 10070);
      const interested = await server.request('PUT', `${base}/${hidden.id}/users/@me`, { auth: CAROL_TOKEN });
      assert.equal(interested.status, 404, interested.text);
      assert.equal(
        dispatches('GUILD_SCHEDULED_EVENT_CREATE', hidden.id).length,
        0,
        'the other bot cannot view it either',
      );
    });

    test('interested users: USER_ADD/REMOVE, user_count, the paged list with members; a bot cannot mark itself', async () => {
      const event = await create(external({ name: 'Meetup' }));
      const put = await server.request('PUT', `${base}/${event.id}/users/@me`, { auth: ALICE_TOKEN });
      assert.equal(put.status, 204, put.text);
      const again = await server.request('PUT', `${base}/${event.id}/users/@me`, { auth: ALICE_TOKEN });
      assert.equal(again.status, 204, again.text);
      const added = await raw.find(
        (p) => p.t === 'GUILD_SCHEDULED_EVENT_USER_ADD' && p.d.guild_scheduled_event_id === event.id,
        'user add',
      );
      assert.deepEqual(added.d, { guild_scheduled_event_id: event.id, user_id: ALICE_ID, guild_id: TEST_GUILD_ID });
      assert.equal(dispatches('GUILD_SCHEDULED_EVENT_USER_ADD', event.id).length, 1, 'once, though PUT twice');
      const counted = await server.request('GET', `${base}/${event.id}?with_user_count=true`, { auth: BOT });
      assert.equal(counted.body.user_count, 1);
      const users = await server.request('GET', `${base}/${event.id}/users?with_member=true`, { auth: BOT });
      assert.equal(users.status, 200, users.text);
      assert.equal(users.body.length, 1);
      assert.equal(users.body[0].guild_scheduled_event_id, event.id);
      assert.equal(users.body[0].user.id, ALICE_ID);
      assert.ok(Array.isArray(users.body[0].member.roles), 'with its member');
      const page = await server.request('GET', `${base}/${event.id}/users?after=${ALICE_ID}`, { auth: BOT });
      assert.deepEqual(page.body, []);
      const badLimit = await server.request('GET', `${base}/${event.id}/users?limit=101`, { auth: BOT });
      assert.equal(badLimit.status, 400, badLimit.text);
      const byBot = await server.request('PUT', `${base}/${event.id}/users/@me`, { auth: BOT });
      assert.ok(byBot.status === 401 || byBot.status === 403, byBot.text);
      const removed = await server.request('DELETE', `${base}/${event.id}/users/@me`, { auth: ALICE_TOKEN });
      assert.equal(removed.status, 204, removed.text);
      await raw.find(
        (p) => p.t === 'GUILD_SCHEDULED_EVENT_USER_REMOVE' && p.d.guild_scheduled_event_id === event.id,
        'user remove',
      );
      assert.equal(
        (await server.request('GET', `${base}/${event.id}?with_user_count=true`, { auth: BOT })).body.user_count,
        0,
      );
    });

    test('status by edit: scheduled → active → completed; back to scheduled is 50035, a finished event 180002', async () => {
      const event = await create(voice());
      const back = await server.request('PATCH', `${base}/${event.id}`, { auth: BOT, body: { status: 3 } });
      assert.equal(back.status, 400, back.text);
      assert.ok(back.body.errors.status._errors.length);
      const active = await server.request('PATCH', `${base}/${event.id}`, { auth: BOT, body: { status: 2 } });
      assert.equal(active.status, 200, active.text);
      assert.equal(active.body.status, 2);
      assertMatchesSchema('VoiceScheduledEventResponse', active.body);
      const again = await server.request('PATCH', `${base}/${event.id}`, { auth: BOT, body: { status: 1 } });
      assert.equal(again.status, 400, again.text);
      const done = await server.request('PATCH', `${base}/${event.id}`, { auth: BOT, body: { status: 3 } });
      assert.equal(done.body.status, 3);
      const late = await server.request('PATCH', `${base}/${event.id}`, { auth: BOT, body: { name: 'renamed' } });
      assert.equal(late.status, 400, late.text);
      assert.equal(late.body.code, 180002);
      await raw.find((p) => p.t === 'GUILD_SCHEDULED_EVENT_UPDATE' && p.d.id === event.id && p.d.status === 3, 'done');
      assert.deepEqual(
        dispatches('GUILD_SCHEDULED_EVENT_UPDATE', event.id).map((p) => p.d.status),
        [2, 3],
      );
    });

    test('the clock starts and ends an external event: one GUILD_SCHEDULED_EVENT_UPDATE each', async () => {
      const event = await create(external({ name: 'By the clock' }));
      clock += HOUR + 1;
      const started = await server.request('GET', `${base}/${event.id}`, { auth: BOT });
      assert.equal(started.body.status, 2);
      await server.request('GET', base, { auth: CAROL_TOKEN });
      await raw.find(
        (p) => p.t === 'GUILD_SCHEDULED_EVENT_UPDATE' && p.d.id === event.id && p.d.status === 2,
        'started',
      );
      clock += HOUR;
      const ended = await server.request('GET', `${base}/${event.id}`, { auth: ALICE_TOKEN });
      assert.equal(ended.body.status, 3);
      await raw.find((p) => p.t === 'GUILD_SCHEDULED_EVENT_UPDATE' && p.d.id === event.id && p.d.status === 3, 'ended');
      const statuses = dispatches('GUILD_SCHEDULED_EVENT_UPDATE', event.id).map((p) => p.d.status);
      assert.deepEqual(statuses, [2, 3]);
    });

    test('a cover image: stored, its hash on the event, served at the CDN path without a token', async () => {
      const event = await create(external({ image: `data:image/png;base64,${PNG.toString('base64')}` }));
      assert.match(event.image, /^[0-9a-f]{32}$/);
      const served = await fetch(`${server.url}/guild-events/${event.id}/${event.image}.png`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
      const wrong = await fetch(`${server.url}/guild-events/${event.id}/${'0'.repeat(32)}.png`);
      assert.equal(wrong.status, 404);
      const removed = await server.request('PATCH', `${base}/${event.id}`, { auth: BOT, body: { image: null } });
      assert.equal(removed.body.image, null);
      assert.equal((await fetch(`${server.url}/guild-events/${event.id}/${event.image}.png`)).status, 404);
    });

    test('delete: 204, GUILD_SCHEDULED_EVENT_DELETE, then 10070; the audit log holds create, update and delete', async () => {
      const event = await create(external({ name: 'Short lived' }));
      await server.request('PATCH', `${base}/${event.id}`, {
        auth: BOT,
        body: { description: 'changed' },
        headers: { 'x-audit-log-reason': 'typo' },
      });
      const deleted = await server.request('DELETE', `${base}/${event.id}`, { auth: BOT });
      assert.equal(deleted.status, 204, deleted.text);
      await raw.find((p) => p.t === 'GUILD_SCHEDULED_EVENT_DELETE' && p.d.id === event.id, 'delete');
      const gone = await server.request('GET', `${base}/${event.id}`, { auth: BOT });
      assert.equal(gone.body.code, 10070);
      const log = await server.request('GET', `/guilds/${TEST_GUILD_ID}/audit-logs`, { auth: BOT });
      const actions = (log.body.audit_log_entries as Json[])
        .filter((e) => e.target_id === event.id)
        .map((e) => e.action_type);
      assert.deepEqual(actions.sort(), [100, 101, 102]);
    });

    test('the bound: 100 events not ended per guild, the next is 30038', async () => {
      const open = (await server.request('GET', base, { auth: BOT })).body.filter((e: Json) => e.status <= 2).length;
      for (let i = open; i < 100; i++) await create(external({ name: `event ${i}` }));
      const refused = await server.request('POST', base, { auth: BOT, body: external({ name: 'one too many' }) });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 30038);
    });
  });
}

describeEvents(
  'SQLite',
  () => ({}),
  async () => {},
);

const schema = freshSchemaName('slashd_events');
describeEvents(
  'PostgreSQL',
  () => ({ db: postgresConnectionString, config: { dbSchema: schema } }),
  () => dropSchema(schema),
);
