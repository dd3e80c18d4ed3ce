/** The guild-structure resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const guild_structureResource = defineResource({
  name: 'guild-structure',
});
