/** The pins resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const pinsResource = defineResource({
  name: 'pins',
});
