/**
 * The reference example of the world contract, and the base of the demo world that `npm start`
 * serves (SERVED_DEMO_WORLD, below).
 */
import { PermissionFlagsBits } from 'discord-api-types/v10';

export const DEMO_WORLD = {
  applications: [
    {
      id: '1324165260902400001',
      name: 'Demo Bot',
      owner_id: '1335036896870400001',
      bot_token: 'demo-bot-token-please-change',
      client_secret: 'demo-client-secret',
      public_client: false,
      redirect_uris: ['http://127.0.0.1/callback'],
      // GATEWAY_PRESENCE_LIMITED (1 << 13) | GATEWAY_GUILD_MEMBERS_LIMITED (1 << 15) |
      // GATEWAY_MESSAGE_CONTENT_LIMITED (1 << 19): a bot asking for the privileged intents (most
      // real bots ask for GuildMembers or MessageContent) logs in, as an app under 100 guilds
      // with them switched on does on v10.
      flags: 565248,
      integration_types: [0, 1],
      discoverable: false,
      interactions_endpoint_url: null,
    },
    {
      id: '1324165260902400002',
      name: 'Other App',
      owner_id: '1335036896870400005',
      bot_token: 'other-bot-token',
      client_secret: 'other-client-secret',
      // No privileged intent: asking for one closes the gateway with 4014, as on v10.
      flags: 0,
      integration_types: [0],
      discoverable: true,
      interactions_endpoint_url: null,
    },
    {
      id: '1324165260902400003',
      name: 'Activity App',
      owner_id: '1335036896870400001',
      bot_token: 'activity-bot-token',
      client_secret: 'activity-client-secret',
      // EMBEDDED (1 << 17, it has an Activity) and the three privileged intents, as Demo Bot.
      flags: 696320,
      integration_types: [0, 1],
      discoverable: false,
      interactions_endpoint_url: null,
    },
  ],
  users: [
    { id: '1335036896870400001', username: 'alice', token: 'alice-user-token', locale: 'en-US', age_verified: true },
    { id: '1335036896870400002', username: 'bob', token: 'bob-user-token', locale: 'fr', age_verified: true },
    { id: '1335036896870400003', username: 'carol', token: 'carol-user-token', locale: 'es-419', age_verified: true },
    { id: '1335036896870400004', username: 'dave', token: 'dave-user-token', locale: 'en-GB', age_verified: false },
    { id: '1335036896870400005', username: 'erin', token: 'erin-user-token', locale: 'de', age_verified: true },
  ],
  guilds: [
    {
      id: '1345183757107200001',
      name: 'Test Guild',
      owner_id: '1335036896870400001',
      preferred_locale: 'en-US',
      roles: [
        { id: '1345183757107200001', name: '@everyone', permissions: '2147552256' },
        { id: '1345183757107200002', name: 'Admin', permissions: '8' },
        { id: '1345183757107200003', name: 'Moderator', permissions: '268435490' },
        { id: '1345183757107200004', name: 'Muted', permissions: '0' },
      ],
      channels: [
        { id: '1345183757107200010', type: 4, name: 'Text' },
        { id: '1345183757107200011', type: 0, name: 'general', parent_id: '1345183757107200010' },
        { id: '1345183757107200012', type: 0, name: 'nsfw-lounge', nsfw: true, parent_id: '1345183757107200010' },
        {
          id: '1345183757107200013',
          type: 0,
          name: 'announcements',
          parent_id: '1345183757107200010',
          permission_overwrites: [{ id: '1345183757107200001', type: 0, allow: '0', deny: '2048' }],
        },
        { id: '1345183757107200014', type: 11, name: 'a-thread', parent_id: '1345183757107200011' },
      ],
      members: [
        {
          user_id: '1335036896870400001',
          roles: ['1345183757107200002'],
          nick: null,
          joined_at: '2025-03-01T00:00:00.000Z',
        },
        {
          user_id: '1335036896870400002',
          roles: ['1345183757107200003'],
          nick: 'Bobby',
          joined_at: '2025-03-02T00:00:00.000Z',
        },
        { user_id: '1335036896870400003', roles: [], nick: null, joined_at: '2025-03-03T00:00:00.000Z' },
        {
          user_id: '1335036896870400004',
          roles: ['1345183757107200004'],
          nick: null,
          joined_at: '2025-03-04T00:00:00.000Z',
        },
      ],
      installs: [
        { application_id: '1324165260902400001', scopes: ['bot', 'applications.commands'], permissions: '2147552256' },
        { application_id: '1324165260902400003', scopes: ['applications.commands'] },
      ],
      messages: [
        {
          id: '1345183757107200100',
          channel_id: '1345183757107200011',
          author_id: '1335036896870400003',
          content: 'hello world',
        },
      ],
    },
    {
      id: '1345183757107201001',
      name: 'Second Guild',
      owner_id: '1335036896870400005',
      preferred_locale: 'de',
      roles: [{ id: '1345183757107201001', name: '@everyone', permissions: '2147552256' }],
      channels: [{ id: '1345183757107201011', type: 0, name: 'allgemein' }],
      members: [{ user_id: '1335036896870400005', roles: [], joined_at: '2025-03-05T00:00:00.000Z' }],
      installs: [{ application_id: '1324165260902400002', scopes: ['bot', 'applications.commands'] }],
    },
  ],
  oauth2_tokens: [
    {
      access_token: 'alice-perm-token',
      user_id: '1335036896870400001',
      application_id: '1324165260902400001',
      scopes: ['identify', 'applications.commands.permissions.update'],
    },
    {
      access_token: 'bob-perm-token',
      user_id: '1335036896870400002',
      application_id: '1324165260902400001',
      scopes: ['identify', 'applications.commands.permissions.update'],
    },
    {
      access_token: 'carol-perm-token',
      user_id: '1335036896870400003',
      application_id: '1324165260902400001',
      scopes: ['identify', 'applications.commands.permissions.update'],
    },
    {
      access_token: 'bob-identify-token',
      user_id: '1335036896870400002',
      application_id: '1324165260902400001',
      scopes: ['identify'],
    },
    { access_token: 'demo-cc-token', application_id: '1324165260902400001', scopes: ['applications.commands.update'] },
  ],
} as const;

/**
 * What Demo Bot's install grants in the served demo world: what a real install of a bot that
 * posts, reacts, uploads, pins and opens threads asks for, so the README's steps are not refused.
 */
export const DEMO_BOT_PERMISSIONS = String(
  PermissionFlagsBits.ViewChannel |
    PermissionFlagsBits.SendMessages |
    PermissionFlagsBits.ReadMessageHistory |
    PermissionFlagsBits.UseApplicationCommands |
    PermissionFlagsBits.AddReactions |
    PermissionFlagsBits.AttachFiles |
    PermissionFlagsBits.EmbedLinks |
    PermissionFlagsBits.UseExternalEmojis |
    PermissionFlagsBits.ManageMessages |
    PermissionFlagsBits.PinMessages |
    PermissionFlagsBits.CreatePublicThreads |
    PermissionFlagsBits.SendMessagesInThreads,
);

/** Demo Bot's managed role in the test guild (an id the example world leaves free). */
export const DEMO_BOT_ROLE_ID = '1345183757107200009';

const DEMO_APP_ID = DEMO_WORLD.applications[0].id;
const [TEST_GUILD] = DEMO_WORLD.guilds;

/**
 * What Demo Bot sells in the served demo world (docs/world.md#skus): one of each kind a bot
 * checks for, so the console's Store and premium buttons have something to buy. Types are v10's
 * SKUType: 2 durable, 3 consumable, 5 subscription.
 */
export const DEMO_SKUS = [
  { id: '1324165260902410001', type: 2, name: 'Forecast Pro' },
  { id: '1324165260902410002', type: 3, name: '10 weather alerts' },
  { id: '1324165260902410003', type: 5, name: 'Weather Club' },
];

/**
 * The world `npm start` (`slashd serve --demo`) serves: the contract's example, with Demo Bot
 * installed as a real bot is and selling its SKUs. The example itself stays as the contract has it, because tests
 * read the refusals of its narrower install.
 */
export const SERVED_DEMO_WORLD = {
  ...DEMO_WORLD,
  applications: DEMO_WORLD.applications.map((app) => (app.id === DEMO_APP_ID ? { ...app, skus: DEMO_SKUS } : app)),
  guilds: [
    {
      ...TEST_GUILD,
      // Where an owner drags a new bot's role: under their own admin role, above the staff and
      // member roles, so the bot's place in the hierarchy lets it act on those members.
      roles: [
        ...TEST_GUILD.roles.slice(0, 2),
        { id: DEMO_BOT_ROLE_ID, name: 'Demo Bot', permissions: DEMO_BOT_PERMISSIONS, bot_id: DEMO_APP_ID },
        ...TEST_GUILD.roles.slice(2),
      ],
      installs: TEST_GUILD.installs.map((install) =>
        install.application_id === DEMO_APP_ID ? { ...install, permissions: DEMO_BOT_PERMISSIONS } : install,
      ),
    },
    ...DEMO_WORLD.guilds.slice(1),
  ],
};
