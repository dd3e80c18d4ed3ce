/** Collecting the ids an invocation mentions, so that `data.resolved` can be built from them. */
import type { ReferencedIds } from '../../interactions/rules/invocation-types.js';

export type ReferenceKind = keyof ReferencedIds;

export function emptyReferences(): ReferencedIds {
  return { users: [], members: [], roles: [], channels: [], messages: [], attachments: [] };
}

/** Adds `id` once: an id named by two options is resolved once. */
export function addReference(references: ReferencedIds, kind: ReferenceKind, id: string): void {
  const list = references[kind];
  if (!list.includes(id)) list.push(id);
}
