/** The command-permissions resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const command_permissionsResource = defineResource({
  name: 'command-permissions',
});
