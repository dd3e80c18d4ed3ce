/** The interactions resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const interactionsResource = defineResource({
  name: 'interactions',
});
