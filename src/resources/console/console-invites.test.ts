/**
 * Joining a guild by invite in the web console (Debian's Chromium), with v10's accept
 * (`POST /invites/{code}`, the user's token): erin, in Second Guild only, opens "Join a guild";
 * what holds no code is refused before any request; an unknown code and an expired invite are
 * refused as the client words it ("invalid or has expired"); a pasted link joins her to Test
 * Guild, which is then in her guild list and picked, with its messages; the bot sees
 * GUILD_MEMBER_ADD and the API lists her as a member with the invite's use counted. carol, banned
 * by the bot, is told she is banned and joins nothing. Screenshots are taken for the docs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayIntentBits, PermissionFlagsBits, type Client } from 'discord.js';
import type { Browser, Page } from 'playwright-core';
import type { World } from '../../core/world/types.js';
import { launchBrowser } from '../../../test/helpers/browser.js';
import {
  assertAccessible,
  messageWith,
  openConsole,
  pageErrors,
  screenshot,
  signInAs,
} from '../../../test/helpers/console-page.js';
import { watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ALICE_TOKEN,
  BOT,
  CAROL_ID,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  exampleWorld,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** The example world; the demo bot may ban in the test guild. */
function invitesWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const install = guild.installs.find((i) => i.application_id === DEMO_APP_ID)!;
  install.permissions = (BigInt(install.permissions ?? '0') | PermissionFlagsBits.BanMembers).toString();
  return world;
}

const MINUTE = 60_000;

describe('the console: joining a guild by invite', () => {
  let server: TestServer;
  let bot: Client;
  let browser: Browser;
  let erin: Page;
  let carol: Page;
  let clock = Date.now();
  let expiring: string;
  const raw = new Inbox<RawDispatch>((p) => `${p.t} ${p.d?.user?.id ?? ''}`);

  /** An invite to #general made by alice (the owner), as her client makes one. */
  async function invite(body: Record<string, unknown>): Promise<string> {
    const made = await server.request('POST', `/channels/${GENERAL}/invites`, {
      auth: ALICE_TOKEN,
      body: { unique: true, ...body },
    });
    assert.equal(made.status, 200, made.text);
    return made.body.code as string;
  }

  before(async () => {
    server = await startServer({ world: invitesWorld(), now: () => clock, config: { sandboxSignIn: true } });
    // Made and then past its age before anyone connects: the gateway's heartbeats follow the clock too.
    expiring = await invite({ max_age: 60 });
    clock += 2 * MINUTE;
    bot = await watchingBot(server, DEMO_BOT_TOKEN, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], raw);
    browser = await launchBrowser();
    erin = await openConsole(browser, server.url);
    carol = await openConsole(browser, server.url, { width: 360, colorScheme: 'dark' });
  });

  after(async () => {
    await browser?.close();
    await bot?.destroy();
    await server?.close();
  });

  const field = (page: Page) => page.getByRole('textbox', { name: 'Invite link or code' });
  async function tryJoin(page: Page, pasted: string): Promise<void> {
    await field(page).fill(pasted);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
  }
  const refusal = (page: Page, text: string | RegExp) =>
    page.getByRole('form', { name: 'Join a guild' }).getByRole('alert').filter({ hasText: text });
  const guildNames = (page: Page) => page.getByRole('combobox', { name: 'Guild' }).locator('option').allInnerTexts();

  test('erin is refused what holds no code, an unknown code and an expired invite; nothing joined', async () => {
    await signInAs(erin, 'erin');
    assert.deepEqual(await guildNames(erin), ['Second Guild']);
    await erin.getByRole('button', { name: 'Join a guild' }).click();
    await tryJoin(erin, 'not a code!');
    await refusal(erin, 'Paste an invite link or code').waitFor();
    await tryJoin(erin, 'nope-nope');
    await refusal(erin, 'This invite is invalid or has expired.').waitFor();
    await tryJoin(erin, `${server.url}/invite/${expiring}`);
    await refusal(erin, 'This invite is invalid or has expired.').waitFor();
    assert.equal(await field(erin).getAttribute('aria-invalid'), 'true');
    const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, { auth: BOT });
    assert.equal(member.status, 404, 'not a member');
    assert.deepEqual(await guildNames(erin), ['Second Guild']);
  });

  test('erin pastes a link: she joins Test Guild, sees #general; the bot sees GUILD_MEMBER_ADD', async () => {
    const code = await invite({ max_age: 3600, max_uses: 5 });
    await tryJoin(erin, `https://discord.gg/${code}`);
    await erin.getByRole('status').filter({ hasText: 'You joined Test Guild.' }).waitFor();
    assert.equal(await erin.getByRole('form', { name: 'Join a guild' }).count(), 0, 'the form is closed');
    await erin
      .getByRole('combobox', { name: 'Guild' })
      .locator('option', { hasText: 'Test Guild' })
      .waitFor({ state: 'attached' });
    assert.deepEqual((await guildNames(erin)).sort(), ['Second Guild', 'Test Guild']);
    assert.equal(await erin.getByRole('combobox', { name: 'Guild' }).inputValue(), TEST_GUILD_ID, 'picked');
    await messageWith(erin, 'hello world').waitFor();
    assert.equal(await erin.getByRole('combobox', { name: 'Channel' }).inputValue(), GENERAL);

    const added = await raw.find((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.user?.id === ERIN_ID, 'GUILD_MEMBER_ADD');
    assert.equal(added.d.guild_id, TEST_GUILD_ID);
    const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, { auth: BOT });
    assert.equal(member.status, 200, member.text);
    const listed = await server.request('GET', `/channels/${GENERAL}/invites`, { auth: ALICE_TOKEN });
    assert.equal((listed.body as { code: string; uses: number }[]).find((i) => i.code === code)?.uses, 1);
    await assertAccessible(erin, 'the chat screen after joining');
    await screenshot(erin, 'console-join-guild');
    assert.deepEqual(pageErrors(erin), []);

    await erin.getByRole('button', { name: 'Join a guild' }).click();
    await field(erin).fill(code);
    await assertAccessible(erin, 'the join form');
    await erin.getByRole('button', { name: 'Join', exact: true }).click();
    await erin.getByRole('status').filter({ hasText: 'You are already in Test Guild.' }).waitFor();
  });

  test('carol, banned, is told so at 360 px in the dark theme, and joins nothing', async () => {
    const guild = await bot.guilds.fetch(TEST_GUILD_ID);
    await guild.members.ban(CAROL_ID, { reason: 'spam' });
    await raw.find((p) => p.t === 'GUILD_MEMBER_REMOVE' && p.d.user?.id === CAROL_ID, 'GUILD_MEMBER_REMOVE');
    const code = await invite({ max_age: 3600 });
    // In no guild, she has no channel and no message box: the sign-in lands on the hint.
    await carol.getByRole('button', { name: 'carol', exact: true }).click();
    await carol.getByText('You are in no guild yet').waitFor();
    await carol.getByRole('button', { name: 'Join a guild' }).click();
    await tryJoin(carol, code);
    await refusal(carol, 'You are banned from this guild.').waitFor();
    await assertAccessible(carol, 'a refused join, dark, 360 px');
    await screenshot(carol, 'console-join-guild-refused-360-dark');
    const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${CAROL_ID}`, { auth: BOT });
    assert.equal(member.status, 404, 'not a member');
    assert.equal(
      raw.all().filter((p) => p.t === 'GUILD_MEMBER_ADD' && p.d.user?.id === CAROL_ID).length,
      0,
      'no GUILD_MEMBER_ADD for her',
    );
    assert.deepEqual(await guildNames(carol), []);
  });
});
