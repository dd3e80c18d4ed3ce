/** The audit-log resource: what its folder contributes to a node (src/resources/resource.ts). */
import { defineResource } from '../resource.js';

export const audit_logResource = defineResource({
  name: 'audit-log',
});
