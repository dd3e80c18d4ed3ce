/**
 * The services of a node: the parts every resource may use (stores, bus, clock, the server's
 * address, the dispatches and outbound HTTP, the signer of attachment URLs that dispatches and
 * reads share), then each resource's services from the list in src/resources/index.ts, built by
 * their factories (src/resources/resource.ts). No other resource is named here.
 */
import type { GatewayPresence } from '../core/gateway/presence.js';
import type { SnowflakeGenerator } from '../core/snowflake.js';
import { HttpDelivery, type DeliveryLog } from '../delivery/http-delivery.js';
import type { EventBus } from '../events/bus.js';
import { WorldEvents } from '../events/world-events.js';
import type { FaultTable } from '../faults/fault-table.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ReadinessChecks } from '../http/probes.js';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import { RESOURCES } from '../resources/index.js';
import { AttachmentUrls } from '../resources/attachments/urls.js';
import type { NodeServices, Resource, ServiceFactory } from '../resources/resource.js';
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
  /** The dispatches about the world every resource publishes (made by `buildServices`). */
  worldEvents: WorldEvents;
  /** Outbound HTTP to interactions endpoints and checks of endpoint URLs (closed with the node). */
  httpDelivery: HttpDelivery;
  /** Attachment URLs are on the server's own URL: the public URL, else the address it listens on. */
  origin: () => string;
  /** Signs every attachment URL the node renders and checks those it serves (its key is the database's). */
  attachmentUrls: AttachmentUrls;
}

/** The parts a node makes before its services; `buildServices` adds the shared ones. */
export type NodeParts = Omit<ServiceParts, 'worldEvents' | 'httpDelivery' | 'origin' | 'attachmentUrls'>;

/** The services, and the parts the HTTP adapter is built with. */
export interface Services {
  services: NodeServices;
  parts: ServiceParts;
}

export function buildServices(node: NodeParts, resources: readonly Resource[] = RESOURCES): Services {
  const origin = (): string => node.address.url();
  const attachmentUrls = new AttachmentUrls({
    key: () => node.store.attachments.urlSigningKey(),
    origin,
    now: node.now,
  });
  const parts: ServiceParts = {
    ...node,
    worldEvents: new WorldEvents(
      { world: node.store.world, members: node.store.members },
      node.bus,
      node.store.interactions,
      attachmentUrls,
    ),
    httpDelivery: new HttpDelivery(node.now, {
      policy: node.config.endpointPolicy,
      resolve: node.config.resolve,
      durable: () => node.store.durable?.(),
    }),
    origin,
    attachmentUrls,
  };
  return { services: buildRegistry(parts, resources), parts };
}

/**
 * Every resource's services, each built once on first use by another factory or at the end, in
 * the list's order; a factory that needs a service nobody builds, or two resources building one
 * service, or a cycle, fails the start naming the service.
 */
function buildRegistry(parts: ServiceParts, resources: readonly Resource[]): NodeServices {
  const factories = new Map<string, { factory: ServiceFactory<keyof NodeServices>; resource: string }>();
  for (const resource of resources) {
    for (const [name, factory] of Object.entries(resource.services ?? {})) {
      const other = factories.get(name);
      if (other) throw new Error(`the ${resource.name} and ${other.resource} resources both build "${name}"`);
      factories.set(name, { factory, resource: resource.name });
    }
  }
  const built = new Map<string, unknown>();
  const building = new Set<string>();
  const registry = new Proxy({} as NodeServices, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      if (built.has(name)) return built.get(name);
      const entry = factories.get(name);
      if (!entry) throw new Error(`no resource builds the service "${name}"`);
      if (building.has(name)) throw new Error(`the service "${name}" needs itself to be built`);
      building.add(name);
      const service = entry.factory(parts, registry);
      building.delete(name);
      built.set(name, service);
      return service;
    },
  });
  for (const name of factories.keys()) void (registry as unknown as Record<string, unknown>)[name];
  return Object.freeze(Object.fromEntries(built)) as unknown as NodeServices;
}
