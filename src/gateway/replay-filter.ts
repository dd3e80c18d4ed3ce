/**
 * What a RESUME replays: the missed dispatches, less the INTERACTION_CREATEs whose interaction is
 * no longer waiting for its first answer (answered, failed or expired meanwhile). A bot that comes
 * back after the user was told "the application did not respond" must not answer it after all.
 */
import { readJsonText } from '../core/io/json-text.js';
import { isRecord } from '../core/io/read.js';
import type { InteractionStore } from '../store/store.js';
import type { BufferedDispatch } from './resume-buffer.js';

export type InteractionStates = Pick<InteractionStore, 'getInteractionState'>;

/** The interaction a buffered INTERACTION_CREATE carries, or null for any other dispatch. */
function interactionOf(dispatch: BufferedDispatch): { applicationId: string; id: string } | null {
  if (dispatch.t !== 'INTERACTION_CREATE') return null;
  let read;
  try {
    read = readJsonText(dispatch.json);
  } catch {
    return null;
  }
  if (!read.ok || !isRecord(read.value)) return null;
  const { id, application_id: applicationId } = read.value;
  return typeof id === 'string' && typeof applicationId === 'string' ? { applicationId, id } : null;
}

/**
 * The dispatches to replay. When the store cannot say (it is away), the interaction is replayed:
 * losing it would be worse than an answer the store then refuses.
 */
export async function withoutSettledInteractions(
  missed: readonly BufferedDispatch[],
  states: InteractionStates | null,
): Promise<BufferedDispatch[]> {
  if (!states) return [...missed];
  const kept: BufferedDispatch[] = [];
  for (const dispatch of missed) {
    const interaction = interactionOf(dispatch);
    if (interaction) {
      const state = await states.getInteractionState(interaction.applicationId, interaction.id).catch(() => 'pending');
      if (state !== 'pending') continue;
    }
    kept.push(dispatch);
  }
  return kept;
}
