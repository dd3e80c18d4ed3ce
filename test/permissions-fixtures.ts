/**
 * Fixtures for the permission tests, in the shapes of the example world (world.example.json),
 * built here so that the tests read no file. Every function returns fresh objects: a test may
 * change what it gets without touching another test's world.
 */
import type { CommandDefinition, StoredCommand } from '../src/core/commands/model.js';
import type { Application, Channel, Guild, Member, PermissionOverwrite, Role, User } from '../src/core/world/types.js';
import type { CommandPermission } from '../src/core/permissions/command-permissions.js';
import type { CommandAccessInput } from '../src/core/permissions/engine.js';
import { commandDefinition } from './helpers/commands.js';
import {
  ACTIVITY_APP_ID,
  ADMIN_ROLE,
  ALICE_ID as ALICE,
  ANNOUNCEMENTS,
  BOB_ID as BOB,
  CAROL_ID as CAROL,
  CATEGORY,
  DAVE_ID as DAVE,
  DEMO_APP_ID,
  ERIN_ID as ERIN,
  GENERAL,
  HELLO_MESSAGE,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NSFW_LOUNGE,
  TEST_GUILD_ID as GUILD_ID,
  TEST_GUILD_ID,
  THREAD,
} from './helpers/world.js';

export {
  DEMO_APP_ID,
  OTHER_APP_ID,
  ACTIVITY_APP_ID,
  ALICE_ID as ALICE,
  BOB_ID as BOB,
  CAROL_ID as CAROL,
  DAVE_ID as DAVE,
  ERIN_ID as ERIN,
  TEST_GUILD_ID as GUILD_ID,
  SECOND_GUILD_ID,
  ADMIN_ROLE,
  MODERATOR_ROLE,
  MUTED_ROLE,
  CATEGORY,
  GENERAL,
  NSFW_LOUNGE,
  ANNOUNCEMENTS,
  THREAD,
} from './helpers/world.js';
/** @everyone of the test guild: its id is the guild id. */
export const EVERYONE_ROLE = TEST_GUILD_ID;
/** The all-channels constant of the test guild: the guild id minus 1. */
export const ALL_CHANNELS = '1345183757107200000';

/** @everyone of the example: VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY, USE_APPLICATION_COMMANDS. */
export const EVERYONE_BITS = '2147552256';
/** The Moderator role of the example: KICK_MEMBERS, MANAGE_GUILD, MANAGE_ROLES. */
export const MODERATOR_BITS = '268435490';

export function demoApp(overrides: Partial<Application> = {}): Application {
  return {
    id: DEMO_APP_ID,
    name: 'Demo Bot',
    owner_id: ALICE,
    bot_token: 'demo-bot-token-please-change',
    client_secret: 'demo-client-secret',
    public_client: false,
    redirect_uris: ['http://127.0.0.1/callback'],
    flags: 0,
    integration_types: [0, 1],
    discoverable: false,
    interactions_endpoint_url: null,
    ...overrides,
  };
}

export function activityApp(): Application {
  return demoApp({ id: ACTIVITY_APP_ID, name: 'Activity App', bot_token: 'activity-bot-token', flags: 131072 });
}

const USERS: Record<string, Omit<User, 'id'>> = {
  [ALICE]: { username: 'alice', token: 'alice-user-token', locale: 'en-US', age_verified: true },
  [BOB]: { username: 'bob', token: 'bob-user-token', locale: 'fr', age_verified: true },
  [CAROL]: { username: 'carol', token: 'carol-user-token', locale: 'es-419', age_verified: true },
  [DAVE]: { username: 'dave', token: 'dave-user-token', locale: 'en-GB', age_verified: false },
  [ERIN]: { username: 'erin', token: 'erin-user-token', locale: 'de', age_verified: true },
};

export function user(id: string, overrides: Partial<User> = {}): User {
  const known = USERS[id] ?? { username: `user-${id}`, token: `token-${id}`, locale: 'en-US', age_verified: true };
  return { id, ...known, ...overrides };
}

export function role(id: string, name: string, permissions: string): Role {
  return { id, name, permissions };
}

export function channel(id: string, type: number, name: string, extra: Partial<Channel> = {}): Channel {
  return { id, type, name, nsfw: false, parent_id: null, permission_overwrites: [], ...extra };
}

export function overwrite(id: string, type: 0 | 1, allow: bigint | string, deny: bigint | string): PermissionOverwrite {
  return { id, type, allow: allow.toString(), deny: deny.toString() };
}

export function member(userId: string, roles: string[] = []): Member {
  return { user_id: userId, roles, nick: null, joined_at: '2025-03-01T00:00:00.000Z' };
}

/** The example's "Test Guild". */
export function testGuild(): Guild {
  return {
    id: GUILD_ID,
    name: 'Test Guild',
    owner_id: ALICE,
    preferred_locale: 'en-US',
    roles: [
      role(EVERYONE_ROLE, '@everyone', EVERYONE_BITS),
      role(ADMIN_ROLE, 'Admin', '8'),
      role(MODERATOR_ROLE, 'Moderator', MODERATOR_BITS),
      role(MUTED_ROLE, 'Muted', '0'),
    ],
    channels: [
      channel(CATEGORY, 4, 'Text'),
      channel(GENERAL, 0, 'general', { parent_id: CATEGORY }),
      channel(NSFW_LOUNGE, 0, 'nsfw-lounge', { nsfw: true, parent_id: CATEGORY }),
      channel(ANNOUNCEMENTS, 0, 'announcements', {
        parent_id: CATEGORY,
        permission_overwrites: [overwrite(EVERYONE_ROLE, 0, '0', '2048')],
      }),
      channel(THREAD, 11, 'a-thread', { parent_id: GENERAL }),
    ],
    members: [
      member(ALICE, [ADMIN_ROLE]),
      { ...member(BOB, [MODERATOR_ROLE]), nick: 'Bobby' },
      member(CAROL),
      member(DAVE, [MUTED_ROLE]),
    ],
    installs: [
      { application_id: DEMO_APP_ID, scopes: ['bot', 'applications.commands'], permissions: EVERYONE_BITS },
      { application_id: ACTIVITY_APP_ID, scopes: ['applications.commands'], permissions: null },
    ],
    messages: [{ id: HELLO_MESSAGE, channel_id: GENERAL, author_id: CAROL, content: 'hello world' }],
  };
}

/** The test guild owned by someone who is not a member (erin), so that alice is "only" an administrator. */
export function guildOwnedByErin(): Guild {
  return { ...testGuild(), owner_id: ERIN };
}

export function findMember(guild: Guild, userId: string): Member {
  const found = guild.members.find((candidate) => candidate.user_id === userId);
  if (!found) throw new Error(`fixture: no member ${userId}`);
  return found;
}

export function findChannelOf(guild: Guild, channelId: string): Channel {
  const found = guild.channels.find((candidate) => candidate.id === channelId);
  if (!found) throw new Error(`fixture: no channel ${channelId}`);
  return found;
}

/** A CHAT_INPUT definition: ping, for both integration types. */
export const definition = commandDefinition;

/** A global command of the demo app. */
export function globalCommand(overrides: Partial<CommandDefinition> = {}, id = '1400000000000000001'): StoredCommand {
  return { id, application_id: DEMO_APP_ID, guild_id: null, version: id, definition: definition(overrides) };
}

/** A guild command of the demo app (guild commands have no contexts and integration types). */
export function guildCommand(
  guildId: string,
  overrides: Partial<CommandDefinition> = {},
  id = '1400000000000000002',
): StoredCommand {
  return {
    id,
    application_id: DEMO_APP_ID,
    guild_id: guildId,
    version: id,
    definition: definition({ integration_types: null, contexts: null, ...overrides }),
  };
}

export const roleOverwrite = (id: string, permission: boolean): CommandPermission => ({ id, type: 1, permission });
export const userOverwrite = (id: string, permission: boolean): CommandPermission => ({ id, type: 2, permission });
export const channelOverwrite = (id: string, permission: boolean): CommandPermission => ({ id, type: 3, permission });

export interface AccessScenario {
  app?: Application;
  command?: StoredCommand;
  commandPermissions?: CommandPermission[] | null;
  appPermissions?: CommandPermission[] | null;
  guild?: Guild;
  userId?: string;
  /** Replaces the member's roles from the guild. */
  roles?: string[];
  userOverrides?: Partial<User>;
  channelId?: string;
  installed?: boolean;
}

/** An engine input: bob, in #general of the test guild, a plain global command, no overwrites. */
export function accessInput(scenario: AccessScenario = {}): CommandAccessInput {
  const guild = scenario.guild ?? testGuild();
  const userId = scenario.userId ?? BOB;
  const baseMember = guild.members.find((candidate) => candidate.user_id === userId) ?? member(userId);
  const theMember = scenario.roles ? { ...baseMember, roles: scenario.roles } : baseMember;
  return {
    app: scenario.app ?? demoApp(),
    command: scenario.command ?? globalCommand(),
    commandPermissions: scenario.commandPermissions ?? null,
    appPermissions: scenario.appPermissions ?? null,
    guild,
    member: theMember,
    user: user(userId, scenario.userOverrides),
    channel: findChannelOf(guild, scenario.channelId ?? GENERAL),
    installed: scenario.installed ?? true,
  };
}
