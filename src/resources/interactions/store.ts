/** Interactions (keyed by application id), the messages slashd itself holds, and launched Activities. */
import type { InteractionRecord, InteractionState } from './rules/lifecycle.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import type { StoredChannelCounters } from '../../core/world/channel-counters.js';

/** A launched Activity (entry point commands). */
export interface ActivityInstance {
  id: string;
  application_id: string;
  channel_id: string;
  guild_id: string | null;
  user_id: string;
  interaction_id: string;
  created_at: number;
}

/** Exclusive id bounds of a page of channel messages (either, both or neither). */
export interface MessageRange {
  readonly before?: string | undefined;
  readonly after?: string | undefined;
}

/** One step of an interaction's life as its transcript shows it (a delivery attempt, a fault, ...). */
export interface TranscriptEntry {
  /** Epoch ms. */
  readonly at: number;
  readonly kind: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** A pinned message of a channel, and when it was pinned. */
export interface Pin {
  readonly messageId: string;
  /** ISO 8601, as v10's `pinned_at`. */
  readonly pinnedAt: string;
}

/** What pinning did: pinned now, pinned already (its time kept), or refused (the channel is full). */
export type PinOutcome = 'pinned' | 'already' | 'full';

/**
 * What the invoking user reads of an interaction (GET /interactions/{id}): the record's fields
 * the answer and the access check are made of, never its payload (the token is in it).
 */
export type InteractionStatus = Readonly<
  Pick<
    InteractionRecord,
    | 'id'
    | 'application_id'
    | 'user_id'
    | 'guild_id'
    | 'channel_id'
    | 'nonce'
    | 'state'
    | 'failure_reason'
    | 'failure_detail'
    | 'response'
    | 'created_at'
  >
>;

/** The status fields of a record. */
export function statusOf(record: InteractionRecord): InteractionStatus {
  return {
    id: record.id,
    application_id: record.application_id,
    user_id: record.user_id,
    guild_id: record.guild_id,
    channel_id: record.channel_id,
    nonce: record.nonce,
    state: record.state,
    failure_reason: record.failure_reason,
    failure_detail: record.failure_detail ?? null,
    response: record.response,
    created_at: record.created_at,
  };
}

/** A world-file message the API edited: its copy in `messages` is read instead of the document's. */
export const WORLD_MESSAGE_COPIED = 'copied';
/** A world-file message the API deleted: reads hide it until the world is replaced or restored. */
export const WORLD_MESSAGE_DELETED = 'deleted';

/** Steps one interaction's transcript keeps; later ones are not recorded (a transcript is bounded). */
export const MAX_TRANSCRIPT_ENTRIES = 100;

export interface InteractionStore {
  /** A new interaction; its id must be new for the application. */
  putInteraction(record: InteractionRecord): Promise<void>;
  getInteraction(applicationId: string, id: string): Promise<InteractionRecord | null>;
  /** Just the stored state: what `POST /interactions` reports after delivery. */
  getInteractionState(applicationId: string, id: string): Promise<InteractionState | null>;
  /**
   * The interaction's status as its invoking user asks for it (null for anyone else): a read that
   * never waits on a write and never takes what delivery needs (SQLite: from this node's memory
   * of the interactions it wrote; PostgreSQL: on a few connections of its own).
   */
  findUserInteractionStatus(userId: string, id: string): Promise<InteractionStatus | null>;
  /** The user's newest interactions (of every application), newest first: where an open modal is looked for. */
  listUserInteractions(userId: string, limit: number): Promise<InteractionRecord[]>;
  /**
   * Records that `submissionId` submitted the modal that interaction `id` was answered with: true
   * only for the first claim (a modal is submitted once), false when it was claimed already, the
   * interaction is not answered with a modal, or does not exist.
   */
  claimModal(applicationId: string, id: string, submissionId: string): Promise<boolean>;
  /**
   * Applies `patch` only while the stored state is one of `from` (a compare-and-set, so that two
   * racing acknowledgements cannot both win); false when the state had moved on.
   */
  updateInteraction(
    applicationId: string,
    id: string,
    from: readonly InteractionState[],
    patch: Partial<InteractionRecord>,
    /** Written in the same transaction, only when the update applies (the answer's message). */
    message?: StoredMessage,
    /**
     * Transcript steps appended in the same transaction, only when the update applies: the steps
     * that led to this state (its delivery, the answer), so one state change is one durable write.
     */
    steps?: readonly TranscriptEntry[],
  ): Promise<boolean>;

  // Messages slashd itself holds (interaction responses, follow-ups, launch notices).
  /** A new message; its id must be new (no upsert, so that an id collision cannot overwrite). */
  putMessage(message: StoredMessage): Promise<void>;
  /** Rewrites an existing message of the same id; false when it no longer exists. */
  editMessage(message: StoredMessage): Promise<boolean>;
  getMessage(channelId: string, id: string): Promise<StoredMessage | null>;
  /**
   * A crosspost, in one transaction: the stored message of `original`'s id rewritten as `original`
   * unless its stored flags have `flag` already (`already`), and `copies` added (each a new message,
   * counted in its channel); `gone` when there is no such message.
   */
  crosspostMessage(
    original: StoredMessage,
    copies: readonly StoredMessage[],
    flag: number,
  ): Promise<'done' | 'already' | 'gone'>;
  /**
   * Newest first: the channel's messages that `viewerId` may see (ephemeral ones only their own),
   * with ids inside `range`; with `after` alone, the oldest `limit` after it.
   */
  listChannelMessages(
    channelId: string,
    viewerId: string,
    limit: number,
    range?: MessageRange,
  ): Promise<StoredMessage[]>;
  /**
   * Deletes the message, its pin and its reactions, in one transaction; false when there was no such
   * message. `ofWorldFile`: the id is a world-file message's, recorded deleted (its copy, if edited,
   * goes too); false when it was deleted already.
   */
  deleteMessage(channelId: string, id: string, ofWorldFile?: boolean): Promise<boolean>;
  /**
   * Deletes at once (one transaction, so all or nothing) the channel's messages of these ids that
   * everyone in the channel sees (no ephemeral one), and records deleted the world-file messages
   * among them (`worldFileIds`); returns the ids deleted, in no set order.
   */
  deleteMessages(channelId: string, ids: readonly string[], worldFileIds?: readonly string[]): Promise<string[]>;

  /**
   * The message counters of these channels (`last_message_id`, `message_count`, `total_message_sent`),
   * in one read: every message create above counts up in its transaction, every delete counts
   * `message_count` down (a world-file message's too, so a channel's may be below 0: the world
   * file's messages are added when rendered, `withCounters`). Ephemeral messages and a forum post's
   * starter message (the thread's id) are never counted; the starter is its thread's last message.
   * A channel nothing was counted in has no entry.
   */
  channelCounters(channelIds: readonly string[]): Promise<StoredChannelCounters>;

  // The world file's messages, once the API changes them (docs/decisions.md): copied, or deleted.
  /**
   * Stores `message`, a world-file message edited: the first edit copies it (and records it copied),
   * a later one rewrites the copy, in one transaction; false when it was deleted.
   */
  editWorldMessage(message: StoredMessage): Promise<boolean>;
  /** Which of these world-file messages of the channel the API copied or deleted: the document's version is no longer read. */
  changedWorldMessages(channelId: string, ids: readonly string[]): Promise<string[]>;

  // Pins of a channel: of slashd's messages and the world file's alike, by message id.
  /** Pins a message unless the channel holds `limit` pins: one transaction, so two racing pins cannot pass it. */
  pinMessage(channelId: string, messageId: string, pinnedAt: string, limit: number): Promise<PinOutcome>;
  /** False when the message was not pinned. */
  unpinMessage(channelId: string, messageId: string): Promise<boolean>;
  /** Newest pin first; with `before` (ISO 8601), only pins made before it. */
  listPins(channelId: string, limit: number, before?: string): Promise<Pin[]>;
  /** Which of these messages of the channel are pinned (each read of a message says so), in no set order. */
  pinnedAmong(channelId: string, messageIds: readonly string[]): Promise<string[]>;

  /** Adds a step to the interaction's transcript, in order; past MAX_TRANSCRIPT_ENTRIES, nothing. */
  appendTranscript(applicationId: string, interactionId: string, entry: TranscriptEntry): Promise<void>;
  /** The interaction's transcript, oldest step first (empty when it has none). */
  listTranscript(applicationId: string, interactionId: string): Promise<TranscriptEntry[]>;

  putActivityInstance(instance: ActivityInstance): Promise<void>;
  listActivityInstances(applicationId: string): Promise<ActivityInstance[]>;
  /** The application's Activity instance of `id`, or null (another application's is none). */
  getActivityInstance(applicationId: string, id: string): Promise<ActivityInstance | null>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Interactions, their responses and the messages of channels. */
    readonly interactions: InteractionStore;
  }
}
