/**
 * The growth bench's worlds (bench/growth.bench.ts): G guilds of 100 members (100 × G users), 5 apps
 * installed in every guild, each with 10 guild commands per guild (50 × G commands), and app 0 with
 * 100 global commands (the hot list). Every guild has @everyone and 3 roles (half the members hold
 * one) and 3 text channels. The world file is written in pieces (a 1M-user world is never one
 * string), imported by `slashd serve --world`, and the guild commands are deployed through the
 * bulk overwrite endpoint, many requests in flight: what a store does for each is what it does
 * for real clients.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Guild, User } from '../src/core/world/types.js';
import { benchApplication, slashCommands } from './fixtures.js';
import { client } from './interactions.bench.js';

export const GROWTH_APPS = 5;
export const MEMBERS_PER_GUILD = 100;
/** Roles besides @everyone, and text channels, in each guild. */
const ROLES_PER_GUILD = 3;
const CHANNELS_PER_GUILD = 3;
export const GUILD_COMMANDS_PER_APP = 10;
/** App 0's global commands: the list the hot list GET reads. */
export const HOT_LIST_COMMANDS = 100;
/** Users written to the world file per write. */
const USERS_PER_WRITE = 10_000;
/** Bulk overwrites in flight while deploying the guild commands. */
const DEPLOYS_IN_FLIGHT = 16;
/** VIEW_CHANNEL, SEND_MESSAGES, READ_MESSAGE_HISTORY and USE_APPLICATION_COMMANDS: every member may use the picker. */
const EVERYONE_PERMISSIONS = '2147552256';

const APP_BASE = 1_500_000_000_000_000_000n;
const USER_BASE = 1_600_000_000_000_000_000n;
const GUILD_BASE = 1_700_000_000_000_000_000n;
/** Ids per guild: the guild, its roles, then its channels. */
const IDS_PER_GUILD = 1n + BigInt(ROLES_PER_GUILD + CHANNELS_PER_GUILD);

export const appId = (a: number): string => (APP_BASE + BigInt(a)).toString();
export const botToken = (a: number): string => `growth-bot-${a}`;
export const userId = (u: number): string => (USER_BASE + BigInt(u)).toString();
export const userToken = (u: number): string => `growth-user-${u}`;
export const guildId = (g: number): string => (GUILD_BASE + BigInt(g) * IDS_PER_GUILD).toString();
const roleId = (g: number, r: number): string => (BigInt(guildId(g)) + 1n + BigInt(r)).toString();
export const channelId = (g: number, c: number): string =>
  (BigInt(guildId(g)) + 1n + BigInt(ROLES_PER_GUILD + c)).toString();

export function growthUser(u: number, username = `user${u}`): User {
  return { id: userId(u), username, token: userToken(u), locale: 'en-US', age_verified: false };
}

function guild(g: number): Guild {
  return {
    id: guildId(g),
    name: `guild ${g}`,
    owner_id: userId(g * MEMBERS_PER_GUILD),
    preferred_locale: 'en-US',
    roles: [
      ...Array.from({ length: ROLES_PER_GUILD }, (_, r) => ({ id: roleId(g, r), name: `role-${r}`, permissions: '0' })),
      { id: guildId(g), name: '@everyone', permissions: EVERYONE_PERMISSIONS },
    ],
    channels: Array.from({ length: CHANNELS_PER_GUILD }, (_, c) => ({
      id: channelId(g, c),
      type: 0,
      name: `channel-${c}`,
      nsfw: false,
      parent_id: null,
      permission_overwrites: [],
    })),
    members: Array.from({ length: MEMBERS_PER_GUILD }, (_, m) => ({
      user_id: userId(g * MEMBERS_PER_GUILD + m),
      roles: m % 2 === 0 ? [roleId(g, m % ROLES_PER_GUILD)] : [],
      nick: null,
      joined_at: '2026-01-01T00:00:00.000Z',
    })),
    installs: Array.from({ length: GROWTH_APPS }, (_, a) => ({
      application_id: appId(a),
      scopes: ['bot', 'applications.commands'],
      permissions: '2048',
    })),
    messages: [],
  };
}

/** Writes the world of `guilds` guilds to `path`, users and guilds a slice at a time. */
export function writeGrowthWorld(path: string, guilds: number): void {
  const fd = openSync(path, 'w');
  try {
    const apps = Array.from({ length: GROWTH_APPS }, (_, a) =>
      benchApplication(appId(a), `Growth app ${a}`, userId(0), botToken(a)),
    );
    writeSync(fd, `{"applications":${JSON.stringify(apps)},"oauth2_tokens":[],"users":[`);
    const users = guilds * MEMBERS_PER_GUILD;
    for (let start = 0; start < users; start += USERS_PER_WRITE) {
      const slice = Array.from({ length: Math.min(USERS_PER_WRITE, users - start) }, (_, i) => growthUser(start + i));
      writeSync(fd, (start > 0 ? ',' : '') + JSON.stringify(slice).slice(1, -1));
    }
    writeSync(fd, '],"guilds":[');
    for (let g = 0; g < guilds; g++) writeSync(fd, (g > 0 ? ',' : '') + JSON.stringify(guild(g)));
    writeSync(fd, ']}');
  } finally {
    closeSync(fd);
  }
}

/**
 * App 0's global list, then every app's guild commands in every guild, one bulk overwrite per
 * app and guild, DEPLOYS_IN_FLIGHT at a time.
 */
export async function deployGrowthCommands(baseUrl: string, guilds: number): Promise<void> {
  const api = client(baseUrl);
  const put = async (path: string, token: string, body: string): Promise<void> => {
    const reply = await api.call(
      'PUT',
      `/api/v10${path}`,
      { authorization: `Bot ${token}`, 'content-type': 'application/json' },
      body,
    );
    if (reply.status !== 200) throw new Error(`PUT ${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
  };
  try {
    await put(`/applications/${appId(0)}/commands`, botToken(0), JSON.stringify(slashCommands(HOT_LIST_COMMANDS)));
    const guildList = JSON.stringify(slashCommands(GUILD_COMMANDS_PER_APP, 'guild'));
    let next = 0;
    const total = guilds * GROWTH_APPS;
    await Promise.all(
      Array.from({ length: DEPLOYS_IN_FLIGHT }, async () => {
        for (let i = next++; i < total; i = next++) {
          const a = i % GROWTH_APPS;
          const g = Math.floor(i / GROWTH_APPS);
          await put(`/applications/${appId(a)}/guilds/${guildId(g)}/commands`, botToken(a), guildList);
        }
      }),
    );
  } finally {
    api.close();
  }
}
