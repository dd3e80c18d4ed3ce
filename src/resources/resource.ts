/**
 * What one resource folder contributes to a node (docs/architecture.md, "Adding a resource"): each
 * `src/resources/<name>/index.ts` exports one `Resource`, and `src/resources/index.ts` lists them.
 * The central files (the store entry points, `app/services.ts`, `http/server.ts`) iterate over
 * that list instead of naming any resource, so a new resource edits the list and nothing central.
 */
export interface Resource {
  /** The folder's name (`reactions`, `threads`): unique in the list. */
  readonly name: string;
}

/** A resource as the list holds it: the `satisfies` check keeps each entry's own, narrower type. */
export function defineResource<R extends Resource>(resource: R): R {
  return resource;
}
