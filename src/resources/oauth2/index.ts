/** The oauth2 resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const oauth2Resource = defineResource({
  name: 'oauth2',
});
