/**
 * Application role connections (v10): an app's bot declares its metadata records; a user's OAuth2
 * token with `role_connections.write` (of that app) reads, writes and removes the user's connection,
 * its values checked against the records.
 */
import type { APIApplicationRoleConnection, APIApplicationRoleConnectionMetadata } from 'discord-api-types/v10';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { NO_ROLE_CONNECTION, readMetadataRecords, readRoleConnection } from './rules.js';
import type { RoleConnectionStore } from './store.js';

export class RoleConnectionsService {
  constructor(private readonly store: RoleConnectionStore) {}

  /** `GET /applications/{id}/role-connections/metadata`. */
  async metadata(applicationId: string, pathApplicationId: string): Promise<APIApplicationRoleConnectionMetadata[]> {
    ownApplication(applicationId, pathApplicationId);
    return this.store.getMetadata(applicationId);
  }

  /** `PUT /applications/{id}/role-connections/metadata`: the list replaced, as written. */
  async putMetadata(
    applicationId: string,
    pathApplicationId: string,
    body: unknown,
  ): Promise<APIApplicationRoleConnectionMetadata[]> {
    ownApplication(applicationId, pathApplicationId);
    const records = readMetadataRecords(body);
    if (!records.ok) throw invalidFormBody(records.issues);
    await this.store.putMetadata(applicationId, records.value);
    return records.value;
  }

  /** `GET /users/@me/applications/{id}/role-connection`: nulls and no metadata when there is none. */
  async connection(applicationId: string, userId: string): Promise<APIApplicationRoleConnection> {
    return (await this.store.getConnection(applicationId, userId)) ?? NO_ROLE_CONNECTION;
  }

  /** `PUT /users/@me/applications/{id}/role-connection`: the connection as stored. */
  async putConnection(applicationId: string, userId: string, body: unknown): Promise<APIApplicationRoleConnection> {
    const connection = readRoleConnection(body, await this.store.getMetadata(applicationId));
    if (!connection.ok) throw invalidFormBody(connection.issues);
    await this.store.putConnection(applicationId, userId, connection.value);
    return connection.value;
  }

  /** `DELETE /users/@me/applications/{id}/role-connection`: gone, whether it was there or not. */
  async deleteConnection(applicationId: string, userId: string): Promise<void> {
    await this.store.deleteConnection(applicationId, userId);
  }
}

/** The path's application must be the caller's (20012 for another's, which learns nothing). */
function ownApplication(applicationId: string, pathApplicationId: string): void {
  if (applicationId !== pathApplicationId) throw apiError('NotAuthorizedForApplication');
}
