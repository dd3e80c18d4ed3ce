/** The console resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const consoleResource = defineResource({
  name: 'console',
});
