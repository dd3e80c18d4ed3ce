/**
 * How the domain's objects are laid out in rows, shared by every store implementation (SQLite,
 * PostgreSQL): the same columns, keys and JSON documents, so only the SQL dialect differs.
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import type { CommandScope, StoredCommand } from '../core/commands/model.js';
import type { CommandPermission, GuildCommandPermissions } from '../core/permissions/command-permissions.js';
import { deepFreeze } from '../core/frozen-memo.js';
import type { StoredMessage } from '../resources/messages/rules/messages.js';
import type { InteractionRecord } from '../resources/interactions/rules/lifecycle.js';

const MODAL_CALLBACK_TYPE = InteractionResponseType.Modal;
import type { Application, Guild, Member, World } from '../core/world/types.js';
import type { IssuedToken, StoredApplication, WorldStore } from './store.js';
import { sameDigest, sameSecret, tokenDigest } from './tokens.js';

/** The `access_token` an issued token's stored document holds instead of the token (only its digest is kept). */
export const HASHED_TOKEN = '';

/** An issued token as its row's document stores it: the digest instead of the token. */
export function tokenDocument(token: IssuedToken): string {
  if (token.expires_at === null) return JSON.stringify(token);
  return JSON.stringify({ ...token, access_token: HASHED_TOKEN, token_digest: tokenDigest(token.access_token) });
}

/** The guild key of global commands (a column in the primary key cannot be NULL). */
export const GLOBAL_SCOPE_KEY = '';

export function scopeKey(scope: CommandScope): string {
  return scope.guildId ?? GLOBAL_SCOPE_KEY;
}

/** The UTC day a create counts toward. */
export function utcDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

export interface CommandRow {
  application_id: string;
  guild_key: string;
  id: string;
  version: string;
  definition: string;
}

export function rowToCommand(row: CommandRow): StoredCommand {
  return {
    id: row.id,
    application_id: row.application_id,
    guild_id: row.guild_key === GLOBAL_SCOPE_KEY ? null : row.guild_key,
    version: row.version,
    definition: storedDocument<StoredCommand['definition']>(row.definition),
  };
}

/** One `command_permissions` row: the overwrites of one target (a command, or the app) in one guild. */
export function rowToPermissions(
  applicationId: string,
  guildId: string,
  targetId: string,
  permissions: string,
): GuildCommandPermissions {
  return {
    id: targetId,
    application_id: applicationId,
    guild_id: guildId,
    permissions: storedDocument<CommandPermission[]>(permissions),
  };
}

/**
 * The token an `oauth2_tokens` row holds, if it is the one presented (compared in constant time:
 * the row was found by digest) and has not expired.
 */
export function rowToLiveToken(doc: string, accessToken: string, nowMs: number): IssuedToken | null {
  const { token_digest: digest, ...stored } = storedDocument<IssuedToken & { token_digest?: string }>(doc);
  // An issued token's row holds only its digest: the lookup by digest found it, and the digest is
  // compared again here in constant time; a pre-issued token keeps its text for the world export.
  const presented =
    stored.access_token === HASHED_TOKEN
      ? sameDigest(digest ?? '', tokenDigest(accessToken))
      : sameSecret(stored.access_token, accessToken);
  if (!presented) return null;
  if (stored.expires_at !== null && stored.expires_at <= nowMs) return null;
  return { ...stored, access_token: accessToken };
}

/** A token as listed: an issued token without its text (only its digest is stored, and that is not listed). */
export function rowToListedToken(doc: string): IssuedToken {
  const { token_digest: _digest, ...token } = storedDocument<IssuedToken & { token_digest?: string }>(doc);
  return token;
}

export interface ApplicationRow {
  doc: string;
  verify_key: string;
  private_key_pem: string;
  /** The bot's profile (`bot_profiles`, joined): null where the bot has set nothing. */
  bot_username: string | null;
  bot_avatar: string | null;
  bot_banner: string | null;
  bot_profile_set: number | boolean | null;
}

/**
 * What an application read selects, from `APPLICATIONS_WITH_PROFILES`: the row and its bot's profile
 * (users resource, `PATCH /users/@me`), which world writes never touch.
 */
export const APPLICATION_COLUMNS = `applications.doc, applications.verify_key, applications.private_key_pem,
  bot_profiles.username AS bot_username, bot_profiles.avatar AS bot_avatar, bot_profiles.banner AS bot_banner,
  bot_profiles.application_id IS NOT NULL AS bot_profile_set`;
export const APPLICATIONS_WITH_PROFILES =
  'applications LEFT JOIN bot_profiles ON bot_profiles.application_id = applications.id';

export function rowToApplication(row: ApplicationRow): StoredApplication {
  // A document written back from a read may carry the profile it was read with: the table's wins.
  const { bot_profile: _written, ...app } = storedDocument<Application>(row.doc);
  const keys = { verifyKey: row.verify_key, privateKeyPem: row.private_key_pem };
  if (!row.bot_profile_set) return { ...app, keys };
  const bot_profile = { username: row.bot_username, avatar: row.bot_avatar, banner: row.bot_banner };
  return { ...app, bot_profile, keys };
}

/**
 * World documents are frozen like every cached read, but keep their mutable types: no result is
 * memoized by their identity, and the core builds and edits worlds (parse, admin) in these types.
 */
export const freezeDocument = <T>(value: T): T => deepFreeze(value) as T;

/**
 * A JSON column read back as the value the store wrote there, typed by its column. The one place
 * a store parses JSON: a stored document is the store's own writing of a value the edge already
 * checked, so it is trusted as written (the checking reader, src/core/io/json-text.ts, is for text
 * from outside).
 */
export function storedDocument<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A stored world document (a user, a guild), frozen like every cached read (`freezeDocument`). */
export function frozenDocument<T>(text: string): T {
  return freezeDocument(storedDocument<T>(text));
}

/** Tables whose rows belong to an application and go with it. */
export const APPLICATION_OWNED_TABLES = [
  'commands',
  'command_creates',
  'command_permissions',
  'oauth2_tokens',
  'oauth2_codes',
  'oauth2_refresh_tokens',
  'oauth2_authorizations',
  'interactions',
  'interaction_transcripts',
  'activity_instances',
  'dm_channels',
  'bot_profiles',
  'application_emojis',
] as const;

/** The same in SQLite, which also stores list answers (`commands/migrations/2026-12-07-command-list-answers.ts`). */
export const SQLITE_APPLICATION_OWNED_TABLES = [...APPLICATION_OWNED_TABLES, 'command_list_answers'] as const;

/** The values of a `messages` row, in column order: channel_id, id, application_id, interaction_id, visible_to, doc. */
export function messageRowValues(message: StoredMessage): (string | null)[] {
  return [
    message.channel_id,
    message.id,
    message.application_id ?? null,
    message.interaction_metadata?.id ?? null,
    message.ephemeral_for_user_id,
    JSON.stringify(message),
  ];
}

/** The world file of a store: its applications without keys, and only the pre-issued tokens. */
export async function exportWorldOf(
  store: Pick<WorldStore, 'listApplications' | 'listUsers' | 'listGuilds' | 'listOAuth2Tokens'>,
): Promise<World> {
  const tokens = await store.listOAuth2Tokens();
  return {
    // The bot's profile is no world file's: it stays with the database (docs/decisions.md, "Bot users").
    applications: (await store.listApplications()).map(({ keys: _keys, bot_profile: _profile, ...app }) => app),
    users: await store.listUsers(),
    guilds: await store.listGuilds(),
    oauth2_tokens: tokens.filter((t) => t.expires_at === null).map(({ expires_at: _expires, ...token }) => token),
  };
}

/** Whether an interaction's modal may be claimed by a submission: it was answered with one, and no submission has it yet. */
export function modalClaimable(record: InteractionRecord): boolean {
  return record.response?.type === MODAL_CALLBACK_TYPE && !record.modal_submission_id;
}

/** The `store_meta` row's name for the digest of the world file last imported (`serve --world`). */
export const WORLD_FILE_DIGEST = 'world_file_digest';
/** The `store_meta` row's name for the digest of the seed world merged last (`serve --demo`); no write forgets it. */
export const SEED_WORLD_DIGEST = 'seed_world_digest';

/** A `store_meta` row written with a world change. */
export interface StoreMetaRecord {
  name: typeof WORLD_FILE_DIGEST | typeof SEED_WORLD_DIGEST;
  value: string;
}

/** A token hash no token has (not hex), unique per row: a token's place while tokens move. */
export const PARKED_TOKEN = "'parked:' || id";

export const COUNT_WORLD = `SELECT (SELECT COUNT(*) FROM applications) AS applications, (SELECT COUNT(*) FROM users) AS users,
  (SELECT COUNT(*) FROM guilds) AS guilds, (SELECT COUNT(*) FROM oauth2_tokens WHERE expires_at IS NULL) AS oauth2_tokens`;

/** A guild as its row's document stores it: without its members, which are rows of their own. */
export function guildDocument(guild: Guild): Guild {
  return { ...guild, members: [] };
}

/** The guild of a stored document with these members (the key keeps its place in the document). */
export function withMembers(document: Guild, members: Member[]): Guild {
  return { ...document, members };
}

/** The cache key of a guild read with the members of these user ids. */
export function memberCacheKey(guildId: string, userIds: readonly string[]): string {
  return `${guildId}/${userIds.join(',')}`;
}

/** The guild's document with the app's bot's nickname set in its install; null when the app is not installed. */
export function withBotNick(guild: Guild, applicationId: string, nick: string | null): Guild | null {
  if (!guild.installs.some((install) => install.application_id === applicationId)) return null;
  const installs = guild.installs.map((install) =>
    install.application_id === applicationId ? { ...install, nick } : install,
  );
  return { ...guild, installs };
}
