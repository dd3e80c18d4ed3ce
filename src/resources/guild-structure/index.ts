/** A guild's channels and roles written together: one change, its dispatches and audit entries. */
import { defineResource } from '../resource.js';
import { GuildStructureWrites } from './writes.js';
import { SqliteGuildStructure } from './store.sqlite.js';
import { PostgresGuildStructure } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    structureWrites: GuildStructureWrites;
  }
}

export const guildStructureResource = defineResource({
  name: 'guild-structure',
  stores: {
    guildStructure: {
      sqlite: ({ conn, shared }) => new SqliteGuildStructure(conn, shared),
      postgres: ({ conn, shared }) => new PostgresGuildStructure(conn, shared),
    },
  },
  services: {
    structureWrites: ({ store, worldEvents }, { auditLog }) =>
      new GuildStructureWrites(
        { guildStructure: store.guildStructure, members: store.members, interactions: store.interactions },
        worldEvents,
        auditLog,
      ),
  },
});
