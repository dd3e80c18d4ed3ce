/** The world resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const worldResource = defineResource({
  name: 'world',
});
