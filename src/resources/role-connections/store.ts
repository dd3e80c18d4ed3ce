/**
 * Application role connections' store (`Store.roleConnections`): an application's metadata records
 * (replaced as one list) and its users' connections, every query keyed by the application id.
 */
import type { APIApplicationRoleConnection, APIApplicationRoleConnectionMetadata } from 'discord-api-types/v10';

export interface RoleConnectionStore {
  /** The application's metadata records, [] when it declared none. */
  getMetadata(applicationId: string): Promise<APIApplicationRoleConnectionMetadata[]>;
  /** Replaces the application's metadata records. */
  putMetadata(applicationId: string, records: readonly APIApplicationRoleConnectionMetadata[]): Promise<void>;
  /** The user's connection to the application, or null. */
  getConnection(applicationId: string, userId: string): Promise<APIApplicationRoleConnection | null>;
  /** Writes (or replaces) the user's connection. */
  putConnection(applicationId: string, userId: string, connection: APIApplicationRoleConnection): Promise<void>;
  /** Removes the user's connection; false when there was none. */
  deleteConnection(applicationId: string, userId: string): Promise<boolean>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Application role connections: metadata records by application, connections by application and user. */
    readonly roleConnections: RoleConnectionStore;
  }
}
