/**
 * What the HTTP adapter is built from, wired once in src/app.ts. `buildServer` hands each route
 * plugin only the services it calls (its own options object); no route reaches the store. Only
 * the authentication hook reads it, through the token lookups of `PrincipalStore`.
 */
import type { AttachmentsService } from '../resources/attachments/service.js';
import type { ApplicationService } from '../resources/applications/service.js';
import type { BansService } from '../resources/bans/service.js';
import type { AuditLog } from '../resources/audit-log/service.js';
import type { GuildChannelsService } from '../resources/channels/service.js';
import type { RolesService } from '../resources/roles/service.js';
import type { ThreadsService } from '../resources/threads/service.js';
import type { DmChannelsService } from '../resources/dms/service.js';
import type { ThreadMembersService } from '../resources/threads/members-service.js';
import type { ThreadListsService } from '../resources/threads/lists-service.js';
import type { MembersService } from '../resources/members/service.js';
import type { ChannelMessagesService } from '../resources/messages/service.js';
import type { PinsService } from '../resources/pins/service.js';
import type { ReactionsService } from '../resources/reactions/service.js';
import type { MessageModerationService } from '../resources/messages/moderation-service.js';
import type { ChannelsService } from '../resources/command-index/channel-reads.js';
import type { CommandsService } from '../resources/commands/service.js';
import type { ConsoleService } from '../resources/console/service.js';
import type { GuildsService } from '../resources/guilds/service.js';
import type { InteractionsService } from '../resources/interactions/service.js';
import type { InteractionReads } from '../resources/interactions/reads.js';
import type { MessageRenderer } from '../resources/messages/renderer.js';
import type { OAuth2Service } from '../resources/oauth2/service.js';
import type { ConsentSessions } from '../resources/oauth2/consent-sessions.js';
import type { OidcService } from '../resources/oauth2/oidc-service.js';
import type { PermissionsService } from '../resources/command-permissions/service.js';
import type { CallbacksService } from '../resources/interactions/callbacks-service.js';
import type { WebhookMessagesService } from '../resources/interactions/webhook-messages-service.js';
import type { FaultsService } from '../resources/faults/service.js';
import type { WorldService } from '../resources/world/service.js';
import type { PrincipalStore } from '../resources/applications/principal-lookup.js';
import type { GatewayPresence } from '../core/gateway/presence.js';
import type { GatewayDiscovery } from '../resources/gateway/routes.js';
import type { ReadinessChecks } from '../resources/home/routes.js';
import type { SnapshotService } from '../resources/snapshots/service.js';

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
