/** The command-index resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const command_indexResource = defineResource({
  name: 'command-index',
});
