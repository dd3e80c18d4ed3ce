/**
 * Through the HTTP routes (injected): "Why not?" (GET /channels/{id}/application-command-index/explain)
 * and the permission editor's endpoints with a user's own session, as v10's client calls them.
 *
 * - the explanation is the caller's only, lists exactly what the caller's index lists, and names
 *   the rule that hid a command ("role Moderator denied at command level");
 * - nobody learns about a channel they cannot view, a guild they are not in, or another user;
 * - a member who manages the guild and its roles reads and edits command permissions with the
 *   session, and the picker of another member follows; others are refused as with a Bearer token;
 * - the guild's command index lists every command of the installed apps, for managers only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { injectServer, type TestServer } from './helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ADMIN_TOKEN,
  ALICE_TOKEN,
  ANNOUNCEMENTS,
  BOB_ID,
  BOB_TOKEN,
  BOT,
  CAROL_ID,
  CAROL_TOKEN,
  DAVE_TOKEN,
  DEMO_APP_ID,
  ERIN_TOKEN,
  GENERAL,
  GUILD_BASE,
  MODERATOR_ROLE,
  SECOND_GUILD_CHANNEL,
  SECOND_GUILD_ID,
  TEST_GUILD_ID,
} from './helpers/world.js';

const explainPath = (channelId: string) => `/channels/${channelId}/application-command-index/explain`;
const indexPath = (channelId: string) => `/channels/${channelId}/application-command-index`;
const permissionsPath = (targetId: string) => `${GUILD_BASE}/${targetId}/permissions`;

interface ExplainedCommand {
  command: { id: string; name: string; type: number; guild_id: string | null };
  verdict: 'shown' | 'hidden' | 'refused';
  reason: { kind: string; overwrites?: { level: string; target: string; id: string; name: string | null }[] };
  text: string;
}
interface Explanation {
  guild_id: string;
  channel: { id: string; name: string };
  user: { id: string; username: string };
  applications: { id: string; name: string; commands: ExplainedCommand[] }[];
}

describe('Why not? and the permission editor with a user session', () => {
  let server: TestServer;
  const ids = { modsOff: '', open: '', profile: '', managers: '' };

  async function createCommand(body: Record<string, unknown>): Promise<string> {
    const response = await server.request('POST', GUILD_BASE, { auth: BOT, body });
    assert.equal(response.status, 201, response.text);
    return response.body.id as string;
  }

  async function explain(token: string, channelId = GENERAL): Promise<Explanation> {
    const response = await server.request('GET', explainPath(channelId), { auth: token });
    assert.equal(response.status, 200, response.text);
    return response.body as Explanation;
  }

  async function indexNames(token: string, channelId = GENERAL): Promise<string[]> {
    const response = await server.request('GET', indexPath(channelId), { auth: token });
    assert.equal(response.status, 200, response.text);
    return (response.body.application_commands as { name: string }[]).map((c) => c.name);
  }

  function find(explanation: Explanation, name: string): ExplainedCommand {
    const found = explanation.applications.flatMap((app) => app.commands).find((c) => c.command.name === name);
    assert.ok(found, `no ${name} in ${JSON.stringify(explanation)}`);
    return found;
  }

  before(async () => {
    server = await injectServer();
    ids.modsOff = await createCommand({ name: 'modsoff', description: 'denied to moderators' });
    ids.open = await createCommand({ name: 'open', description: 'for everyone' });
    ids.profile = await createCommand({ name: 'Profile', type: 2 });
    ids.managers = await createCommand({
      name: 'managers',
      description: 'MANAGE_GUILD',
      default_member_permissions: '32',
    });
    // alice (the owner) denies bob's role the command, with her own session, as the client does.
    const put = await server.request('PUT', permissionsPath(ids.modsOff), {
      auth: ALICE_TOKEN,
      body: { permissions: [{ id: MODERATOR_ROLE, type: 1, permission: false }] },
    });
    assert.equal(put.status, 200, put.text);
  });

  after(async () => {
    await server.close();
  });

  test('bob does not see the command denied to his role, and Why not? says why', async () => {
    assert.ok(!(await indexNames(BOB_TOKEN)).includes('modsoff'));
    const explanation = await explain(BOB_TOKEN);
    assert.deepEqual(explanation.user, { id: BOB_ID, username: 'bob' });
    const modsOff = find(explanation, 'modsoff');
    assert.equal(modsOff.verdict, 'hidden');
    assert.equal(modsOff.reason.kind, 'role_denied');
    assert.deepEqual(modsOff.reason.overwrites, [
      { level: 'command', target: 'role', id: MODERATOR_ROLE, name: 'Moderator', permission: false },
    ]);
    assert.equal(modsOff.text, 'Hidden: role Moderator denied at command level.');
    assert.equal(find(explanation, 'managers').verdict, 'shown');
  });

  test('lists as shown or refused exactly what each member’s index lists, in every channel they can view', async () => {
    for (const token of [ALICE_TOKEN, BOB_TOKEN, CAROL_TOKEN, DAVE_TOKEN]) {
      for (const channelId of [GENERAL, ANNOUNCEMENTS]) {
        const explanation = await explain(token, channelId);
        const listed = explanation.applications
          .flatMap((app) => app.commands)
          .filter((c) => c.verdict !== 'hidden')
          .map((c) => c.command.name);
        assert.deepEqual(listed, await indexNames(token, channelId), `${token} in ${channelId}`);
      }
    }
  });

  test('words the other rules: the missing permission, and a USER command refused where one cannot send', async () => {
    const carol = await explain(CAROL_TOKEN);
    assert.equal(find(carol, 'modsoff').verdict, 'shown');
    assert.equal(
      find(carol, 'managers').text,
      'Hidden: needs MANAGE_GUILD in #general (default_member_permissions); you lack MANAGE_GUILD.',
    );
    const inAnnouncements = await explain(CAROL_TOKEN, ANNOUNCEMENTS);
    const profile = find(inAnnouncements, 'Profile');
    assert.equal(profile.verdict, 'refused');
    assert.match(profile.text, /^Refused: USER commands need SEND_MESSAGES in #announcements/);
    // Every app installed for commands is there, the Activity App's entry point included.
    assert.deepEqual(
      carol.applications.map((app) => app.id),
      [DEMO_APP_ID, ACTIVITY_APP_ID],
    );
  });

  test('answers only the caller about a channel they may view: 401, 10003, 50001', async () => {
    assert.equal((await server.request('GET', explainPath(GENERAL))).status, 401);
    assert.equal((await server.request('GET', explainPath(GENERAL), { auth: BOT })).status, 401);
    const unknown = await server.request('GET', explainPath('1345183757107209999'), { auth: BOB_TOKEN });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 10003);
    // erin is in no guild of #general; bob is in no guild of the second guild's channel.
    for (const [token, channelId] of [
      [ERIN_TOKEN, GENERAL],
      [BOB_TOKEN, SECOND_GUILD_CHANNEL],
    ] as const) {
      const refused = await server.request('GET', explainPath(channelId), { auth: token });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 50001);
      assert.doesNotMatch(refused.text, /modsoff|general/);
    }
  });

  test('refuses a channel the member cannot view, as the index does', async () => {
    // The world's admin takes VIEW_CHANNEL from bob in #announcements: both go quiet for him.
    const guildUrl = `${server.url}/admin/guilds/${TEST_GUILD_ID}`;
    const guild = (await server.request('GET', guildUrl, { auth: `Bearer ${ADMIN_TOKEN}` })).body as {
      channels: { id: string; permission_overwrites?: unknown[] }[];
    };
    const announcements = guild.channels.find((c) => c.id === ANNOUNCEMENTS);
    assert.ok(announcements);
    const before = announcements.permission_overwrites ?? [];
    announcements.permission_overwrites = [...before, { id: BOB_ID, type: 1, allow: '0', deny: '1024' }];
    const put = await server.request('PUT', guildUrl, { auth: `Bearer ${ADMIN_TOKEN}`, body: guild });
    assert.equal(put.status, 200, put.text);
    try {
      const explained = await server.request('GET', explainPath(ANNOUNCEMENTS), { auth: BOB_TOKEN });
      const index = await server.request('GET', indexPath(ANNOUNCEMENTS), { auth: BOB_TOKEN });
      assert.equal(explained.status, 403);
      assert.equal(explained.body.code, 50001);
      assert.equal(index.status, 403);
      assert.doesNotMatch(explained.text, /announcements/);
    } finally {
      announcements.permission_overwrites = before;
      await server.request('PUT', guildUrl, { auth: `Bearer ${ADMIN_TOKEN}`, body: guild });
    }
  });

  test("an admin's edit with her session changes carol's picker; the permissions read back", async () => {
    assert.ok((await indexNames(CAROL_TOKEN)).includes('open'));
    const body = { permissions: [{ id: CAROL_ID, type: 2, permission: false }] };
    const put = await server.request('PUT', permissionsPath(ids.open), { auth: ALICE_TOKEN, body });
    assert.equal(put.status, 200, put.text);
    assert.ok(!(await indexNames(CAROL_TOKEN)).includes('open'));
    assert.equal(find(await explain(CAROL_TOKEN), 'open').text, 'Hidden: you (carol) are denied at command level.');
    const read = await server.request('GET', permissionsPath(ids.open), { auth: ALICE_TOKEN });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.permissions, body.permissions);
    const list = await server.request('GET', `${GUILD_BASE}/permissions`, { auth: BOB_TOKEN });
    assert.equal(list.status, 200);
    assert.ok((list.body as { id: string }[]).some((object) => object.id === ids.open));
    // Back to no overwrite: carol sees it again.
    const cleared = await server.request('PUT', permissionsPath(ids.open), {
      auth: ALICE_TOKEN,
      body: { permissions: [] },
    });
    assert.equal(cleared.status, 200);
    assert.ok((await indexNames(CAROL_TOKEN)).includes('open'));
  });

  test('a session that may not manage command permissions reads and changes nothing: 50013, 50001', async () => {
    const body = { permissions: [{ id: CAROL_ID, type: 2, permission: true }] };
    for (const [token, code] of [
      [CAROL_TOKEN, 50013],
      [DAVE_TOKEN, 50013],
      [ERIN_TOKEN, 50001],
    ] as const) {
      const put = await server.request('PUT', permissionsPath(ids.modsOff), { auth: token, body });
      assert.equal(put.status, 403, `${token}: ${put.text}`);
      assert.equal(put.body.code, code);
      const read = await server.request('GET', permissionsPath(ids.modsOff), { auth: token });
      assert.equal(read.body.code, code);
    }
    // bob (Moderator) may not name his own role: it is not below his highest role.
    const own = await server.request('PUT', permissionsPath(ids.modsOff), {
      auth: BOB_TOKEN,
      body: { permissions: [] },
    });
    assert.equal(own.status, 403);
    assert.equal(own.body.code, 50013);
    const kept = await server.request('GET', permissionsPath(ids.modsOff), { auth: ALICE_TOKEN });
    assert.deepEqual(kept.body.permissions, [{ id: MODERATOR_ROLE, type: 1, permission: false }]);
    // An app not installed in the guild: Missing Access, as for its own token.
    const elsewhere = await server.request(
      'GET',
      `/applications/${DEMO_APP_ID}/guilds/${SECOND_GUILD_ID}/commands/permissions`,
      { auth: ALICE_TOKEN },
    );
    assert.equal(elsewhere.body.code, 50001);
  });

  test("the guild's command index lists every command of the installed apps, for managers only", async () => {
    const index = await server.request('GET', `/guilds/${TEST_GUILD_ID}/application-command-index`, {
      auth: BOB_TOKEN,
    });
    assert.equal(index.status, 200, index.text);
    const names = (index.body.application_commands as { name: string }[]).map((c) => c.name);
    // bob sees modsoff listed for editing though his picker hides it.
    assert.ok(names.includes('modsoff'));
    assert.deepEqual(
      (index.body.applications as { id: string }[]).map((app) => app.id),
      [DEMO_APP_ID, ACTIVITY_APP_ID],
    );
    const carol = await server.request('GET', `/guilds/${TEST_GUILD_ID}/application-command-index`, {
      auth: CAROL_TOKEN,
    });
    assert.equal(carol.body.code, 50013);
    const erin = await server.request('GET', `/guilds/${TEST_GUILD_ID}/application-command-index`, {
      auth: ERIN_TOKEN,
    });
    assert.equal(erin.body.code, 50001);
    const unknown = await server.request('GET', `/guilds/1345183757107209999/application-command-index`, {
      auth: BOB_TOKEN,
    });
    assert.equal(unknown.body.code, 10004);
  });
});
