/**
 * `slashd join CODE --user USER` (the real CLI, a child process) against a running slashd: the user
 * joins the invite's guild (the bot sees the member after), a second run says they are a member
 * already (exit 0), an unknown code prints v10's refusal (exit 1), and a bad command line exits 2.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CLI, killAll, runToEnd } from './helpers/cli-process.js';
import { grantBotBits } from './helpers/guild-admin.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, BOT, DEMO_APP_ID, ERIN_ID, GENERAL, TEST_GUILD_ID } from './helpers/world.js';

describe('slashd join', () => {
  let server: TestServer;
  let code: string;

  before(async () => {
    server = await startServer();
    await grantBotBits(server, TEST_GUILD_ID, DEMO_APP_ID, 1n);
    const invite = await server.request('POST', `/channels/${GENERAL}/invites`, { auth: BOT, body: { max_uses: 5 } });
    assert.equal(invite.status, 200, invite.text);
    code = invite.body.code as string;
  });
  after(async () => {
    killAll();
    await server?.close();
  });

  const join = (...args: string[]) =>
    runToEnd(process.execPath, [CLI, 'join', ...args, '--url', server.url, '--admin-token', ADMIN_TOKEN]);

  test('erin joins by the invite; the bot sees her member; the invite counts the use', async () => {
    const run = await join(code, '--user', 'erin');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`erin joined Test Guild \\(#general\\) by invite ${code}`));
    const member = await server.request('GET', `/guilds/${TEST_GUILD_ID}/members/${ERIN_ID}`, { auth: BOT });
    assert.equal(member.status, 200, member.text);
    const listed = await server.request('GET', `/channels/${GENERAL}/invites`, { auth: BOT });
    assert.equal(listed.status, 403, 'listing needs MANAGE_CHANNELS, which the bot lacks');
    const read = await server.request('GET', `/invites/${code}`, { auth: BOT });
    assert.equal(read.status, 200, read.text);
  });

  test('again: a member already (exit 0); an unknown code: v10’s refusal (exit 1); no --user: exit 2', async () => {
    const again = await join(code, '--user', ERIN_ID);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /erin is already a member of Test Guild/);
    const unknown = await join('nope1234', '--user', 'erin');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /refused \(404\): Unknown Invite \(code 10006\)/);
    const usage = await join(code);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--user is required/);
  });
});
