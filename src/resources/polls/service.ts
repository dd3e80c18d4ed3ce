/**
 * Polls on messages (docs/v10-behaviour.md#polls): users vote (`PUT`/`DELETE …/answers/@me`),
 * anyone who reads the channel lists an answer's voters, the author ends a poll early, and every
 * poll ends at its expiry by the node's clock. Ending is claimed in the store, so that of all the
 * nodes and sweeps that find a poll due, one posts its result message (type 46) and tells bots
 * (MESSAGE_UPDATE with the final results, MESSAGE_CREATE of the result).
 */
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import type { Issue } from '../../core/io/issue.js';
import { reportNotOneOf } from '../../core/io/report.js';
import { orThrow } from '../../core/io/result.js';
import { hasAll, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { Guild } from '../../core/world/types.js';
import { toWirePublicUser } from '../../core/world/wire.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { InteractionStore, WorldStore } from '../../store/store.js';
import type { DmChannelsService } from '../dms/service.js';
import { findChannelMessage } from '../messages/lookup.js';
import type { MessageRenderer } from '../messages/renderer.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import { refuseWhileTimedOut, visibleChannel, type WorldReadStore } from '../world/reads.js';
import {
  pollExpiresAt,
  pollResultEmbed,
  pollVoteDispatch,
  POLL_RESULT_MESSAGE_TYPE,
  readAnswerId,
  readVoteBody,
  readVotersQuery,
  type PollPlace,
  type StoredPoll,
} from './rules.js';
import type { PollStore } from './store.js';

type WireObject = Record<string, unknown>;

/** Due polls one sweep ends at most: the rest wait for the next one. */
export const POLLS_ENDED_PER_SWEEP = 100;

export interface PollsDeps {
  world: WorldReadStore['world'] & Pick<WorldStore, 'getUsers'>;
  members: WorldReadStore['members'];
  messages: Pick<InteractionStore, 'getMessage' | 'putMessage' | 'changedWorldMessages'>;
  polls: PollStore;
  dms: Pick<DmChannelsService, 'find'>;
  renderer: MessageRenderer;
  events: WorldEvents;
  ids: SnowflakeGenerator;
  now: () => number;
}

/** A poll the viewer reads: its message, where it is, and the guild (null in a DM). */
interface Target {
  message: StoredMessage & { poll: StoredPoll };
  place: PollPlace;
  guild: Guild | null;
}

export class PollsService {
  constructor(private readonly deps: PollsDeps) {}

  /**
   * `PUT …/polls/{m}/answers/@me`: the user's votes become `answer_ids` (an empty list takes them
   * back); each answer added or taken back is told to bots. Only users vote (a bot: 20001).
   */
  async vote(viewer: Viewer, channelId: string, messageId: string, body: unknown): Promise<void> {
    if (viewer.kind === 'bot') throw apiError('BotsCannotUseEndpoint');
    const target = await this.target(viewer, channelId, messageId, { voting: true });
    const answerIds = orThrow(readVoteBody(body, target.message.poll));
    await this.setVotes(viewer, target, answerIds);
  }

  /** `DELETE …/polls/{m}/answers/@me`: every vote of the user taken back. */
  async unvote(viewer: Viewer, channelId: string, messageId: string): Promise<void> {
    if (viewer.kind === 'bot') throw apiError('BotsCannotUseEndpoint');
    await this.setVotes(viewer, await this.target(viewer, channelId, messageId, { voting: true }), []);
  }

  /** `GET …/polls/{m}/answers/{a}`: the answer's voters by id, paged by `after` (`{users}`). */
  async voters(
    viewer: Viewer,
    channelId: string,
    messageId: string,
    rawAnswerId: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<{ users: WireObject[] }> {
    const { limit, after } = orThrow(readVotersQuery(query));
    const { message, place } = await this.target(viewer, channelId, messageId);
    const answerId = readAnswerId(rawAnswerId, message.poll);
    if (answerId === null) {
      const issues: Issue[] = [];
      reportNotOneOf(
        issues,
        ['answer_id'],
        message.poll.answers.map((a) => a.answer_id),
      );
      throw invalidFormBody(issues);
    }
    const ids = await this.deps.polls.listVoters(place.channelId, place.messageId, answerId, limit, after);
    const users = new Map((await this.deps.world.getUsers(ids)).map((user) => [user.id, user]));
    return {
      users: ids.flatMap((id) => {
        const user = users.get(id);
        return user ? [toWirePublicUser(user)] : [];
      }),
    };
  }

  /**
   * `POST …/polls/{m}/expire`: the author ends the poll now (another: 50005; a message without a
   * poll: 520006; a poll already ended: 520001); answers the message as the author reads it.
   */
  async expire(viewer: Viewer, channelId: string, messageId: string): Promise<WireObject> {
    const target = await this.target(viewer, channelId, messageId, { anyMessage: true });
    if (!target.message.poll) throw apiError('CannotExpireANonPollMessage');
    if (!isAuthor(target.message, viewer)) throw apiError('CannotEditOtherUsersMessage');
    if (!(await this.end(target.message, target.place))) throw apiError('PollExpired');
    return this.renderFor(target, viewerId(viewer));
  }

  /**
   * Ends every poll due by the node's clock (at most POLLS_ENDED_PER_SWEEP at a time); the
   * number this sweep ended. A poll whose message is gone goes with its votes.
   */
  async endDuePolls(): Promise<number> {
    let ended = 0;
    for (const due of await this.deps.polls.duePolls(this.deps.now(), POLLS_ENDED_PER_SWEEP)) {
      const message = await this.deps.messages.getMessage(due.channelId, due.messageId);
      if (!message?.poll) {
        await this.deps.polls.deletePoll(due.channelId, due.messageId);
        continue;
      }
      if (await this.end(message as Target['message'], placeOf(message))) ended++;
    }
    return ended;
  }

  private async setVotes(viewer: Viewer, target: Target, answerIds: readonly number[]): Promise<void> {
    const { place } = target;
    const userId = viewerId(viewer);
    const change = await this.deps.polls.setVotes(place.channelId, place.messageId, userId, answerIds, this.deps.now());
    if (change.kind === 'unknown') throw apiError('UnknownMessage');
    if (change.kind === 'ended') {
      await this.endIfDue(target);
      throw apiError('PollExpired');
    }
    this.deps.events.publishAll([
      ...change.removed.map((id) => ({
        kind: 'dispatch' as const,
        event: pollVoteDispatch('MESSAGE_POLL_VOTE_REMOVE', place, userId, id),
      })),
      ...change.added.map((id) => ({
        kind: 'dispatch' as const,
        event: pollVoteDispatch('MESSAGE_POLL_VOTE_ADD', place, userId, id),
      })),
    ]);
  }

  /** A poll past its end by the clock is ended by whoever finds it so first. */
  private async endIfDue(target: Target): Promise<void> {
    if (pollExpiresAt(target.message.poll) <= this.deps.now()) await this.end(target.message, target.place);
  }

  /**
   * Ends the poll unless it has ended (false then): its message updated with the final results,
   * and its result message posted, by the one caller whose claim the store granted.
   */
  private async end(message: Target['message'], place: PollPlace): Promise<boolean> {
    const now = this.deps.now();
    if (!(await this.deps.polls.endPoll(place.channelId, place.messageId, now))) return false;
    const tally = await this.deps.polls.tally(place.channelId, place.messageId, '');
    const counts = tally?.counts ?? [];
    await this.deps.events.messageUpdated({
      ...message,
      poll: { ...message.poll, results: { finalized: true, counts } },
    });
    const result: StoredMessage = {
      id: this.deps.ids.next(),
      channel_id: message.channel_id,
      guild_id: message.guild_id,
      author: message.author,
      content: '',
      embeds: [pollResultEmbed(message.poll, counts)],
      components: [],
      flags: 0,
      timestamp: new Date(now).toISOString(),
      edited_timestamp: null,
      ephemeral_for_user_id: null,
      type: POLL_RESULT_MESSAGE_TYPE,
      message_reference: { message_id: message.id, channel_id: message.channel_id, guild_id: message.guild_id },
    };
    await this.deps.messages.putMessage(result);
    await this.deps.events.messageCreated(result, place.recipientIds.length > 0 ? place.recipientIds : undefined);
    return true;
  }

  /**
   * The poll's message as the viewer may reach it: in a DM of theirs, or a guild channel they
   * view with READ_MESSAGE_HISTORY (a voter not timed out). `anyMessage` accepts one without a poll.
   */
  private async target(
    viewer: Viewer,
    channelId: string,
    messageId: string,
    options: { voting?: boolean; anyMessage?: boolean } = {},
  ): Promise<Target> {
    const dm = await this.deps.dms.find(viewer, channelId);
    let message: StoredMessage | null;
    let guild: Guild | null = null;
    let recipientIds: string[] = [];
    if (dm) {
      message = await this.deps.messages.getMessage(dm.id, messageId);
      recipientIds = [dm.application_id, dm.user_id];
    } else {
      const place = await visibleChannel(this.deps, viewer, channelId);
      if (!hasAll(place.permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingAccess');
      if (options.voting) refuseWhileTimedOut(place);
      guild = place.guild;
      message = await findChannelMessage(this.deps.messages, place.guild, place.channel, messageId, viewerId(viewer));
    }
    if (!message || message.ephemeral_for_user_id !== null) throw apiError('UnknownMessage');
    if (!message.poll && !options.anyMessage) throw apiError('UnknownMessage');
    const place: PollPlace = { guildId: message.guild_id, channelId: message.channel_id, messageId, recipientIds };
    return { message: message as Target['message'], place, guild };
  }

  private renderFor(target: Target, readerId: string): Promise<WireObject> {
    return target.guild
      ? this.deps.renderer.renderInGuild(target.guild, target.message, readerId)
      : this.deps.renderer.renderFor(target.message, readerId);
  }
}

/** Where a stored message's poll is (a DM's ends are its author's: a sweep has no viewer). */
function placeOf(message: StoredMessage): PollPlace {
  return { guildId: message.guild_id, channelId: message.channel_id, messageId: message.id, recipientIds: [] };
}

/** The viewer wrote the message (a bot's interaction answers are the webhook's, and its own to end too). */
function isAuthor(message: StoredMessage, viewer: Viewer): boolean {
  if (viewer.kind === 'bot') return message.author.kind === 'app' && message.author.id === viewer.applicationId;
  return message.author.kind === 'user' && message.author.id === viewer.userId;
}
