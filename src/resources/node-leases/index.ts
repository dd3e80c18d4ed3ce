/** The node-leases resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const node_leasesResource = defineResource({
  name: 'node-leases',
});
