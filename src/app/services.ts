/**
 * The services of a node, each given at construction what it calls (stores, bus, logger, the
 * server's address), and what the HTTP adapter is built from.
 */
import type { GatewayPresence } from '../core/gateway/presence.js';
import type { SnowflakeGenerator } from '../core/snowflake.js';
import { HttpDelivery } from '../delivery/http-delivery.js';
import type { EventBus } from '../events/bus.js';
import type { FaultTable } from '../faults/fault-table.js';
import type { Gateway } from '../gateway/gateway.js';
import type { HttpServices } from '../http/context.js';
import type { ReadinessChecks } from '../resources/home/routes.js';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import { ApplicationService } from '../resources/applications/service.js';
import { AttachmentsService } from '../resources/attachments/service.js';
import { CallbacksService } from '../resources/interactions/callbacks-service.js';
import { ChannelMessagesService } from '../resources/messages/service.js';
import { PinsService } from '../resources/pins/service.js';
import { ReactionsService } from '../resources/reactions/service.js';
import { MessageModerationService } from '../resources/messages/moderation-service.js';
import { ChannelsService } from '../resources/command-index/channel-reads.js';
import { splitCacheBudget } from '../resources/command-index/cache.js';
import { CommandIndexService } from '../resources/command-index/service.js';
import { CommandsService } from '../resources/commands/service.js';
import { ConsentSessions } from '../resources/oauth2/consent-sessions.js';
import { ConsoleService } from '../resources/console/service.js';
import { EndpointService } from '../resources/applications/endpoint-service.js';
import { FaultsService } from '../resources/faults/service.js';
import { GuildsService } from '../resources/guilds/service.js';
import { BansService } from '../resources/bans/service.js';
import { AuditLog } from '../resources/audit-log/service.js';
import { GuildChannelsService } from '../resources/channels/service.js';
import { GuildStructureWrites } from '../resources/guild-structure/writes.js';
import { RolesService } from '../resources/roles/service.js';
import { ThreadsService } from '../resources/threads/service.js';
import { DmChannelsService } from '../resources/dms/service.js';
import { ThreadMembersService } from '../resources/threads/members-service.js';
import { ThreadListsService } from '../resources/threads/lists-service.js';
import { MembersService } from '../resources/members/service.js';
import { InteractionDelivery, type DeliveryLog } from '../resources/interactions/delivery.js';
import { InteractionReads } from '../resources/interactions/reads.js';
import { InteractionsService } from '../resources/interactions/service.js';
import { MessageRenderer } from '../resources/messages/renderer.js';
import { OAuth2Service } from '../resources/oauth2/service.js';
import { OidcService } from '../resources/oauth2/oidc-service.js';
import { PermissionsService } from '../resources/command-permissions/service.js';
import { SnapshotService } from '../resources/snapshots/service.js';
import { WebhookMessagesService } from '../resources/interactions/webhook-messages-service.js';
import { WorldEvents } from '../events/world-events.js';
import { WorldService } from '../resources/world/service.js';
import type { Store } from '../store/store.js';
import type { SlashdConfig } from './config.js';
import type { ServerAddress } from './server-address.js';

/** What the services are built from: the node's parts, made before them. */
export interface ServiceParts {
  config: Pick<SlashdConfig, 'endpointPolicy' | 'resolve' | 'dailyCommandCreates' | 'cacheBytes' | 'sandboxSignIn'>;
  store: Store;
  bus: EventBus;
  ids: SnowflakeGenerator;
  now: () => number;
  metrics: PrometheusMetrics;
  faults: FaultTable;
  gateway: Gateway;
  /** Which gateway session an interaction goes to (on any node, with Redis). */
  presence: GatewayPresence;
  /** Whether an app with neither endpoint nor session fails at once (the gateway's option). */
  failWithoutSession: boolean;
  /** Where deliveries outside a request log; null when logging is off. */
  log: DeliveryLog | null;
  /** The server's own URL, the OpenID Connect issuer. */
  address: ServerAddress;
  adminToken: string;
  ready: ReadinessChecks;
}

/** The services, and those of them the node itself starts, stops or reads. */
export interface Services {
  http: HttpServices;
  world: WorldService;
  snapshots: SnapshotService;
  /** Outbound HTTP to interactions endpoints (closed with the node). */
  httpDelivery: HttpDelivery;
  /** Its deadline timers stop with the node. */
  interactionDelivery: InteractionDelivery;
  /** Its live streams end when the node drains. */
  console: ConsoleService;
  /** Its cache is watched by the metrics. */
  commandIndex: CommandIndexService;
}

export function buildServices(parts: ServiceParts): Services {
  const { config, store, bus, ids, now, metrics } = parts;
  const commands = new CommandsService({
    store: store.commands,
    ids,
    now,
    ...(config.dailyCommandCreates === undefined
      ? {}
      : { dailyCreatesMax: config.dailyCommandCreates ?? Number.POSITIVE_INFINITY }),
  });
  const worldEvents = new WorldEvents(store.world, bus, store.interactions);
  const world = new WorldService(store.world, commands, worldEvents);
  const httpDelivery = new HttpDelivery(now, { policy: config.endpointPolicy, resolve: config.resolve });
  // Attachment URLs are on the server's own URL: the public URL, else the address it listens on.
  const origin = () => parts.address.url();
  const renderer = new MessageRenderer(store, origin);
  const attachments = new AttachmentsService({ store, world: store.world, ids, origin });
  const callbacks = new CallbacksService({ store, ids, now, renderer, events: worldEvents, metrics, attachments });
  const interactionDelivery = new InteractionDelivery({
    store,
    bus,
    http: httpDelivery,
    callbacks,
    now,
    presence: parts.presence,
    failWithoutSession: parts.failWithoutSession,
    metrics,
    faults: parts.faults,
    log: parts.log,
  });
  const interactions = new InteractionsService({
    store,
    ids,
    delivery: interactionDelivery,
    callbacks,
    now,
    metrics,
    renderer,
  });
  const endpoints = new EndpointService(store.world, httpDelivery, ids);
  const snapshots = new SnapshotService(store.snapshots, world, ids);
  const oidc = new OidcService(store.world, parts.address, now);
  const consoleService = new ConsoleService({ store: store.world, bus, sandboxSignIn: config.sandboxSignIn === true });
  const commandIndex = new CommandIndexService(store, { cacheBytes: splitCacheBudget(config.cacheBytes).index });
  // What a message's sender needs, in a guild channel and in a DM alike.
  const messaging = {
    world: store.world,
    messages: store.interactions,
    renderer,
    ids,
    now,
    events: worldEvents,
    attachments,
  };
  const dms = new DmChannelsService(messaging);
  const auditLog = new AuditLog({ store: store.auditLog, world: store.world, ids, events: worldEvents });
  const structureWrites = new GuildStructureWrites(store.world, worldEvents, auditLog);
  const http: HttpServices = {
    principals: store.world,
    commands,
    permissions: new PermissionsService(store.commands, bus),
    channels: new ChannelsService(store.world, commandIndex, renderer, dms),
    dms,
    interactions,
    interactionReads: new InteractionReads({ store, now }),
    callbacks,
    webhookMessages: new WebhookMessagesService({ store, ids, now, events: worldEvents, metrics, attachments }),
    renderer,
    applications: new ApplicationService(store.world, endpoints),
    oauth2: new OAuth2Service(store.world, now, oidc, world),
    oidc,
    consentSessions: new ConsentSessions(store.world, () => oidc.sharedSecret(), now, config.sandboxSignIn === true),
    world,
    guilds: new GuildsService(store.world, commandIndex),
    bans: new BansService(store.world, worldEvents, auditLog),
    auditLog,
    roles: new RolesService({ world: store.world, writes: structureWrites, ids }),
    guildChannels: new GuildChannelsService({ writes: structureWrites, ids }),
    members: new MembersService({ store: store.world, auditLog, events: worldEvents, now }),
    threads: {
      threads: new ThreadsService({
        world: store.world,
        messages: store.interactions,
        ids,
        now,
        events: worldEvents,
        auditLog,
      }),
      members: new ThreadMembersService(store.world, worldEvents, now),
      lists: new ThreadListsService(store.world, now),
    },
    channelMessages: new ChannelMessagesService({ ...messaging, dms }),
    attachments,
    messageModeration: new MessageModerationService({
      world: store.world,
      messages: store.interactions,
      now,
      events: worldEvents,
    }),
    pins: new PinsService({ world: store.world, messages: store.interactions, renderer, events: worldEvents, now }),
    reactions: new ReactionsService({
      world: store.world,
      messages: store.interactions,
      reactions: store.reactions,
      events: worldEvents,
      now,
    }),
    gateway: parts.gateway,
    console: consoleService,
    adminToken: parts.adminToken,
    snapshots,
    ready: parts.ready,
    faults: new FaultsService({ table: parts.faults, ids, now, gateway: parts.gateway }),
  };
  return { http, world, snapshots, httpDelivery, interactionDelivery, console: consoleService, commandIndex };
}
