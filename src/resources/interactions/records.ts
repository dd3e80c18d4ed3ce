/**
 * The stored interaction as its app's answers reach it, shared by the callbacks and the interaction
 * webhook: found by its token, moved from state to state (each stored change counted once), and
 * each answer a step of its transcript.
 */
import { readInteractionToken, type InteractionRecord, type InteractionState } from './rules/lifecycle.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import type { InteractionMetrics } from '../../metrics/metrics.js';
import type { Store, TranscriptEntry } from '../../store/store.js';
import { sameSecret } from '../../store/tokens.js';
import { appendStep } from './transcript.js';

export interface InteractionRecordsDeps {
  store: Pick<Store, 'interactions'>;
  now: () => number;
  metrics: InteractionMetrics;
}

export class InteractionRecords {
  constructor(private readonly deps: InteractionRecordsDeps) {}

  /** The interaction a token names, if the token is exactly its token. */
  async findByToken(token: string, interactionId?: string): Promise<InteractionRecord | null> {
    const named = readInteractionToken(token);
    if (!named || (interactionId !== undefined && named.interactionId !== interactionId)) return null;
    const record = await this.deps.store.interactions.getInteraction(named.applicationId, named.interactionId);
    if (!record || !sameSecret(record.token, token)) return null;
    return record;
  }

  /**
   * A transition of `record` from `from` that is counted when it is the one stored; `steps` (its
   * transcript's steps that led to it) are written in its transaction when it is.
   */
  async transition(
    record: InteractionRecord,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    message?: StoredMessage,
    steps: readonly TranscriptEntry[] = [],
  ): Promise<boolean> {
    const won = await this.deps.store.interactions.updateInteraction(
      record.application_id,
      record.id,
      from,
      patch,
      message,
      steps,
    );
    if (won && patch.state && patch.state !== 'pending')
      this.deps.metrics.interaction(patch.state, patch.failure_reason);
    return won;
  }

  /** A step of the interaction's transcript (GET /admin/interactions/{id}/transcript). */
  async step(record: InteractionRecord, kind: string, detail: Record<string, unknown>): Promise<void> {
    await appendStep(this.deps, record, kind, detail);
  }

  /** A step stamped now, to be written with the state change it leads to (`transition`). */
  entry(kind: string, detail: Record<string, unknown>): TranscriptEntry {
    return { at: this.deps.now(), kind, detail };
  }

  /** Steps held for a state change that did not happen: written on their own, in order. */
  async writeHeld(record: InteractionRecord, held: readonly TranscriptEntry[]): Promise<void> {
    for (const entry of held)
      await this.deps.store.interactions.appendTranscript(record.application_id, record.id, entry);
  }
}
