/**
 * The application command index through HTTP ("What a member sees"): for members with
 * different roles, in channels with different overwrites, a thread and an age-restricted channel,
 * `GET /channels/{id}/application-command-index` returns exactly the commands the engine allows.
 *
 * The expected set of every (user, channel) pair is computed by calling `evaluateCommandAccess`
 * directly on the same data, read back from the admin API (world) and the store (commands and
 * overwrites). Because a test that only compares the service with the engine would pass if both
 * were wrong the same way, each case of the issue also has a row of its own below, with the
 * decision and the engine's reason code written out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StoredCommand } from '../../core/commands/model.js';
import { canViewChannel } from '../../core/permissions/channel-permissions.js';
import { overwritesFor } from '../../core/permissions/command-permissions.js';
import { evaluateCommandAccess, type AccessDecision, type AccessReasonCode } from '../../core/permissions/engine.js';
import { isInstalledForCommands } from '../../core/permissions/install.js';
import type { Application, Guild, User } from '../../core/world/types.js';
import { assertErrorBody, assertWireCommand } from '../../../test/helpers/openapi.js';
import { adminOk, injectServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ADMIN_ROLE,
  ALICE_ID,
  BOB_ID,
  BOT,
  CAROL_ID,
  DAVE_ID,
  DEMO_APP_ID,
  ERIN_ID,
  MODERATOR_ROLE,
  MUTED_ROLE,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  ADDED_GUILD_CHANNEL as THIRD_GENERAL,
  ADDED_GUILD_ID as THIRD_GUILD_ID,
  ALICE_TOKEN,
  ANNOUNCEMENTS,
  BOB_TOKEN,
  CAROL_TOKEN,
  CATEGORY,
  GENERAL,
  NSFW_LOUNGE,
  THREAD,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const ALICE_PERM = 'Bearer alice-perm-token';

// ---- the world of these tests: the example's Test Guild, with more roles, channels and members ----

const FRANK_ID = '1335036896870400006';
const GINA_ID = '1335036896870400007';

const USERS: Record<string, { id: string; token: string }> = {
  alice: { id: ALICE_ID, token: ALICE_TOKEN },
  bob: { id: BOB_ID, token: BOB_TOKEN },
  carol: { id: CAROL_ID, token: CAROL_TOKEN },
  dave: { id: DAVE_ID, token: 'dave-user-token' },
  erin: { id: ERIN_ID, token: 'erin-user-token' },
  frank: { id: FRANK_ID, token: 'frank-user-token' },
  gina: { id: GINA_ID, token: 'gina-user-token' },
};
type UserName = keyof typeof USERS;

const EVERYONE = TEST_GUILD_ID;
const ALL_CHANNELS = (BigInt(TEST_GUILD_ID) - 1n).toString();
const HELPER_ROLE = '1345183757107200005';
const SUPPORT_ROLE = '1345183757107200006';

const MANAGE_MESSAGES = '8192';
const VIEW_CHANNEL = '1024';
const USE_APPLICATION_COMMANDS = '2147483648';

const CHANNELS = {
  general: GENERAL,
  'nsfw-lounge': NSFW_LOUNGE,
  announcements: ANNOUNCEMENTS,
  'a-thread': THREAD,
  'nsfw-thread': '1345183757107200015',
  staff: '1345183757107200016',
  quiet: '1345183757107200017',
  'no-apps': '1345183757107200018',
  hidden: '1345183757107200019',
  'app-muted': '1345183757107200020',
} as const;
type ChannelName = keyof typeof CHANNELS;

function testGuild(): Json {
  return {
    id: TEST_GUILD_ID,
    name: 'Test Guild',
    owner_id: ALICE_ID,
    preferred_locale: 'en-US',
    // Listed highest first (docs/permissions.md, role hierarchy).
    roles: [
      { id: ADMIN_ROLE, name: 'Admin', permissions: '8' },
      { id: MODERATOR_ROLE, name: 'Moderator', permissions: '268435490' },
      { id: SUPPORT_ROLE, name: 'Support', permissions: MANAGE_MESSAGES },
      { id: HELPER_ROLE, name: 'Helper', permissions: '0' },
      { id: MUTED_ROLE, name: 'Muted', permissions: '0' },
      { id: EVERYONE, name: '@everyone', permissions: '2147552256' },
    ],
    channels: [
      { id: CATEGORY, type: 4, name: 'Text' },
      { id: CHANNELS.general, type: 0, name: 'general', parent_id: CATEGORY },
      { id: CHANNELS['nsfw-lounge'], type: 0, name: 'nsfw-lounge', nsfw: true, parent_id: CATEGORY },
      {
        id: CHANNELS.announcements,
        type: 0,
        name: 'announcements',
        parent_id: CATEGORY,
        permission_overwrites: [{ id: EVERYONE, type: 0, allow: '0', deny: '2048' }],
      },
      { id: CHANNELS['a-thread'], type: 11, name: 'a-thread', parent_id: CHANNELS.general },
      // A thread of the age-restricted channel: it is not marked nsfw itself, its parent is.
      { id: CHANNELS['nsfw-thread'], type: 11, name: 'nsfw-thread', parent_id: CHANNELS['nsfw-lounge'] },
      {
        id: CHANNELS.staff,
        type: 0,
        name: 'staff',
        permission_overwrites: [{ id: GINA_ID, type: 1, allow: MANAGE_MESSAGES, deny: '0' }],
      },
      {
        id: CHANNELS.quiet,
        type: 0,
        name: 'quiet',
        permission_overwrites: [{ id: SUPPORT_ROLE, type: 0, allow: '0', deny: MANAGE_MESSAGES }],
      },
      {
        id: CHANNELS['no-apps'],
        type: 0,
        name: 'no-apps',
        permission_overwrites: [{ id: EVERYONE, type: 0, allow: '0', deny: USE_APPLICATION_COMMANDS }],
      },
      {
        id: CHANNELS.hidden,
        type: 0,
        name: 'hidden',
        permission_overwrites: [
          { id: EVERYONE, type: 0, allow: '0', deny: VIEW_CHANNEL },
          { id: MODERATOR_ROLE, type: 0, allow: VIEW_CHANNEL, deny: '0' },
        ],
      },
      { id: CHANNELS['app-muted'], type: 0, name: 'app-muted' },
    ],
    members: [
      { user_id: ALICE_ID, roles: [ADMIN_ROLE] },
      { user_id: BOB_ID, roles: [MODERATOR_ROLE] },
      { user_id: CAROL_ID, roles: [] },
      { user_id: DAVE_ID, roles: [MUTED_ROLE] },
      { user_id: ERIN_ID, roles: [ADMIN_ROLE] },
      { user_id: FRANK_ID, roles: [HELPER_ROLE, SUPPORT_ROLE] },
      { user_id: GINA_ID, roles: [HELPER_ROLE] },
    ],
    installs: [
      { application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: '2147552256' },
      { application_id: ACTIVITY_APP_ID, scopes: ['applications.commands'] },
    ],
  };
}

function thirdGuild(): Json {
  return {
    id: THIRD_GUILD_ID,
    name: 'Third Guild',
    owner_id: ALICE_ID,
    preferred_locale: 'de',
    roles: [{ id: THIRD_GUILD_ID, name: '@everyone', permissions: '2147552256' }],
    channels: [{ id: THIRD_GENERAL, type: 0, name: 'allgemein' }],
    members: [
      { user_id: ALICE_ID, roles: [] },
      { user_id: BOB_ID, roles: [] },
      { user_id: FRANK_ID, roles: [] },
    ],
    installs: [{ application_id: DEMO_APP_ID, scopes: ['applications.commands'] }],
  };
}

const role = (id: string, permission: boolean) => ({ id, type: 1, permission });
const user = (id: string, permission: boolean) => ({ id, type: 2, permission });
const channel = (id: string, permission: boolean) => ({ id, type: 3, permission });

interface CommandFixture {
  /** Where it is created: global, a guild command of the Test Guild, or of the third guild. */
  scope: 'global' | 'test' | 'third';
  body: Json;
  overwrites?: Json[];
}

/** The demo app's commands, keyed by name. */
const COMMANDS: CommandFixture[] = [
  { scope: 'global', body: { name: 'open', description: 'No overwrites at all' } },
  {
    scope: 'global',
    body: {
      name: 'localized',
      description: 'A localized command',
      name_localizations: { fr: 'localise', de: 'lokalisiert', 'en-GB': 'localised' },
      description_localizations: { fr: 'Une commande localisée', de: 'Ein lokalisierter Befehl' },
    },
  },
  { scope: 'global', body: { type: 2, name: 'Inspect User' } },
  {
    scope: 'test',
    body: { name: 'user-beats-role', description: 'Helper denied, frank allowed' },
    overwrites: [role(HELPER_ROLE, false), user(FRANK_ID, true)],
  },
  {
    scope: 'test',
    body: { name: 'role-deny', description: 'Moderator denied' },
    overwrites: [role(MODERATOR_ROLE, false)],
  },
  {
    scope: 'test',
    body: { name: 'role-any-allow', description: 'Helper denied, Support allowed' },
    overwrites: [role(HELPER_ROLE, false), role(SUPPORT_ROLE, true)],
  },
  {
    scope: 'test',
    body: { name: 'everyone-deny', description: '@everyone denied, Moderator allowed' },
    overwrites: [role(EVERYONE, false), role(MODERATOR_ROLE, true)],
  },
  {
    scope: 'test',
    body: { name: 'general-only', description: 'All channels denied but general' },
    overwrites: [channel(ALL_CHANNELS, false), channel(CHANNELS.general, true)],
  },
  {
    scope: 'test',
    body: { name: 'not-in-general', description: 'Denied in general' },
    overwrites: [channel(CHANNELS.general, false)],
  },
  {
    scope: 'test',
    body: { name: 'admins-only', description: 'default_member_permissions 0', default_member_permissions: '0' },
  },
  {
    scope: 'test',
    body: { name: 'admins-and-bob', description: '0, and bob allowed', default_member_permissions: '0' },
    overwrites: [user(BOB_ID, true)],
  },
  {
    scope: 'test',
    body: {
      name: 'needs-manage-messages',
      description: 'Needs MANAGE_MESSAGES',
      default_member_permissions: MANAGE_MESSAGES,
    },
  },
  { scope: 'test', body: { name: 'adult', description: 'Age-restricted', nsfw: true } },
  {
    scope: 'test',
    body: { name: 'dave-welcome', description: 'Dave allowed at command level' },
    overwrites: [user(DAVE_ID, true)],
  },
  {
    scope: 'test',
    body: { name: 'app-channel-override', description: 'Allowed in app-muted' },
    overwrites: [channel(CHANNELS['app-muted'], true)],
  },
  {
    scope: 'test',
    body: { name: 'legacy-disabled', description: 'default_permission false', default_permission: false },
  },
  { scope: 'third', body: { name: 'third-only', description: 'A guild command of another guild' } },
];

/** App-level overwrites of the demo app in the Test Guild. */
const APP_LEVEL = [role(MUTED_ROLE, false), channel(CHANNELS['app-muted'], false)];

interface IndexCase {
  user: UserName;
  channel: ChannelName;
  command: string;
  visible: boolean;
  reason: AccessReasonCode;
  why: string;
}

/** One row per case of the issue: the decision and the branch that makes it, written out. */
const CASES: IndexCase[] = [
  {
    user: 'frank',
    channel: 'general',
    command: 'user-beats-role',
    visible: true,
    reason: 'user_allowed',
    why: 'a command-level user allow beats a role deny',
  },
  {
    user: 'gina',
    channel: 'general',
    command: 'user-beats-role',
    visible: false,
    reason: 'role_denied',
    why: 'the role deny applies to a Helper without a user overwrite',
  },
  { user: 'bob', channel: 'general', command: 'role-deny', visible: false, reason: 'role_denied', why: 'role deny' },
  {
    user: 'carol',
    channel: 'general',
    command: 'role-deny',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'a role deny of another role',
  },
  {
    user: 'frank',
    channel: 'general',
    command: 'role-any-allow',
    visible: true,
    reason: 'role_allowed',
    why: 'any role allow wins over a role deny',
  },
  {
    user: 'gina',
    channel: 'general',
    command: 'role-any-allow',
    visible: false,
    reason: 'role_denied',
    why: 'all her role overwrites deny',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'everyone-deny',
    visible: false,
    reason: 'everyone_denied',
    why: '@everyone deny',
  },
  {
    user: 'dave',
    channel: 'general',
    command: 'everyone-deny',
    visible: false,
    reason: 'everyone_denied',
    why: "the command's @everyone deny decides before the app level",
  },
  {
    user: 'bob',
    channel: 'general',
    command: 'everyone-deny',
    visible: true,
    reason: 'role_allowed',
    why: 'a role allow beats the @everyone deny',
  },
  {
    user: 'erin',
    channel: 'general',
    command: 'everyone-deny',
    visible: true,
    reason: 'administrator',
    why: 'administrators use every command',
  },
  {
    user: 'alice',
    channel: 'general',
    command: 'everyone-deny',
    visible: true,
    reason: 'owner',
    why: 'the owner uses every command',
  },
  {
    user: 'dave',
    channel: 'general',
    command: 'open',
    visible: false,
    reason: 'app_role_denied',
    why: 'app-level role deny',
  },
  {
    user: 'dave',
    channel: 'general',
    command: 'dave-welcome',
    visible: true,
    reason: 'user_allowed',
    why: 'a command-level user allow beats the app-level role deny',
  },
  {
    user: 'carol',
    channel: 'app-muted',
    command: 'open',
    visible: false,
    reason: 'app_channel_denied',
    why: 'app-level channel deny',
  },
  {
    user: 'carol',
    channel: 'app-muted',
    command: 'app-channel-override',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'a command-level channel allow beats the app-level channel deny',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'general-only',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'the channel allow beats the all-channels deny',
  },
  {
    user: 'carol',
    channel: 'announcements',
    command: 'general-only',
    visible: false,
    reason: 'all_channels_denied',
    why: 'all-channels constant denies',
  },
  {
    user: 'carol',
    channel: 'a-thread',
    command: 'general-only',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'a thread counts as its parent',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'not-in-general',
    visible: false,
    reason: 'channel_denied',
    why: 'channel deny',
  },
  {
    user: 'carol',
    channel: 'a-thread',
    command: 'not-in-general',
    visible: false,
    reason: 'channel_denied',
    why: 'a channel deny applies to its thread',
  },
  {
    user: 'carol',
    channel: 'announcements',
    command: 'not-in-general',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'the deny names another channel',
  },
  {
    user: 'bob',
    channel: 'general',
    command: 'admins-only',
    visible: false,
    reason: 'default_member_permissions_zero',
    why: '"0": not for a moderator',
  },
  {
    user: 'erin',
    channel: 'general',
    command: 'admins-only',
    visible: true,
    reason: 'administrator',
    why: '"0": administrators',
  },
  { user: 'alice', channel: 'general', command: 'admins-only', visible: true, reason: 'owner', why: '"0": the owner' },
  {
    user: 'bob',
    channel: 'general',
    command: 'admins-and-bob',
    visible: true,
    reason: 'user_allowed',
    why: '"0" and an explicit user overwrite',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'admins-and-bob',
    visible: false,
    reason: 'default_member_permissions_zero',
    why: '"0" without an overwrite',
  },
  {
    user: 'frank',
    channel: 'general',
    command: 'needs-manage-messages',
    visible: true,
    reason: 'default_member_permissions_met',
    why: 'MANAGE_MESSAGES from the Support role',
  },
  {
    user: 'frank',
    channel: 'quiet',
    command: 'needs-manage-messages',
    visible: false,
    reason: 'missing_default_member_permissions',
    why: 'a channel role overwrite takes MANAGE_MESSAGES away',
  },
  {
    user: 'gina',
    channel: 'staff',
    command: 'needs-manage-messages',
    visible: true,
    reason: 'default_member_permissions_met',
    why: 'a channel member overwrite gives MANAGE_MESSAGES',
  },
  {
    user: 'gina',
    channel: 'general',
    command: 'needs-manage-messages',
    visible: false,
    reason: 'missing_default_member_permissions',
    why: 'no MANAGE_MESSAGES',
  },
  {
    user: 'bob',
    channel: 'nsfw-lounge',
    command: 'adult',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'age-verified, in an age-restricted channel',
  },
  {
    user: 'bob',
    channel: 'nsfw-thread',
    command: 'adult',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'a thread of an age-restricted channel',
  },
  {
    user: 'bob',
    channel: 'general',
    command: 'adult',
    visible: false,
    reason: 'nsfw_channel',
    why: 'not an age-restricted channel',
  },
  {
    user: 'dave',
    channel: 'nsfw-lounge',
    command: 'adult',
    visible: false,
    reason: 'nsfw_user',
    why: 'dave is not age-verified',
  },
  {
    user: 'alice',
    channel: 'general',
    command: 'adult',
    visible: false,
    reason: 'nsfw_channel',
    why: 'age restriction binds the owner too',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'legacy-disabled',
    visible: false,
    reason: 'default_permission_false',
    why: 'default_permission false acts as "0"',
  },
  {
    user: 'carol',
    channel: 'no-apps',
    command: 'open',
    visible: false,
    reason: 'missing_use_application_commands',
    why: 'no USE_APPLICATION_COMMANDS in the channel',
  },
  {
    user: 'erin',
    channel: 'no-apps',
    command: 'open',
    visible: true,
    reason: 'administrator',
    why: 'administrators have every bit',
  },
  {
    user: 'bob',
    channel: 'hidden',
    command: 'open',
    visible: true,
    reason: 'default_member_permissions_null',
    why: 'the Moderator role may view the hidden channel',
  },
  {
    user: 'bob',
    channel: 'general',
    command: 'third-only',
    visible: false,
    reason: 'other_guild',
    why: 'a guild command of another guild',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'other-app-command',
    visible: false,
    reason: 'not_installed',
    why: 'the app is not installed in the guild',
  },
  {
    user: 'carol',
    channel: 'general',
    command: 'Launch',
    visible: true,
    reason: 'default_member_permissions_null',
    why: "another installed app's command",
  },
];
describe('the application command index', () => {
  let server: TestServer;
  /** Command ids by name. */
  const ids = new Map<string, string>();

  function index(userName: UserName, channelId: string, headers?: Record<string, string>): Promise<TestResponse> {
    return server.request('GET', `/channels/${channelId}/application-command-index`, {
      auth: USERS[userName]!.token,
      headers,
    });
  }

  /** The data the engine needs, read back from the admin API and the store, as the service sees it. */
  async function readBack(
    guildId: string,
  ): Promise<{ guild: Guild; apps: Application[]; users: User[]; commands: StoredCommand[] }> {
    const guild = (await adminOk(server, 'GET', `/guilds/${guildId}`)).body as Guild;
    const apps = (await adminOk(server, 'GET', '/applications')).body as Application[];
    const users = (await adminOk(server, 'GET', '/users')).body as User[];
    const guildIds = ((await adminOk(server, 'GET', '/guilds')).body as Guild[]).map((g) => g.id);
    const commands: StoredCommand[] = [];
    for (const app of apps) {
      commands.push(...(await server.slashd.store.commands.listCommands({ applicationId: app.id, guildId: null })));
      // Guild commands of every guild, so that the engine's other_guild rule is exercised too.
      for (const id of guildIds)
        commands.push(...(await server.slashd.store.commands.listCommands({ applicationId: app.id, guildId: id })));
    }
    return { guild, apps, users, commands };
  }

  /** The engine's decision for every command of every app, for this user in this channel. */
  async function decisions(
    guildId: string,
    userId: string,
    channelId: string,
  ): Promise<Map<string, AccessDecision> | 'no access'> {
    const { guild, apps, users, commands } = await readBack(guildId);
    const member = guild.members.find((m) => m.user_id === userId);
    const where = guild.channels.find((c) => c.id === channelId);
    const who = users.find((u) => u.id === userId);
    assert.ok(where && who, 'channel and user exist');
    if (!member || !canViewChannel(guild, member, where)) return 'no access';
    const result = new Map<string, AccessDecision>();
    for (const app of apps) {
      const objects = await server.slashd.store.commands.listCommandPermissions(app.id, guild.id);
      for (const command of commands.filter((c) => c.application_id === app.id)) {
        result.set(
          command.id,
          evaluateCommandAccess({
            app,
            command,
            commandPermissions: overwritesFor(objects, command.id),
            appPermissions: overwritesFor(objects, app.id),
            guild,
            member,
            user: who,
            channel: where,
            installed: isInstalledForCommands(guild, app.id),
          }),
        );
      }
    }
    return result;
  }

  function assertIndexShape(body: Json): void {
    assert.deepEqual(Object.keys(body).sort(), ['application_commands', 'applications']);
    assert.ok(Array.isArray(body.applications) && Array.isArray(body.application_commands));
    for (const command of body.application_commands) {
      assertWireCommand(command, {
        applicationId: command.application_id,
        guildId: command.guild_id ?? null,
        view: 'list',
      });
    }
    const appIds = body.applications.map((app: Json) => app.id);
    assert.equal(new Set(appIds).size, appIds.length, 'each application once');
    assert.deepEqual(
      [...new Set(body.application_commands.map((c: Json) => c.application_id))].sort(),
      [...appIds].sort(),
      'the applications are exactly those with a command in the index',
    );
    for (const app of body.applications) assert.equal(typeof app.name, 'string');
  }

  before(async () => {
    server = await injectServer();
    for (const [id, username, locale, token] of [
      [FRANK_ID, 'frank', 'ja', 'frank-user-token'],
      [GINA_ID, 'gina', 'de', 'gina-user-token'],
    ] as const) {
      await adminOk(server, 'PUT', `/users/${id}`, { id, username, token, locale, age_verified: true });
    }
    await adminOk(server, 'PUT', `/guilds/${TEST_GUILD_ID}`, testGuild());
    await adminOk(server, 'PUT', `/guilds/${THIRD_GUILD_ID}`, thirdGuild());

    for (const fixture of COMMANDS) {
      const base =
        fixture.scope === 'global'
          ? `/applications/${DEMO_APP_ID}/commands`
          : `/applications/${DEMO_APP_ID}/guilds/${fixture.scope === 'test' ? TEST_GUILD_ID : THIRD_GUILD_ID}/commands`;
      const created = await server.request('POST', base, { auth: BOT, body: fixture.body });
      assert.equal(created.status, 201, `${fixture.body.name}: ${created.text}`);
      ids.set(fixture.body.name, created.body.id);
      if (fixture.overwrites) {
        const put = await server.request(
          'PUT',
          `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${created.body.id}/permissions`,
          {
            auth: ALICE_PERM,
            body: { permissions: fixture.overwrites },
          },
        );
        assert.equal(put.status, 200, `${fixture.body.name}: ${put.text}`);
      }
    }
    const appLevel = await server.request(
      'PUT',
      `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/${DEMO_APP_ID}/permissions`,
      {
        auth: ALICE_PERM,
        body: { permissions: APP_LEVEL },
      },
    );
    assert.equal(appLevel.status, 200, appLevel.text);
    // An app that is not installed in the Test Guild has a global command too.
    const other = await server.request('POST', `/applications/${OTHER_APP_ID}/commands`, {
      auth: `Bot ${OTHER_BOT_TOKEN}`,
      body: { name: 'other-app-command', description: 'Of an app the Test Guild does not have' },
    });
    assert.equal(other.status, 201, other.text);
    ids.set('other-app-command', other.body.id);
    const launch = await server.request('GET', `/applications/${ACTIVITY_APP_ID}/commands`, {
      auth: 'Bot activity-bot-token',
    });
    ids.set('Launch', launch.body.find((c: Json) => c.type === 4).id);
  });

  after(async () => {
    await server.close();
  });

  test('every member in every channel sees exactly what the engine allows', async () => {
    let compared = 0;
    for (const userName of Object.keys(USERS)) {
      for (const channelName of Object.keys(CHANNELS) as ChannelName[]) {
        const label = `${userName} in #${channelName}`;
        const expected = await decisions(TEST_GUILD_ID, USERS[userName]!.id, CHANNELS[channelName]);
        const response = await index(userName, CHANNELS[channelName]);
        if (expected === 'no access') {
          assert.equal(response.status, 403, `${label}: ${response.text}`);
          assertErrorBody(response.status, response.body);
          assert.equal(response.body.code, 50001, label);
          continue;
        }
        assert.equal(response.status, 200, `${label}: ${response.text}`);
        assertIndexShape(response.body);
        const allowed = [...expected].filter(([, decision]) => decision.allowed).map(([id]) => id);
        assert.deepEqual(response.body.application_commands.map((c: Json) => c.id).sort(), allowed.sort(), label);
        compared++;
      }
    }
    // The matrix is not vacuous: most pairs were compared, and some of them differ.
    assert.ok(compared >= 60, `${compared} pairs compared`);
  });

  test('the matrix is not trivial: different members see different commands in the same channel', async () => {
    const pickers = new Map<UserName, string>();
    for (const userName of Object.keys(USERS)) {
      const response = await index(userName, CHANNELS.general);
      pickers.set(userName, JSON.stringify(response.body.application_commands.map((c: Json) => c.name).sort()));
    }
    // The owner and the other administrator see the same; every other member a picker of their own.
    assert.equal(pickers.get('alice'), pickers.get('erin'));
    assert.equal(new Set(pickers.values()).size, Object.keys(USERS).length - 1);
  });

  describe('each case, with its decision and its reason', () => {
    for (const c of CASES) {
      test(`${c.user} in #${c.channel}, ${c.command}: ${c.visible ? 'shown' : 'hidden'} (${c.reason}: ${c.why})`, async () => {
        const commandId = ids.get(c.command);
        assert.ok(commandId, `fixture ${c.command}`);
        const expected = await decisions(TEST_GUILD_ID, USERS[c.user]!.id, CHANNELS[c.channel]);
        assert.notEqual(expected, 'no access');
        assert.deepEqual(
          (expected as Map<string, AccessDecision>).get(commandId),
          { allowed: c.visible, reason: c.reason },
          'the engine',
        );
        const response = await index(c.user, CHANNELS[c.channel]);
        assert.equal(response.status, 200, response.text);
        const shown = response.body.application_commands.some((command: Json) => command.id === commandId);
        assert.equal(shown, c.visible, 'the index');
      });
    }
  });

  test('a channel the member cannot view: 403, 50001; a channel that does not exist: 404, 10003', async () => {
    const hidden = await index('carol', CHANNELS.hidden);
    assert.equal(hidden.status, 403, hidden.text);
    assertErrorBody(hidden.status, hidden.body);
    assert.equal(hidden.body.code, 50001);
    const unknown = await index('carol', '1345183757107209999');
    assert.equal(unknown.status, 404, unknown.text);
    assertErrorBody(unknown.status, unknown.body);
    assert.equal(unknown.body.code, 10003);
    // A member of another guild only: the third guild's channel is not carol's.
    const notMember = await index('carol', THIRD_GENERAL);
    assert.equal(notMember.status, 403, notMember.text);
    assert.equal(notMember.body.code, 50001);
  });

  test('the index takes a user token only', async () => {
    for (const auth of [undefined, BOT, ALICE_PERM, 'not-a-token']) {
      const response = await server.request('GET', `/channels/${CHANNELS.general}/application-command-index`, { auth });
      assert.equal(response.status, 401, `${auth}: ${response.text}`);
      assertErrorBody(response.status, response.body);
    }
  });

  test("the third guild's index has its own guild command and the global ones, not the Test Guild's", async () => {
    for (const userName of ['alice', 'bob', 'frank'] as const) {
      const expected = await decisions(THIRD_GUILD_ID, USERS[userName]!.id, THIRD_GENERAL);
      assert.notEqual(expected, 'no access');
      const response = await index(userName, THIRD_GENERAL);
      assert.equal(response.status, 200, response.text);
      assertIndexShape(response.body);
      const names = response.body.application_commands.map((c: Json) => c.name).sort();
      const allowed = [...(expected as Map<string, AccessDecision>)]
        .filter(([, d]) => d.allowed)
        .map(([id]) => id)
        .sort();
      assert.deepEqual(response.body.application_commands.map((c: Json) => c.id).sort(), allowed);
      // The Test Guild's overwrites and guild commands do not reach here.
      assert.deepEqual(names, ['Inspect User', 'localized', 'open', 'third-only'], userName);
    }
  });

  describe('localization of the index', () => {
    async function localizedEntry(userName: UserName, headers?: Record<string, string>): Promise<Json> {
      const response = await index(userName, CHANNELS.general, headers);
      assert.equal(response.status, 200, response.text);
      const entry = response.body.application_commands.find((c: Json) => c.name === 'localized');
      assert.ok(entry, 'the localized command is in the index');
      return entry;
    }

    /** The same command in the global list endpoint, for the same locale. */
    async function listEntry(locale: string): Promise<Json> {
      const response = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
        auth: BOT,
        headers: { 'X-Discord-Locale': locale },
      });
      assert.equal(response.status, 200, response.text);
      return response.body.find((c: Json) => c.name === 'localized');
    }

    test("the user's settings locale: fr for bob", async () => {
      const entry = await localizedEntry('bob');
      assert.equal(entry.name_localized, 'localise');
      assert.equal(entry.description_localized, 'Une commande localisée');
      assert.equal(entry.name_localizations, undefined, 'no dictionaries in the index');
      assert.deepEqual(entry, await listEntry('fr'), 'as in the list endpoint');
    });

    test('X-Discord-Locale wins over the settings locale', async () => {
      const entry = await localizedEntry('bob', { 'X-Discord-Locale': 'de' });
      assert.equal(entry.name_localized, 'lokalisiert');
      assert.equal(entry.description_localized, 'Ein lokalisierter Befehl');
      assert.deepEqual(entry, await listEntry('de'));
    });

    test('X-Service-Locale and Accept-Language are read too', async () => {
      assert.equal((await localizedEntry('bob', { 'X-Service-Locale': 'de' })).name_localized, 'lokalisiert');
      assert.equal(
        (await localizedEntry('bob', { 'Accept-Language': 'de-DE,de;q=0.9' })).name_localized,
        'lokalisiert',
      );
    });

    test('a locale without an entry gets no localized field; en-US falls back to en-GB', async () => {
      const frank = await localizedEntry('frank');
      assert.equal('name_localized' in frank, false, 'ja has no entry');
      assert.equal('description_localized' in frank, false);
      // alice's settings locale is en-US, which has no entry: en-GB's applies.
      assert.equal((await localizedEntry('alice')).name_localized, 'localised');
      assert.equal(
        'description_localized' in (await localizedEntry('alice')),
        false,
        'neither en-US nor en-GB has a description',
      );
    });
  });
});
