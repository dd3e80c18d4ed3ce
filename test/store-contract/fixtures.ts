/** Small, self-contained rows for the store contract suite: two applications, their users and guilds. */
import type { CommandDefinition, StoredCommand } from '../../src/core/commands/model.js';
import type { CommandMutation } from '../../src/resources/commands/rules/mutation.js';
import type { InteractionRecord, InteractionState } from '../../src/resources/interactions/rules/lifecycle.js';
import type { StoredMessage } from '../../src/resources/messages/rules/messages.js';
import type { Application, Guild, User, World } from '../../src/core/world/types.js';
import type { ActivityInstance } from '../../src/store/store.js';

export const APP_A = '1100000000000000001';
export const APP_B = '1100000000000000002';
export const TOKEN_A = 'bot-token-of-a';
export const TOKEN_B = 'bot-token-of-b';
export const ALICE = '1200000000000000001';
export const BOB = '1200000000000000002';
export const GUILD_1 = '1300000000000000001';
export const GUILD_2 = '1300000000000000002';
export const CHANNEL_1 = '1400000000000000001';
export const CHANNEL_1B = '1400000000000000002';
export const CHANNEL_2 = '1400000000000000011';

export function application(id: string, botToken: string, name = `app ${id}`): Application {
  return {
    id,
    name,
    owner_id: ALICE,
    bot_token: botToken,
    client_secret: `secret-of-${id}`,
    public_client: false,
    redirect_uris: [],
    flags: 0,
    integration_types: [0],
    discoverable: false,
    interactions_endpoint_url: null,
  };
}

export function user(id: string, token: string, username = `user-${id}`): User {
  return { id, username, token, locale: 'en-US', age_verified: false };
}

export function guild(id: string, channelIds: string[], name = `guild ${id}`): Guild {
  return {
    id,
    name,
    owner_id: ALICE,
    preferred_locale: 'en-US',
    roles: [{ id, name: '@everyone', permissions: '0' }],
    channels: channelIds.map((channelId) => ({
      id: channelId,
      type: 0,
      name: `channel-${channelId}`,
      nsfw: false,
      parent_id: null,
      permission_overwrites: [],
    })),
    members: [{ user_id: ALICE, roles: [], nick: null, joined_at: '2026-01-01T00:00:00.000Z' }],
    installs: [
      { application_id: APP_A, scopes: ['applications.commands', 'bot'], permissions: null },
      { application_id: APP_B, scopes: ['applications.commands', 'bot'], permissions: null },
    ],
    messages: [],
  };
}

/** Two applications, two users, two guilds and one pre-issued token of each kind. */
export function smallWorld(): World {
  return {
    applications: [application(APP_A, TOKEN_A), application(APP_B, TOKEN_B)],
    users: [user(ALICE, 'alice-token'), user(BOB, 'bob-token')],
    guilds: [guild(GUILD_1, [CHANNEL_1, CHANNEL_1B]), guild(GUILD_2, [CHANNEL_2])],
    oauth2_tokens: [
      { access_token: 'alice-bearer', user_id: ALICE, application_id: APP_A, scopes: ['identify'] },
      {
        access_token: 'a-client-credentials',
        user_id: null,
        application_id: APP_A,
        scopes: ['applications.commands.update'],
      },
    ],
  };
}

export function definition(name: string, type: 1 | 2 | 3 = 1): CommandDefinition {
  return {
    type,
    name,
    name_localizations: null,
    description: type === 1 ? `does ${name}` : '',
    description_localizations: null,
    options: [],
    default_member_permissions: null,
    dm_permission: true,
    default_permission: true,
    nsfw: false,
    integration_types: null,
    contexts: null,
    handler: null,
  };
}

export function command(applicationId: string, guildId: string | null, id: string, name: string): StoredCommand {
  return { id, application_id: applicationId, guild_id: guildId, version: id, definition: definition(name) };
}

/** A mutation that writes only what is given. */
export function mutation(parts: Partial<CommandMutation>): CommandMutation {
  return { insert: [], update: [], delete: [], dropPermissionsOf: [], countedCreates: 0, ...parts };
}

export function interaction(
  applicationId: string,
  id: string,
  userId: string = ALICE,
  state: InteractionState = 'pending',
): InteractionRecord {
  return {
    id,
    application_id: applicationId,
    type: 2,
    token: `token-of-${id}`,
    user_id: userId,
    guild_id: GUILD_1,
    channel_id: CHANNEL_1,
    command_id: '1500000000000000001',
    command_name: 'ping',
    command_type: 1,
    nonce: null,
    state,
    failure_reason: null,
    response: null,
    created_at: 1,
    original_message_id: null,
    focused_option: null,
    activity_instance_id: null,
    payload: { id },
  };
}

export function message(
  channelId: string,
  id: string,
  content: string,
  ephemeralFor: string | null = null,
): StoredMessage {
  return {
    id,
    channel_id: channelId,
    guild_id: GUILD_1,
    author: { kind: 'app', id: APP_A },
    content,
    embeds: [],
    components: [],
    flags: 0,
    timestamp: '2026-01-15T12:00:00.000Z',
    edited_timestamp: null,
    ephemeral_for_user_id: ephemeralFor,
    application_id: APP_A,
  };
}

export function activityInstance(applicationId: string, id: string): ActivityInstance {
  return {
    id,
    application_id: applicationId,
    channel_id: CHANNEL_1,
    guild_id: GUILD_1,
    user_id: ALICE,
    interaction_id: `1600000000000000${id.slice(-3)}`,
    created_at: 1,
  };
}
