/** A guild's channels and roles written together: one change, its dispatches and audit entries. */
import { defineResource } from '../resource.js';
import { GuildStructureWrites } from './writes.js';

declare module '../resource.js' {
  interface NodeServices {
    structureWrites: GuildStructureWrites;
  }
}

export const guildStructureResource = defineResource({
  name: 'guild-structure',
  services: {
    structureWrites: ({ store, worldEvents }, { auditLog }) =>
      new GuildStructureWrites(
        { guildStructure: store.guildStructure, members: store.members, interactions: store.interactions },
        worldEvents,
        auditLog,
      ),
  },
});
