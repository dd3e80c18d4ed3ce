/** Node id leases: which snowflake worker id each node holds (its store only; the node takes one at start). */
import { defineResource } from '../resource.js';

export const nodeLeasesResource = defineResource({
  name: 'node-leases',
});
