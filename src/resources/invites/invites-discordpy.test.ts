/**
 * discord.py (Debian's python3-discord, unmodified) invites and edits the guild as bots do:
 * `channel.create_invite`, `guild.invites()`, `client.fetch_invite` (with counts), `invite.delete()`
 * and `guild.edit(name=...)`, each read back over HTTP; a name too short is v10's 50035.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gatewayWorld } from '../../../test/helpers/gateway-world.js';
import { runDiscordPy } from '../../../test/helpers/discordpy.js';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

/** CREATE_INSTANT_INVITE, MANAGE_CHANNELS and MANAGE_GUILD. */
const INVITE_BITS = (1n << 0n) | (1n << 4n) | (1n << 5n);

describe('discord.py: channel.create_invite, guild.invites(), invite.delete(), guild.edit', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ world: gatewayWorld() });
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, INVITE_BITS);
  });
  after(async () => {
    await server?.close();
  });

  test('an invite made, listed, fetched and deleted; the guild renamed', async () => {
    const result = await runDiscordPy('discord_invites.py', [server.api, DEMO_BOT_TOKEN, TEST_GUILD_ID, GENERAL]);
    const [code, maxAge, maxUses, uses, channelId] = result.created;
    assert.match(code, /^[A-Za-z0-9]{8}$/);
    assert.deepEqual([maxAge, maxUses, uses, channelId], [3600, 3, 0, GENERAL]);
    assert.deepEqual(result.listed, [[code, 0]]);
    assert.deepEqual(result.fetched, [code, TEST_GUILD_ID, 6]);
    assert.deepEqual(result.after_delete, []);
    assert.equal(result.edited, 'Edited by discord.py');
    assert.equal(result.fetched_name, 'Edited by discord.py');
    assert.deepEqual(result.short_name, [400, 50035]);
    const read = await server.request('GET', `/guilds/${TEST_GUILD_ID}`, { auth: BOT });
    assert.equal(read.body.name, 'Edited by discord.py');
    const gone = await server.request('GET', `/invites/${code}`, { auth: BOT });
    assert.equal(gone.body.code, 10006);
  });
});
