/**
 * Users and applications as v10 returns them to client libraries logging in. Every field v10
 * returns is present; slashd has no value for a user's avatar, banner and the like, so those are
 * null (a bot's are what it set with `PATCH /users/@me`).
 */
import {
  OAuth2Scopes,
  type APIApplication,
  type APIUser,
  type ApplicationFlags,
  type UserFlags,
} from 'discord-api-types/v10';
import { nullRecordFrom } from '../records.js';
import type { WirePayload } from '../wire-payload.js';
import type { Application, User } from './types.js';

/** v10 sends 0 for a user without flags; discord-api-types' `UserFlags` names no 0 member. */
const NO_USER_FLAGS = 0 as UserFlags;

/**
 * The application object as v10 sends it to its owner: discord-api-types' `APIApplication` lacks
 * `type`, `max_participants`, `explicit_content_filter` and `eligible_oauth2_scopes`, which v10
 * sends (client libraries read them), requires the deprecated `summary`, which v10 no longer
 * sends and slashd leaves out, and wants at least one tag where v10 sends `[]` for an app with none.
 */
export interface WireApplication extends Omit<APIApplication, 'summary' | 'tags'> {
  tags: string[];
  type: null;
  max_participants: null;
  explicit_content_filter: number;
  eligible_oauth2_scopes: string[];
}

/** The bot user's name: what it set with `PATCH /users/@me`, else its application's name. */
export function botUsername(app: Application): string {
  return app.bot_profile?.username ?? app.name;
}

function baseUser(id: string, username: string): WirePayload<APIUser> {
  return {
    id,
    username,
    avatar: null,
    discriminator: '0',
    public_flags: NO_USER_FLAGS,
    flags: NO_USER_FLAGS,
    banner: null,
    accent_color: null,
    global_name: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  } satisfies APIUser;
}

/** A user as others see it (e.g. the owner inside an application object). */
export function toWirePublicUser(user: User): WirePayload<APIUser> {
  return baseUser(user.id, user.username);
}

/** The current user of `GET /users/@me` for a user or a bearer token. */
export function toWireCurrentUser(user: User): WirePayload<APIUser> {
  return {
    ...baseUser(user.id, user.username),
    mfa_enabled: false,
    locale: user.locale,
    premium_type: 0,
    email: null,
    verified: true,
  } satisfies APIUser;
}

/** The bot's user object as everyone sees it: its own name and images (`PATCH /users/@me`). */
function baseBot(app: Application): WirePayload<APIUser> {
  return {
    ...baseUser(app.id, botUsername(app)),
    avatar: app.bot_profile?.avatar ?? null,
    banner: app.bot_profile?.banner ?? null,
    bot: true,
  } satisfies APIUser;
}

/** The app's bot user: same id as the application (world contract). */
export function toWireBotUser(app: Application): WirePayload<APIUser> {
  return {
    ...baseBot(app),
    mfa_enabled: false,
    locale: 'en-US',
    premium_type: 0,
    email: null,
    verified: true,
  } satisfies APIUser;
}

/**
 * The full application object of `GET /applications/@me`. Fields v10 marks nullable are null when
 * slashd has no value; optional fields that v10 never sends as null (cover image, slug, terms of
 * service, ...) are left out, as v10 does for an app that has not set them.
 */
export function toWireApplication(
  app: Application,
  verifyKey: string,
  owner: User | null,
): WirePayload<WireApplication> {
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: '',
    type: null,
    bot: toWirePublicBot(app),
    rpc_origins: [],
    bot_public: true,
    bot_require_code_grant: false,
    install_params: { scopes: [OAuth2Scopes.ApplicationsCommands, OAuth2Scopes.Bot], permissions: '0' },
    integration_types_config: nullRecordFrom(
      app.integration_types.map((t) => [
        String(t),
        { oauth2_install_params: { scopes: [OAuth2Scopes.ApplicationsCommands], permissions: '0' } },
      ]),
    ),
    verify_key: verifyKey,
    flags: app.flags as ApplicationFlags,
    flags_new: String(app.flags),
    max_participants: null,
    tags: [],
    redirect_uris: app.redirect_uris,
    interactions_endpoint_url: app.interactions_endpoint_url,
    role_connections_verification_url: null,
    owner: owner ? toWirePublicUser(owner) : baseUser(app.owner_id, 'unknown'),
    approximate_guild_count: 0,
    approximate_user_install_count: 0,
    approximate_user_authorization_count: 0,
    event_webhooks_url: null,
    event_webhooks_status: 1,
    event_webhooks_types: [],
    explicit_content_filter: 0,
    team: null,
    eligible_oauth2_scopes: [],
  } satisfies WireApplication;
}

/** The bot user as others see it (a message author, a guild member). */
export function toWirePublicBot(app: Application): WirePayload<APIUser> {
  return baseBot(app);
}
