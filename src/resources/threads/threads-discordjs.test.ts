/**
 * A discord.js ticket bot works with threads through its own API against slashd
 * (`channel.threads.create` public and private, `message.startThread`, `thread.members.add/remove`,
 * `thread.setLocked`, `thread.setArchived`, `thread.delete`, `guild.channels.fetchActiveThreads`), and what others
 * observe follows: a user outside a private thread cannot see it, a locked or archived thread
 * refuses messages with v10's error, and another bot in the guild gets THREAD_CREATE. Each refusal
 * is v10's (50013 without CREATE_PRIVATE_THREADS, 10003 for an unknown channel, 160004 for a
 * second thread from one message).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AuditLogEvent,
  ChannelType,
  GatewayIntentBits,
  Routes,
  type Client,
  type Guild,
  type TextChannel,
  type ThreadChannel,
} from 'discord.js';
import type { Guild as WorldGuild } from '../../core/world/types.js';
import { restBot, v10Error, watchingBot, type RawDispatch } from '../../../test/helpers/discordjs.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ADMIN_AUTH,
  CAROL_ID,
  CAROL_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  GENERAL,
  NOBODY,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

const CREATE_PUBLIC_THREADS = 1n << 35n;
const CREATE_PRIVATE_THREADS = 1n << 36n;
const SEND_MESSAGES_IN_THREADS = 1n << 38n;
const VIEW_AUDIT_LOG = 1n << 7n;

describe('a discord.js bot opens and runs threads', () => {
  let server: TestServer;
  let bot: Client;
  let other: Client;
  let guild: Guild;
  let general: TextChannel;
  const otherRaw = new Inbox<RawDispatch>((p) => `${p.t} ${p.d?.id ?? ''}`);

  /** The test guild as the admin API holds it, changed by `change`. */
  async function changeGuild(change: (guild: WorldGuild) => WorldGuild): Promise<void> {
    const stored = await server.request('GET', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, { auth: ADMIN_AUTH });
    assert.equal(stored.status, 200, stored.text);
    const put = await server.request('PUT', `${server.url}/admin/guilds/${TEST_GUILD_ID}`, {
      auth: ADMIN_AUTH,
      body: change(stored.body),
    });
    assert.equal(put.status, 200, put.text);
  }

  /** Adds bits to the demo bot's install and to @everyone. */
  async function grant(botBits: bigint): Promise<void> {
    await changeGuild((world) => ({
      ...world,
      installs: world.installs.map((install) =>
        install.application_id === DEMO_APP_ID
          ? { ...install, permissions: String(BigInt(install.permissions ?? '0') | botBits) }
          : install,
      ),
    }));
  }

  before(async () => {
    server = await startServer();
    await changeGuild((world) => ({
      ...world,
      roles: world.roles.map((role) =>
        role.id === TEST_GUILD_ID
          ? { ...role, permissions: String(BigInt(role.permissions) | SEND_MESSAGES_IN_THREADS) }
          : role,
      ),
      installs: [...world.installs, { application_id: OTHER_APP_ID, scopes: ['bot'], permissions: null }],
    }));
    await grant(CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS | VIEW_AUDIT_LOG);
    other = await watchingBot(server, OTHER_BOT_TOKEN, [GatewayIntentBits.Guilds], otherRaw);
    bot = await restBot(server, DEMO_BOT_TOKEN, TEST_GUILD_ID);
    guild = await bot.guilds.fetch(TEST_GUILD_ID);
    general = (await guild.channels.fetch(GENERAL)) as TextChannel;
  });
  after(async () => {
    await other?.destroy();
    await bot?.destroy();
    await server?.close();
  });

  function carol(method: string, path: string, body?: unknown) {
    return server.request(method, path, { auth: CAROL_TOKEN, ...(body === undefined ? {} : { body }) });
  }

  test('a public thread: created with its fields, and the other bot gets THREAD_CREATE', async () => {
    const thread = await general.threads.create({
      name: 'help-desk',
      reason: 'a place for questions',
      autoArchiveDuration: 60,
      type: ChannelType.PublicThread,
    });
    assert.equal(thread.type, ChannelType.PublicThread);
    assert.equal(thread.name, 'help-desk');
    assert.equal(thread.parentId, GENERAL);
    assert.equal(thread.ownerId, DEMO_APP_ID);
    assert.equal(thread.autoArchiveDuration, 60);
    const created = await otherRaw.find((p) => p.t === 'THREAD_CREATE' && p.d.id === thread.id, 'THREAD_CREATE');
    assert.equal(created.d.newly_created, true);
    assert.equal(created.d.parent_id, GENERAL);
    const log = await guild.fetchAuditLogs({ type: AuditLogEvent.ThreadCreate });
    const entry = log.entries.find((e) => e.targetId === thread.id);
    assert.equal(entry?.reason, 'a place for questions', 'the audit entry carries the reason');
    assert.equal(entry?.executorId, DEMO_APP_ID);
    const seen = await carol('GET', `/channels/${thread.id}`);
    assert.equal(seen.status, 200, 'a public thread is seen by whoever sees its channel');
  });

  test('a private thread needs CREATE_PRIVATE_THREADS; only its members (and moderators) see it', async () => {
    await assert.rejects(
      general.threads.create({ name: 'ticket-0', type: ChannelType.PrivateThread }),
      v10Error(403, 50013),
    );
    await grant(CREATE_PRIVATE_THREADS);
    const ticket = await general.threads.create({
      name: 'ticket-1',
      type: ChannelType.PrivateThread,
      invitable: false,
    });
    assert.equal(ticket.type, ChannelType.PrivateThread);
    const hidden = await carol('GET', `/channels/${ticket.id}`);
    assert.equal(hidden.status, 403, hidden.text);
    assert.equal((hidden.body as { code: number }).code, 50001);
    // Dispatches arrive in order: once the fence thread's THREAD_CREATE is in, the ticket's would be too.
    const fence = await general.threads.create({ name: 'fence', type: ChannelType.PublicThread });
    await otherRaw.find((p) => p.t === 'THREAD_CREATE' && p.d.id === fence.id, 'the fence THREAD_CREATE');
    assert.equal(
      otherRaw.all().some((p) => p.t === 'THREAD_CREATE' && p.d.id === ticket.id),
      false,
      'the other bot is no member of the private thread',
    );
    await assert.rejects(ticket.members.add(CAROL_ID), v10Error(403, 50013), 'not invitable: moderators add');
    const invitable = await general.threads.create({ name: 'ticket-2', type: ChannelType.PrivateThread });
    assert.equal((await carol('GET', `/channels/${invitable.id}`)).status, 403);
    await invitable.members.add(CAROL_ID);
    assert.equal((await carol('GET', `/channels/${invitable.id}`)).status, 200, 'a member sees it');
    const members = await invitable.members.fetch();
    assert.deepEqual([...members.keys()].sort(), [DEMO_APP_ID, CAROL_ID].sort());
    const posted = await carol('POST', `/channels/${invitable.id}/messages`, { content: 'my printer is on fire' });
    assert.equal(posted.status, 200, posted.text);

    await invitable.members.remove(CAROL_ID);
    assert.equal((await carol('GET', `/channels/${invitable.id}`)).status, 403, 'gone with the membership');
    await assert.rejects(invitable.members.remove(CAROL_ID), v10Error(404, 10007));
  });

  test('message.startThread: the thread takes the message’s id, and a second thread from it is refused', async () => {
    const message = await general.send('who wants to talk about threads?');
    const thread = await message.startThread({ name: 'about threads' });
    assert.equal(thread.id, message.id);
    assert.equal(thread.type, ChannelType.PublicThread);
    await assert.rejects(message.startThread({ name: 'again' }), v10Error(400, 160004));
    const [listed] = await general.messages.fetch({ around: message.id, limit: 1 }).then((m) => [...m.values()]);
    assert.equal(listed?.hasThread, true, 'the message carries its thread');
  });

  test('a locked thread refuses a member’s message, an archived one the bot’s; active threads leave archived ones out', async () => {
    const thread: ThreadChannel = await general.threads.create({ name: 'to-lock', type: ChannelType.PublicThread });
    const open = await carol('POST', `/channels/${thread.id}/messages`, { content: 'before the lock' });
    assert.equal(open.status, 200, open.text);
    await assert.rejects(thread.setLocked(true), v10Error(403, 50013), 'locking needs MANAGE_THREADS');
    await grant(1n << 34n); // MANAGE_THREADS
    await thread.setLocked(true);
    assert.equal(thread.locked, true);
    const locked = await carol('POST', `/channels/${thread.id}/messages`, { content: 'after the lock' });
    assert.equal(locked.status, 403, locked.text);
    assert.equal((locked.body as { code: number }).code, 160005);

    const archived = await general.threads.create({ name: 'to-archive', type: ChannelType.PublicThread });
    await archived.setArchived(true);
    assert.equal(archived.archived, true);
    const refused = await carol('POST', `/channels/${archived.id}/messages`, { content: 'too late' });
    assert.equal(refused.status, 400, refused.text);
    assert.equal((refused.body as { code: number }).code, 50083);
    const updated = await otherRaw.find((p) => p.t === 'THREAD_UPDATE' && p.d.id === archived.id, 'THREAD_UPDATE');
    assert.equal(updated.d.thread_metadata.archived, true);

    const active = await guild.channels.fetchActiveThreads();
    assert.ok(active.threads.has(thread.id), 'a locked thread is still active');
    assert.equal(active.threads.has(archived.id), false, 'an archived one is not');
    const publicArchived = await general.threads.fetchArchived({ type: 'public' });
    assert.ok(publicArchived.threads.has(archived.id));
  });

  test('thread.delete(): it goes with its messages; the other bot gets THREAD_DELETE; the audit entry carries the reason', async () => {
    const thread = await general.threads.create({ name: 'to-delete', type: ChannelType.PublicThread });
    const said = await carol('POST', `/channels/${thread.id}/messages`, { content: 'soon gone' });
    assert.equal(said.status, 200, said.text);
    await thread.delete('ticket closed');
    const deleted = await otherRaw.find((p) => p.t === 'THREAD_DELETE' && p.d.id === thread.id, 'THREAD_DELETE');
    assert.deepEqual(deleted.d, { id: thread.id, guild_id: TEST_GUILD_ID, parent_id: GENERAL, type: 11 });
    const gone = await carol('GET', `/channels/${thread.id}/messages`);
    assert.equal(gone.status, 404, gone.text);
    assert.equal((gone.body as { code: number }).code, 10003);
    const logs = await guild.fetchAuditLogs({ type: AuditLogEvent.ThreadDelete });
    assert.equal(logs.entries.find((entry) => entry.targetId === thread.id)?.reason, 'ticket closed');
  });

  test('a thread of an unknown channel is refused with 10003', async () => {
    await assert.rejects(
      bot.rest.post(Routes.threads(NOBODY), { body: { name: 'nowhere', type: 11 } }),
      v10Error(404, 10003),
    );
  });
});
