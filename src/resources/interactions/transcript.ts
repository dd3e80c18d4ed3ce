/**
 * The transcript of an interaction (GET /admin/interactions/{id}/transcript): the steps the
 * services record as it goes, its delivery (interaction-delivery) and the app's answers
 * (callbacks-service, webhook-messages-service), each stamped with the time.
 */
import type { InteractionRecord } from './rules/lifecycle.js';
import type { Store } from '../../store/store.js';

/** What recording a step needs. */
export interface TranscriptDeps {
  store: Pick<Store, 'interactions'>;
  now: () => number;
}

/** Appends one step of `kind` with its `detail` to the interaction's transcript. */
export async function appendStep(
  deps: TranscriptDeps,
  record: InteractionRecord,
  kind: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await deps.store.interactions.appendTranscript(record.application_id, record.id, { at: deps.now(), kind, detail });
}
