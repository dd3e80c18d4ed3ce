/**
 * Interest in a guild's scheduled events in the web console (Debian's Chromium): the bot schedules
 * events (an external one, one in a voice channel, one it started, one it canceled); alice opens
 * Events and sees each with its name, time, place, status and interested count, in the order they
 * start; she marks herself interested in one (the client's `PUT .../users/@me`) and the bot is
 * told GUILD_SCHEDULED_EVENT_USER_ADD and lists her among its users, then takes it back
 * (`DELETE`, GUILD_SCHEDULED_EVENT_USER_REMOVE); a canceled event takes no one. bob, at 360 px in
 * the dark theme, sees his own interest pressed. Screenshots are taken for the docs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, PermissionFlagsBits, type Client } from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import type { World } from '../../core/world/types.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import { assertAccessible, openConsole, pageErrors, screenshot, signInAs } from '../../../test/helpers/console-page.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_ID,
  BOB_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  exampleWorld,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

type Json = Record<string, any>;

const VOICE = '1345183757107200016';
const HOUR = 60 * 60 * 1000;
/** What the bot needs to schedule events, in a voice channel too. */
const EVENT_BITS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.Connect |
  PermissionFlagsBits.ManageEvents |
  PermissionFlagsBits.CreateEvents;

/** The example world with a voice channel; the demo bot may schedule events. */
function eventsWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | EVENT_BITS).toString();
  guild.channels.push({ id: VOICE, type: 2, name: 'voice', nsfw: false, parent_id: null, permission_overwrites: [] });
  return world;
}

describe('the console: interest in scheduled events', () => {
  let server: TestServer;
  let bot: Client;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  const raw = new Inbox<RawDispatch>((p) => `${p.t}`);
  const base = `/guilds/${TEST_GUILD_ID}/scheduled-events`;
  /** The hour after the next whole hour: times read alike in every run's screenshot. */
  const start = Math.ceil(Date.now() / HOUR) * HOUR + HOUR;
  const iso = (ms: number) => new Date(ms).toISOString();
  const events: Record<string, Json> = {};

  async function schedule(key: string, body: Json): Promise<void> {
    const made = await server.request('POST', base, { auth: BOT, body: { privacy_level: 2, ...body } });
    assert.equal(made.status, 200, made.text);
    events[key] = made.body;
  }
  async function setStatus(key: string, status: number): Promise<void> {
    const edited = await server.request('PATCH', `${base}/${events[key]!.id}`, { auth: BOT, body: { status } });
    assert.equal(edited.status, 200, edited.text);
  }
  async function interestedIds(key: string): Promise<string[]> {
    const listed = await server.request('GET', `${base}/${events[key]!.id}/users`, { auth: BOT });
    assert.equal(listed.status, 200, listed.text);
    return (listed.body as Json[]).map((u) => u.user.id as string);
  }

  before(async () => {
    server = await startServer({ world: eventsWorld(), config: { sandboxSignIn: true } });
    bot = await watchingBot(
      server,
      DEMO_BOT_TOKEN,
      [GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents],
      raw,
    );
    await schedule('launch', {
      name: 'Launch party',
      description: 'Cake on the roof for 2.4',
      entity_type: 3,
      entity_metadata: { location: 'The roof, building B' },
      scheduled_start_time: iso(start + 2 * HOUR),
      scheduled_end_time: iso(start + 4 * HOUR),
    });
    await schedule('standup', {
      name: 'Weekly standup',
      entity_type: 2,
      channel_id: VOICE,
      scheduled_start_time: iso(start + 24 * HOUR),
    });
    await schedule('hack', {
      name: 'Hack night',
      entity_type: 3,
      entity_metadata: { location: 'Online' },
      scheduled_start_time: iso(start),
      scheduled_end_time: iso(start + 3 * HOUR),
    });
    await setStatus('hack', 2);
    await schedule('picnic', {
      name: 'Picnic',
      entity_type: 3,
      entity_metadata: { location: 'The park' },
      scheduled_start_time: iso(start + 48 * HOUR),
      scheduled_end_time: iso(start + 50 * HOUR),
    });
    await setStatus('picnic', 4);
    const bobs = await server.request('PUT', `${base}/${events.launch!.id}/users/@me`, { auth: BOB_TOKEN });
    assert.equal(bobs.status, 204, bobs.text);
    browser = await launchBrowser();
    alice = await openConsole(browser, server.url, { height: 760 });
    bob = await openConsole(browser, server.url, { width: 360, height: 760, colorScheme: 'dark' });
  });

  after(async () => {
    await browser?.close();
    await bot?.destroy();
    await server?.close();
  });

  const card = (page: Page, name: string) => page.getByRole('listitem', { name });
  const toggle = (page: Page, name: string) => card(page, name).getByRole('button', { name: 'Interested' });

  async function openEvents(page: Page, username: string): Promise<void> {
    await signInAs(page, username);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Events' }).click();
    await page.getByRole('list', { name: 'Events' }).waitFor();
  }

  test('alice sees the events in the order they start, each with its time, place, status and count', async () => {
    await openEvents(alice, 'alice');
    const names = await alice.locator('.event-name').allInnerTexts();
    assert.deepEqual(names, ['Hack night', 'Launch party', 'Weekly standup', 'Picnic']);
    const launch = card(alice, 'Launch party');
    assert.equal(await launch.locator('.event-status').innerText(), 'Scheduled');
    assert.equal(await launch.locator('.event-count').innerText(), '1 interested', 'bob');
    assert.match(await launch.innerText(), /The roof, building B/);
    assert.match(await launch.innerText(), /Cake on the roof/);
    assert.equal(await launch.locator('time').getAttribute('datetime'), events.launch!.scheduled_start_time);
    assert.match(await launch.locator('time').innerText(), / – /, 'from its start to its end');
    assert.equal(await card(alice, 'Hack night').locator('.event-status').innerText(), 'Happening now');
    assert.match(await card(alice, 'Weekly standup').innerText(), /Voice channel: voice/);
    assert.equal(await card(alice, 'Picnic').locator('.event-status').innerText(), 'Canceled');
    assert.equal(await toggle(alice, 'Picnic').isDisabled(), true, 'a canceled event takes no one');
    assert.equal(await toggle(alice, 'Launch party').getAttribute('aria-pressed'), 'false');
    assert.deepEqual(pageErrors(alice), []);
  });

  test('alice marks herself interested: the bot is told and lists her; she takes it back', async () => {
    const id = events.launch!.id as string;
    await toggle(alice, 'Launch party').click();
    await card(alice, 'Launch party').locator('.event-count', { hasText: '2 interested' }).waitFor();
    assert.equal(await toggle(alice, 'Launch party').getAttribute('aria-pressed'), 'true');
    const added = await raw.find(
      (p) => p.t === 'GUILD_SCHEDULED_EVENT_USER_ADD' && p.d.user_id === ALICE_ID,
      'GUILD_SCHEDULED_EVENT_USER_ADD',
    );
    assert.deepEqual([added.d.guild_scheduled_event_id, added.d.guild_id], [id, TEST_GUILD_ID]);
    assert.ok((await interestedIds('launch')).includes(ALICE_ID), 'the event’s users hold her');
    await assertAccessible(alice, 'the events screen');
    await screenshot(alice, 'console-events');

    await toggle(alice, 'Launch party').click();
    await card(alice, 'Launch party').locator('.event-count', { hasText: '1 interested' }).waitFor();
    assert.equal(await toggle(alice, 'Launch party').getAttribute('aria-pressed'), 'false');
    const removed = await raw.find(
      (p) => p.t === 'GUILD_SCHEDULED_EVENT_USER_REMOVE' && p.d.user_id === ALICE_ID,
      'GUILD_SCHEDULED_EVENT_USER_REMOVE',
    );
    assert.equal(removed.d.guild_scheduled_event_id, id);
    assert.ok(!(await interestedIds('launch')).includes(ALICE_ID), 'and no longer');
    assert.deepEqual(pageErrors(alice), []);
  });

  test('bob, at 360 px in the dark theme, sees his own interest pressed', async () => {
    await openEvents(bob, 'bob');
    assert.equal(await toggle(bob, 'Launch party').getAttribute('aria-pressed'), 'true');
    assert.equal(await toggle(bob, 'Hack night').getAttribute('aria-pressed'), 'false');
    await assertAccessible(bob, 'the events screen, dark, 360 px');
    await screenshot(bob, 'console-events-360-dark');
  });
});
