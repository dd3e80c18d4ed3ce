/**
 * Polls of messages (docs/v10-behaviour.md#polls): one row per poll (when it ends, and whether it
 * has), and one row per voter per answer. The poll itself (question, answers) is its message's
 * document; these rows are what changes after the message is sent. Keyed by channel and message:
 * a poll is its channel's, the same for every reader.
 */
import type { PollAnswerCount } from './rules.js';

/** A poll's state: when it ends (epoch ms), and when it was ended (null while open). */
export interface PollState {
  readonly expiresAt: number;
  readonly endedAt: number | null;
}

/** What a voter's change did: the answers added and removed, or refused (the poll is over). */
export type VoteChange =
  { kind: 'changed'; added: number[]; removed: number[] } | { kind: 'ended' } | { kind: 'unknown' };

/** A poll's votes as one reader sees them. */
export interface PollTally {
  readonly endedAt: number | null;
  /** One entry per answer with a vote, by answer id. */
  readonly counts: readonly PollAnswerCount[];
}

export interface PollStore {
  /** A new poll, open until `expiresAt` (epoch ms). */
  createPoll(channelId: string, messageId: string, expiresAt: number): Promise<void>;
  getPoll(channelId: string, messageId: string): Promise<PollState | null>;
  /** The poll and its votes (a message gone with its poll left behind). */
  deletePoll(channelId: string, messageId: string): Promise<void>;
  /**
   * Makes `answerIds` the voter's votes, in one transaction: refused ('ended') once the poll has
   * ended or `now` (epoch ms) is past its end, so that no vote lands after the count.
   */
  setVotes(
    channelId: string,
    messageId: string,
    userId: string,
    answerIds: readonly number[],
    now: number,
  ): Promise<VoteChange>;
  /** Each answer's votes, with whether `viewerId` is among them. */
  tally(channelId: string, messageId: string, viewerId: string): Promise<PollTally | null>;
  /** The users who voted for the answer, ascending by id (as snowflakes), after `after` when given. */
  listVoters(channelId: string, messageId: string, answerId: number, limit: number, after?: string): Promise<string[]>;
  /**
   * Ends the poll at `at` unless it has ended: true for the one caller (of any node) that ended it,
   * which posts its result message.
   */
  endPoll(channelId: string, messageId: string, at: number): Promise<boolean>;
  /** Open polls whose end is at or before `now`, the earliest first, at most `limit`. */
  duePolls(now: number, limit: number): Promise<{ channelId: string; messageId: string }[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Messages' polls and their votes. */
    readonly polls: PollStore;
  }
}
