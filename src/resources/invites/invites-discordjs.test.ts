/**
 * A discord.js bot with an invite tracker, as such bots are written: it creates invites
 * (`channel.createInvite`), keeps `guild.invites.fetch()`'s uses, and on `guildMemberAdd` fetches
 * them again to find the invite whose count went up. A user joins through the API (the client's
 * `POST /invites/{code}`); the bot sees `inviteCreate`, `guildMemberAdd` and `inviteDelete`
 * (`invite.delete()`), and a deleted invite is unknown to `client.fetchInvite`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client,
  Events,
  GatewayIntentBits,
  type Guild,
  type GuildMember,
  type Invite,
  type TextChannel,
} from 'discord.js';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { v10Error } from '../../../test/helpers/discordjs.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { Inbox } from '../../../test/helpers/inbox.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  DAVE_TOKEN,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  ERIN_ID,
  ERIN_TOKEN,
  GENERAL,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';

/** CREATE_INSTANT_INVITE, KICK_MEMBERS, MANAGE_CHANNELS and MANAGE_GUILD. */
const INVITE_BITS = (1n << 0n) | (1n << 1n) | (1n << 4n) | (1n << 5n);

describe('a discord.js invite tracker', () => {
  let server: TestServer;
  let client: Client;
  let guild: Guild;
  let channel: TextChannel;
  const created = new Inbox<Invite>((invite) => invite.code);
  const deleted = new Inbox<Invite>((invite) => invite.code);
  /** Each join, with the invite the tracker found its uses gone up on. */
  const joins = new Inbox<{ member: GuildMember; code: string | null }>((j) => `${j.member.id} ${j.code}`);
  let known = new Map<string, number>();

  async function trackUses(): Promise<Map<string, number>> {
    const invites = await guild.invites.fetch();
    return new Map(invites.map((invite) => [invite.code, invite.uses ?? 0]));
  }

  before(async () => {
    server = await startServer({ world: gatewayWorld() });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, INVITE_BITS);
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildInvites, GatewayIntentBits.GuildMembers],
      rest: { api: `${server.url}/api` },
    });
    client.on(Events.InviteCreate, (invite) => created.push(invite));
    client.on(Events.InviteDelete, (invite) => deleted.push(invite));
    client.on(Events.GuildMemberAdd, (member) => {
      void (async () => {
        const now = await trackUses();
        const used = [...now].find(([code, uses]) => uses > (known.get(code) ?? 0));
        known = now;
        joins.push({ member, code: used?.[0] ?? null });
      })();
    });
    const ready = new Inbox<string>();
    client.once(Events.ClientReady, () => ready.push('ready'));
    await client.login(DEMO_BOT_TOKEN);
    await ready.find(() => true, 'ready');
    guild = await client.guilds.fetch({ guild: TEST_GUILD_ID, force: true });
    channel = (await guild.channels.fetch(GENERAL)) as TextChannel;
  });
  after(async () => {
    await client?.destroy();
    await server?.close();
  });

  async function accept(code: string, token: string) {
    const response = await server.request('POST', `/invites/${code}`, { auth: token, body: {} });
    assert.equal(response.status, 200, response.text);
    return response.body as Record<string, unknown>;
  }

  test('channel.createInvite: the invite as discord.js reads it, and inviteCreate', async () => {
    const invite = await channel.createInvite({ maxAge: 3600, maxUses: 10, unique: true, reason: 'tracker' });
    assert.equal(invite.maxAge, 3600);
    assert.equal(invite.maxUses, 10);
    assert.equal(invite.uses, 0);
    assert.equal(invite.channelId, GENERAL);
    assert.equal(invite.guild?.id, TEST_GUILD_ID);
    assert.equal(invite.inviterId, DEMO_APP_ID);
    assert.equal(invite.expiresTimestamp! - invite.createdTimestamp!, 3_600_000);
    const event = await created.find((i) => i.code === invite.code, 'inviteCreate');
    assert.equal(event.channelId, GENERAL);
    known = await trackUses();
    assert.equal(known.get(invite.code), 0);
  });

  test('a user joins through the API: guildMemberAdd, and the tracker finds the invite whose uses went up', async () => {
    const quiet = await channel.createInvite({ maxAge: 0, unique: true });
    const used = await channel.createInvite({ maxAge: 600, maxUses: 2, unique: true });
    known = await trackUses();
    const answer = await accept(used.code, ERIN_TOKEN);
    assert.equal(answer.code, used.code);
    const join = await joins.find((j) => j.member.id === ERIN_ID, 'guildMemberAdd');
    assert.equal(join.code, used.code, 'the tracker names the invite used');
    assert.equal(join.member.guild.id, TEST_GUILD_ID);
    assert.equal(join.member.user.username, 'erin');
    const fetched = await guild.invites.fetch({ code: used.code, force: true });
    assert.equal(fetched.uses, 1);
    assert.equal(known.get(quiet.code), 0);
    const viaClient = await client.fetchInvite(used.code);
    assert.equal(viaClient.guild?.id, TEST_GUILD_ID);
  });

  test('the last use deletes the invite: inviteDelete, and a member already there uses nothing', async () => {
    const once = await channel.createInvite({ maxUses: 1, unique: true });
    const again = await accept(once.code, DAVE_TOKEN);
    assert.equal(again.new_member, false, 'dave is a member already');
    assert.equal((await guild.invites.fetch({ code: once.code, force: true })).uses, 0);
    await guild.members.kick(ERIN_ID, 'to join again');
    await accept(once.code, ERIN_TOKEN);
    await deleted.find((i) => i.code === once.code, 'inviteDelete after its last use');
    await assert.rejects(client.fetchInvite(once.code), v10Error(404, 10006));
  });

  test('invite.delete(): inviteDelete, and the invite is unknown after', async () => {
    const invite = await channel.createInvite({ unique: true });
    await invite.delete('not needed');
    const event = await deleted.find((i) => i.code === invite.code, 'inviteDelete');
    assert.equal(event.channelId, GENERAL);
    await assert.rejects(client.fetchInvite(invite.code), v10Error(404, 10006));
    assert.ok(!(await guild.invites.fetch()).has(invite.code));
  });

  test('a body out of range: discord.js gets v10’s 50035', async () => {
    await assert.rejects(channel.createInvite({ maxAge: 604_801 }), v10Error(400, 50035));
  });
});
