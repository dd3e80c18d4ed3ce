/**
 * Every resource a node serves: the one list the central files iterate over (the store entry
 * points, app/services.ts, http/server.ts). A service is built when another asks for it, so the
 * order is only the order routes are registered in.
 */
import { applicationsResource } from './applications/index.js';
import { attachmentsResource } from './attachments/index.js';
import { auditLogResource } from './audit-log/index.js';
import { bansResource } from './bans/index.js';
import { channelsResource } from './channels/index.js';
import { commandIndexResource } from './command-index/index.js';
import { commandPermissionsResource } from './command-permissions/index.js';
import { commandsResource } from './commands/index.js';
import { consoleResource } from './console/index.js';
import { dmsResource } from './dms/index.js';
import { expressionsResource } from './expressions/index.js';
import { faultsResource } from './faults/index.js';
import { gatewayResource } from './gateway/index.js';
import { guildStructureResource } from './guild-structure/index.js';
import { guildsResource } from './guilds/index.js';
import { homeResource } from './home/index.js';
import { interactionsResource } from './interactions/index.js';
import { entitlementsResource } from './entitlements/index.js';
import { invitesResource } from './invites/index.js';
import { membersResource } from './members/index.js';
import { messagesResource } from './messages/index.js';
import { metricsResource } from './metrics/index.js';
import { nodeLeasesResource } from './node-leases/index.js';
import { oauth2Resource } from './oauth2/index.js';
import { pinsResource } from './pins/index.js';
import { pollsResource } from './polls/index.js';
import { reactionsResource } from './reactions/index.js';
import { roleConnectionsResource } from './role-connections/index.js';
import { rolesResource } from './roles/index.js';
import { scheduledEventsResource } from './scheduled-events/index.js';
import { snapshotsResource } from './snapshots/index.js';
import { threadsResource } from './threads/index.js';
import { usageResource } from './usage/index.js';
import { usersResource } from './users/index.js';
import { webhooksResource } from './webhooks/index.js';
import { worldResource } from './world/index.js';
import { applicationEmojisResource } from './application-emojis/index.js';
import { activityInstancesResource } from './activity-instances/index.js';
import { autoModerationResource } from './auto-moderation/index.js';
import { subscriptionsResource } from './subscriptions/index.js';
import type { PostgresStoreParts, Resource, SqliteStoreParts, StoreFactory } from './resource.js';
import type { ResourceStores } from '../store/store.js';

export const RESOURCES: readonly Resource[] = [
  applicationsResource,
  attachmentsResource,
  auditLogResource,
  bansResource,
  channelsResource,
  commandIndexResource,
  commandPermissionsResource,
  commandsResource,
  consoleResource,
  dmsResource,
  entitlementsResource,
  expressionsResource,
  faultsResource,
  gatewayResource,
  guildStructureResource,
  guildsResource,
  homeResource,
  interactionsResource,
  invitesResource,
  membersResource,
  messagesResource,
  metricsResource,
  nodeLeasesResource,
  oauth2Resource,
  pinsResource,
  pollsResource,
  reactionsResource,
  roleConnectionsResource,
  rolesResource,
  scheduledEventsResource,
  snapshotsResource,
  threadsResource,
  usageResource,
  usersResource,
  webhooksResource,
  worldResource,
  applicationEmojisResource,
  activityInstancesResource,
  autoModerationResource,
  subscriptionsResource,
];

/**
 * Every resource's stores on one database: each dialect's entry point calls this once with its
 * connection, so the store entry points name no resource. Two resources building one name is a
 * wiring mistake, refused at start.
 */
export function buildResourceStores(dialect: 'sqlite', parts: SqliteStoreParts): ResourceStores;
export function buildResourceStores(dialect: 'postgres', parts: PostgresStoreParts): ResourceStores;
export function buildResourceStores(
  dialect: 'sqlite' | 'postgres',
  parts: SqliteStoreParts | PostgresStoreParts,
): ResourceStores {
  const stores: Record<string, unknown> = {};
  for (const resource of RESOURCES) {
    for (const [name, factory] of Object.entries(resource.stores ?? {}) as [
      string,
      StoreFactory<keyof ResourceStores>,
    ][]) {
      if (name in stores) throw new Error(`two resources build the store "${name}"`);
      stores[name] =
        dialect === 'sqlite'
          ? factory.sqlite(parts as SqliteStoreParts)
          : factory.postgres(parts as PostgresStoreParts);
    }
  }
  return stores as unknown as ResourceStores;
}

/** Every resource's tables of channel-owned rows, deleted with their channel (`Resource.channelOwnedTables`). */
export function channelOwnedTables(): string[] {
  return RESOURCES.flatMap((resource) => resource.channelOwnedTables ?? []);
}
