import { ChannelType } from 'discord-api-types/v10';
/**
 * The world slashd serves commands in (docs/world.md): applications, users, guilds
 * and pre-issued OAuth2 tokens. These are the normalized shapes the core works with.
 */

export interface Application {
  id: string;
  name: string;
  owner_id: string;
  bot_token: string;
  client_secret: string;
  public_client: boolean;
  redirect_uris: string[];
  /** Application flags bit set; EMBEDDED = 1 << 17. */
  flags: number;
  /** Installation contexts the app supports: GUILD_INSTALL 0, USER_INSTALL 1. */
  integration_types: number[];
  discoverable: boolean;
  interactions_endpoint_url: string | null;
  /**
   * What the bot set of itself with `PATCH /users/@me` (the users resource's table, joined by the
   * world store's reads): never part of a world file; absent while the bot has set nothing.
   */
  bot_profile?: BotProfile;
  /**
   * The SKUs the world file defines for the app (docs/world.md#skus), put into the monetization
   * sandbox each time the application is written; absent: the world says nothing of its SKUs.
   */
  skus?: WorldSku[];
}

/** A SKU of a world file's application: v10's SKU object without its application id. */
export interface WorldSku {
  id: string;
  /** v10's SKU type: 2 durable, 3 consumable, 5 subscription, 6 subscription group. */
  type: number;
  name: string;
  slug: string;
  flags: number;
}

/** A bot user's own name and images, as `PATCH /users/@me` left them. */
export interface BotProfile {
  /** Null: the bot is named as its application. */
  readonly username: string | null;
  /** Image hashes (served at `/avatars/{id}/{hash}` and `/banners/{id}/{hash}`), or null for none. */
  readonly avatar: string | null;
  readonly banner: string | null;
}

export interface User {
  id: string;
  username: string;
  token: string;
  /** The user's settings locale: the last step of locale resolution. */
  locale: string;
  age_verified: boolean;
}

export interface Role {
  id: string;
  name: string;
  /** Decimal bit-set string. */
  permissions: string;
  // The fields below are present only when set, so that worlds without them keep their exact shape.
  /** RGB color as an integer; absent: 0 (no color). */
  color?: number;
  /** Shown apart in the member list; absent: false. */
  hoist?: boolean;
  /** Anyone may mention it; absent: false. */
  mentionable?: boolean;
  /**
   * The application whose bot this role is (v10's managed bot role, `tags.bot_id`): where it stands
   * is where the bot stands in the hierarchy, and its permissions are the bot's (docs/decisions.md,
   * "Roles and channels").
   */
  bot_id?: string;
}

/** v10 permission overwrite: type 0 role, 1 member. */
export interface PermissionOverwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export interface Channel {
  id: string;
  /** v10 channel type (0 text, 2 voice, 4 category, 5 announcement, 10/11/12 threads, 13 stage, 15 forum). */
  type: number;
  name: string;
  nsfw: boolean;
  parent_id: string | null;
  permission_overwrites: PermissionOverwrite[];
  /**
   * A thread's members (user ids; an app's bot by its application id). Only a private thread
   * (type 12) reads it: there, only its members and those with MANAGE_THREADS see it. Absent: none.
   */
  thread_member_ids?: string[];
  /** The channel's topic (text, announcement, forum); absent: none. */
  topic?: string;
  /** Slowmode, in seconds; absent: 0. */
  rate_limit_per_user?: number;
  /**
   * A thread created through the API (kept as a row of its own, not in the guild's document): its
   * owner and state. Absent for a world-file thread (docs/decisions.md, "Threads").
   */
  thread?: ThreadState;
}

/** What v10's `thread_metadata` and thread fields say of a thread created through the API. */
export interface ThreadState {
  owner_id: string;
  archived: boolean;
  locked: boolean;
  /** Minutes: 60, 1440, 4320 or 10080. */
  auto_archive_duration: number;
  /** ISO 8601: when `archived` last changed (or the creation). */
  archive_timestamp: string;
  create_timestamp: string;
  /** Private threads: whether non-moderators may add others. */
  invitable: boolean;
  rate_limit_per_user: number;
}

export interface Member {
  user_id: string;
  roles: string[];
  nick: string | null;
  joined_at: string;
  /** The end of the member's timeout (ISO 8601); absent or null: not timed out. */
  communication_disabled_until?: string | null;
  /** Server-muted and server-deafened in voice (v10's flags; slashd has no voice). Absent: false. */
  mute?: boolean;
  deaf?: boolean;
}

export interface Install {
  application_id: string;
  scopes: string[];
  /** The bot's role bit set, as a decimal string; null when the install has no bot permissions. */
  permissions: string | null;
  /** The bot's nickname in the guild (its member is the install's); absent or null: none. */
  nick?: string | null;
}

export interface Message {
  id: string;
  channel_id: string;
  author_id: string;
  content: string;
}

/** A guild's custom emoji (v10's emoji object, less what slashd has no use for: creator, managed). */
export interface Emoji {
  id: string;
  /** 2-32 letters, digits and underscores, as v10 allows. */
  name: string;
  animated: boolean;
  /** The roles allowed to use it; empty: everyone. */
  roles: string[];
  /** False once the guild lost the boosts it needed: it cannot be used. */
  available: boolean;
  /** Who uploaded it (a bot by its application id); absent for the world file's. */
  user_id?: string;
}

/** A guild's custom sticker (v10's sticker object of type GUILD; its file is the expressions store's). */
export interface Sticker {
  id: string;
  /** 2-30 characters. */
  name: string;
  /** Empty, or 2-100 characters; null: none. */
  description: string | null;
  /** The autocomplete/suggestion tags, as sent (up to 200 characters). */
  tags: string;
  /** v10's sticker format (1 PNG, 2 APNG, 3 LOTTIE, 4 GIF). */
  format_type: number;
  available: boolean;
  /** Who uploaded it (a bot by its application id). */
  user_id?: string;
}

export interface Guild {
  id: string;
  name: string;
  owner_id: string;
  preferred_locale: string;
  roles: Role[];
  channels: Channel[];
  members: Member[];
  installs: Install[];
  messages: Message[];
  /** Its custom emojis; absent: none (a guild stored before emojis existed reads the same). */
  emojis?: Emoji[];
  /** Its custom stickers (made through the API); absent: none. */
  stickers?: Sticker[];
  /** The settings the API changed (`PATCH /guilds/{id}`); absent: v10's defaults (core/world/guild-settings.ts). */
  settings?: GuildSettings;
}

/**
 * A guild's settings as `PATCH /guilds/{id}` changes them, kept in its document: each field
 * absent until set, its v10 default read in its place.
 */
export interface GuildSettings {
  /** The icon's hash (of the data URI's image); null: none. */
  icon?: string | null;
  description?: string | null;
  system_channel_id?: string | null;
  system_channel_flags?: number;
  rules_channel_id?: string | null;
  public_updates_channel_id?: string | null;
  safety_alerts_channel_id?: string | null;
  afk_channel_id?: string | null;
  afk_timeout?: number;
  verification_level?: number;
  default_message_notifications?: number;
  explicit_content_filter?: number;
  /** The features a bot may toggle that are on (INVITES_DISABLED...). */
  features?: string[];
  premium_progress_bar_enabled?: boolean;
}

export interface OAuth2Token {
  access_token: string;
  /** Absent for a client-credentials token: the app's owner acts. */
  user_id: string | null;
  application_id: string;
  scopes: string[];
}

/**
 * A group DM (v10 channel type 3, GROUP_DM) among users: no guild, no roles, no overwrites; its
 * recipients see it and talk there. No bot is ever a recipient: apps reach it only through a
 * recipient's own install of them (context PRIVATE_CHANNEL), answering by the interaction webhook.
 */
export interface GroupDm {
  id: string;
  /** Its name; null: none (the client shows the recipients' names). */
  name: string | null;
  /** The recipient who made it; null: none named. */
  owner_id: string | null;
  /** The users in it (user ids), the owner among them. */
  recipients: string[];
}

export interface World {
  applications: Application[];
  users: User[];
  guilds: Guild[];
  oauth2_tokens: OAuth2Token[];
  /** Group DMs (docs/world.md); absent: none, so a world without them keeps its exact shape. */
  group_dms?: GroupDm[];
}

/** v10 channel type of a private thread: seen only by its members (and MANAGE_THREADS). */
export const PRIVATE_THREAD_TYPE = ChannelType.PrivateThread;

/** The channel types that are threads: a thread takes its parent's overwrites. */
export const THREAD_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
]);
