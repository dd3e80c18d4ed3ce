/**
 * What the HTTP adapter is built from, wired once in src/app.ts. `buildServer` hands each route
 * plugin only the services it calls (its own options object); no route reaches the store. Only
 * the authentication hook reads it, through the token lookups of `PrincipalStore`.
 */
import type { AttachmentsService } from '../services/attachments-service.js';
import type { ApplicationService } from '../services/application-service.js';
import type { BansService } from '../services/bans-service.js';
import type { AuditLog } from '../services/audit-log.js';
import type { GuildChannelsService } from '../services/guild-channels-service.js';
import type { RolesService } from '../services/roles-service.js';
import type { ThreadsService } from '../services/threads-service.js';
import type { DmChannelsService } from '../services/dm-channels-service.js';
import type { ThreadMembersService } from '../services/thread-members-service.js';
import type { ThreadListsService } from '../services/thread-lists-service.js';
import type { MembersService } from '../services/members-service.js';
import type { ChannelMessagesService } from '../services/channel-messages-service.js';
import type { PinsService } from '../services/pins-service.js';
import type { ReactionsService } from '../services/reactions-service.js';
import type { MessageModerationService } from '../services/message-moderation-service.js';
import type { ChannelsService } from '../services/channels-service.js';
import type { CommandsService } from '../services/commands-service.js';
import type { ConsoleService } from '../services/console-service.js';
import type { GuildsService } from '../services/guilds-service.js';
import type { InteractionsService } from '../services/interactions-service.js';
import type { InteractionReads } from '../services/interaction-reads.js';
import type { MessageRenderer } from '../services/message-renderer.js';
import type { OAuth2Service } from '../services/oauth2-service.js';
import type { ConsentSessions } from '../services/consent-sessions.js';
import type { OidcService } from '../services/oidc-service.js';
import type { PermissionsService } from '../services/permissions-service.js';
import type { CallbacksService } from '../services/callbacks-service.js';
import type { WebhookMessagesService } from '../services/webhook-messages-service.js';
import type { FaultsService } from '../services/faults-service.js';
import type { WorldService } from '../services/world-service.js';
import type { PrincipalStore } from '../services/principal-lookup.js';
import type { GatewayPresence } from '../core/gateway/presence.js';
import type { GatewayDiscovery } from './routes/gateway.js';
import type { ReadinessChecks } from './routes/home.js';
import type { SnapshotService } from '../services/snapshot-service.js';

export interface HttpServices {
  /** Token lookups of the authentication hook. */
  principals: PrincipalStore;
  commands: CommandsService;
  permissions: PermissionsService;
  channels: ChannelsService;
  interactions: InteractionsService;
  /** An interaction's state for its invoker, its transcript for the admin. */
  interactionReads: InteractionReads;
  /** The first answer to an interaction (the callback endpoint). */
  callbacks: CallbacksService;
  /** Follow-ups and `@original` through the interaction webhook. */
  webhookMessages: WebhookMessagesService;
  renderer: MessageRenderer;
  applications: ApplicationService;
  oauth2: OAuth2Service;
  /** OpenID Connect: discovery, JWKS, ID tokens. */
  oidc: OidcService;
  /** Who is signed in on the consent page. */
  consentSessions: ConsentSessions;
  /** The admin API's world, and the installed-guild lookup of `requireAppInGuild`. */
  world: WorldService;
  /** Guilds, members and users as their readers see them. */
  guilds: GuildsService;
  /** Guild bans; absent: the ban routes are not served. */
  bans?: BansService;
  /** Threads, their members and their lists (absent in tests that build the HTTP layer without them). */
  threads?: { threads: ThreadsService; members: ThreadMembersService; lists: ThreadListsService };
  /** DM channels between bots and users (absent: `POST /users/@me/channels` is not served). */
  dms?: DmChannelsService;
  /** Guilds' audit logs; absent: the audit log route is not served. */
  auditLog?: AuditLog;
  /** Guild roles written by bots; absent: only the role reads are served. */
  roles?: RolesService;
  /** Guild channels and their overwrites written by bots; absent: not served. */
  guildChannels?: GuildChannelsService;
  /** Guild members' edits, kicks and search by bots; absent: those routes are not served. */
  members?: MembersService;
  /** A bot's own channel messages (POST/PATCH/DELETE /channels/{id}/messages). */
  channelMessages: ChannelMessagesService;
  /** Message files: served by `routes/attachments.ts` (absent: no file is served). */
  attachments?: AttachmentsService;
  /** A channel's pins (PUT/DELETE/GET /channels/{id}/messages/pins, and the older /pins). */
  pins: PinsService;
  /** Reactions on a channel's messages (…/messages/{id}/reactions…). */
  reactions: ReactionsService;
  messageModeration: MessageModerationService;
  /** Gateway discovery (`/gateway`, `/gateway/bot`), and whose bots are connected (`/admin/delivery`). */
  gateway: GatewayDiscovery & GatewayPresence;
  /** The web console's own reads (sandbox sign-in, members, live streams). */
  console: ConsoleService;
  /** Secret of the /admin API; compared in constant time. */
  adminToken: string;
  /** The admin API's snapshots and reset (tests). */
  snapshots: SnapshotService;
  /** Readiness (`/readyz`): the store answers, and Redis with many nodes. */
  ready: ReadinessChecks;
  /** Injected faults (`/admin/faults`); the admin routes are absent without it. */
  faults?: FaultsService | undefined;
}
