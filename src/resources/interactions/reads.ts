/**
 * What is read of an interaction once invoked: its state as the invoking user sees it
 * (GET /interactions/{id}), and its whole transcript for the admin API. The state is read of the
 * interaction's status alone (the store keeps it apart from the record, so users polling it do
 * not compete with delivery); the access check reads the guild, as every channel read does.
 */
import { currentState, type InteractionRecord } from './rules/lifecycle.js';
import { canReadMessages } from '../../core/permissions/channel-permissions.js';
import { memberOf } from '../../core/world/member-index.js';
import type { User } from '../../core/world/types.js';
import type { InteractionStatus, Store } from '../../store/store.js';

export interface InteractionReadsDeps {
  store: Pick<Store, 'world' | 'members' | 'interactions'>;
  now: () => number;
}

export class InteractionReads {
  constructor(private readonly deps: InteractionReadsDeps) {}

  /** The interaction as its invoking user sees it: state, and the app's response. */
  async status(user: User, interactionId: string): Promise<Record<string, unknown> | null> {
    const record = await this.deps.store.interactions.findUserInteractionStatus(user.id, interactionId);
    if (!record || !(await this.invokerStillReads(user, record))) return null;
    const { state, reason } = currentState(record, this.deps.now());
    const out: Record<string, unknown> = { id: record.id, nonce: record.nonce, state, response: record.response };
    if (state === 'failed') {
      out.failure_reason = reason;
      if (record.failure_detail) out.failure_detail = record.failure_detail;
    }
    return out;
  }

  /**
   * The response is a message of the channel: the invoker sees it only while they may still read
   * that channel, else the interaction is unknown to them (its channel's existence stays hidden).
   */
  private async invokerStillReads(user: User, record: InteractionStatus): Promise<boolean> {
    if (record.guild_id === null) return true;
    const guild = await this.deps.store.members.getGuildWithMembers(record.guild_id, [user.id]);
    const member = guild ? memberOf(guild, user.id) : undefined;
    const channel = guild?.channels.find((c) => c.id === record.channel_id);
    return (
      guild !== null &&
      guild !== undefined &&
      member !== undefined &&
      channel !== undefined &&
      canReadMessages(guild, member, channel)
    );
  }

  /**
   * The interaction's transcript for the admin API: the invocation, each recorded step (delivery
   * attempts with timing and outcome, faults, answers, follow-ups, edits) and the messages it
   * produced; null when no application has an interaction with this id.
   */
  async transcript(interactionId: string): Promise<Record<string, unknown> | null> {
    const { world, interactions } = this.deps.store;
    let record: InteractionRecord | null = null;
    for (const app of await world.listApplications()) {
      record = await interactions.getInteraction(app.id, interactionId);
      if (record) break;
    }
    if (!record) return null;
    const steps = await interactions.listTranscript(record.application_id, record.id);
    const messageIds = new Set<string>();
    if (record.original_message_id) messageIds.add(record.original_message_id);
    for (const step of steps) if (typeof step.detail.message_id === 'string') messageIds.add(step.detail.message_id);
    const messages = [];
    for (const id of messageIds) {
      const message = await interactions.getMessage(record.channel_id, id);
      if (message) messages.push(message);
    }
    const { state, reason } = currentState(record, this.deps.now());
    return {
      id: record.id,
      application_id: record.application_id,
      created_at: new Date(record.created_at).toISOString(),
      state,
      failure_reason: state === 'failed' ? reason : null,
      failure_detail: record.failure_detail ?? null,
      invocation: {
        type: record.type,
        command_id: record.command_id,
        command_name: record.command_name,
        user_id: record.user_id,
        guild_id: record.guild_id,
        channel_id: record.channel_id,
        nonce: record.nonce,
        // The interaction token is a credential: never in an answer about the interaction.
        payload: { ...record.payload, token: undefined },
      },
      steps: steps.map((step) => ({ ...step, at: new Date(step.at).toISOString() })),
      response: record.response,
      messages,
    };
  }
}
