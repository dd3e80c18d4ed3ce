/**
 * What the HTTP adapter is built from, wired once in src/app.ts: the registry of every resource's
 * services (src/resources/resource.ts), and the node's parts. `buildServer` hands each resource's
 * route plugins the registry; each plugin takes only the services it calls. No route reaches the
 * store: only the authentication hook reads it, through the token lookups of `principals`.
 */
export type { NodeServices as HttpServices } from '../resources/resource.js';
export type { Services as HttpServiceParts } from '../app/services.js';
