/**
 * DM channels (v10 type 1) between an app's bot and a user: `POST /users/@me/channels` opens the
 * pair's one channel (or returns it), and its two ends post and read there, the bot by its token
 * and the user by theirs; nobody else sees it. Messages are told to the bot as MESSAGE_CREATE under
 * DIRECT_MESSAGES (docs/decisions.md, "DMs").
 */
import { ChannelType, type APIDMChannel, type APIGroupDMChannel, type APIUser } from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import { fieldOf, isRecord, readSnowflake } from '../../core/io/read.js';
import { reportNotObject, reportRequired, type Issues } from '../../core/io/report.js';
import { orThrow, resultOf } from '../../core/io/result.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { Page } from '../../core/world/page-query.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import { toWirePublicBot, toWirePublicUser } from '../../core/world/wire.js';
import type { DmChannelStore, GuildMemberStore, InteractionStore, WorldStore } from '../../store/store.js';
import { botInGuild } from '../../core/world/guild-members.js';
import type { DmChannel } from './store.js';
import type { GroupDm } from '../../core/world/types.js';
import type { AttachmentsService, IncomingFile } from '../attachments/service.js';
import type { PollStore } from '../polls/store.js';
import { authorOf, checkChannelMessage, newMessageFields, storeNewMessage } from '../messages/service.js';
import type { MessageRenderer } from '../messages/renderer.js';
import type { RenderedMessage } from '../messages/rules/messages.js';
import type { WorldEvents } from '../../events/world-events.js';
import { withCounters, type CountersOf } from '../../core/world/channel-counters.js';
import { NO_CHANNEL_FLAGS } from '../../core/world/v10-objects.js';
import type { EntitlementStore } from '../entitlements/store.js';

export interface DmChannelsDeps {
  world: Pick<WorldStore, 'getUser' | 'getUsers' | 'getApplication'>;
  members: Pick<GuildMemberStore, 'guildIdsOfMember' | 'getGuildWithMembers'>;
  dmChannels: Pick<
    DmChannelStore,
    'openDmChannel' | 'getDmChannel' | 'listDmChannelsOfUser' | 'getGroupDm' | 'listGroupDmsOfUser'
  >;
  messages: Pick<InteractionStore, 'putMessage' | 'getMessage' | 'channelCounters'>;
  renderer: MessageRenderer;
  ids: SnowflakeGenerator;
  now: () => number;
  events: WorldEvents;
  attachments: AttachmentsService;
  /** The polls of new messages. */
  polls: Pick<PollStore, 'createPoll' | 'deletePoll'>;
  /** The SKUs premium buttons name. */
  skus: Pick<EntitlementStore, 'listSkus'>;
}

/**
 * A DM channel as slashd answers it: v10's, but the other end of a DM whose user or app the world
 * no longer holds is only its id (the channel outlives them, and the read must not fail).
 */
type WireDmChannel = Omit<APIDMChannel, 'recipients' | 'name'> & { recipients: (APIUser | { id: string })[] };
/**
 * A group DM as slashd answers it (no `managed` or `application_id`: only users make them; the
 * world file may name no owner).
 */
type WireGroupDm = Omit<APIGroupDMChannel, 'managed' | 'application_id' | 'owner_id'> & { owner_id: string | null };
/** Either kind of private channel. */
export type WirePrivateChannel = WireDmChannel | WireGroupDm;

/** `POST /users/@me/channels`: `recipient_id`, a snowflake. */
function readRecipient(body: unknown): string {
  const issues: Issues = [];
  if (!isRecord(body)) reportNotObject(issues, []);
  const raw = isRecord(body) ? fieldOf(body, 'recipient_id') : undefined;
  if (isRecord(body) && (raw === undefined || raw === null)) reportRequired(issues, ['recipient_id']);
  const id =
    raw === undefined || raw === null
      ? undefined
      : readSnowflake(typeof raw === 'number' ? String(raw) : raw, ['recipient_id'], issues);
  return orThrow(resultOf(id, issues));
}

/** True when the viewer is one of the DM's two ends. */
export function isDmEnd(dm: DmChannel, viewer: Viewer): boolean {
  return viewer.kind === 'bot' ? dm.application_id === viewer.applicationId : dm.user_id === viewer.userId;
}

export class DmChannelsService {
  constructor(private readonly deps: DmChannelsDeps) {}

  /** The bot's DM with the user of `recipient_id` (the same channel on every call). */
  async open(applicationId: string, body: unknown): Promise<WireDmChannel> {
    const recipientId = readRecipient(body);
    const user = await this.deps.world.getUser(recipientId);
    if (!user) throw apiError('UnknownUser');
    const dm = await this.deps.dmChannels.openDmChannel(applicationId, user.id, this.deps.ids.next());
    return this.wire(dm, { kind: 'bot', applicationId });
  }

  /** The DM channel of this id, if it is one: null for any other channel; 50001 for someone else's. */
  async find(viewer: Viewer, channelId: string): Promise<DmChannel | null> {
    const dm = await this.deps.dmChannels.getDmChannel(channelId);
    if (dm && !isDmEnd(dm, viewer)) throw apiError('MissingAccess');
    return dm;
  }

  /**
   * The group DM of this id, if it is one: null for any other channel; 50001 for one the viewer
   * is not a recipient of (a bot never is: apps answer there only by the interaction webhook).
   */
  async findGroupDm(viewer: Viewer, channelId: string): Promise<GroupDm | null> {
    const dm = await this.deps.dmChannels.getGroupDm(channelId);
    if (dm && (viewer.kind === 'bot' || !dm.recipients.includes(viewer.userId))) throw apiError('MissingAccess');
    return dm;
  }

  /**
   * A group DM as v10's channel object (type 3), its recipients less the viewer; its
   * `last_message_id` from `counters`, read for it alone unless given.
   */
  async wireGroupDm(dm: GroupDm, userId: string, counters?: CountersOf): Promise<WireGroupDm> {
    const counted = counters ?? withCounters(null, await this.deps.messages.channelCounters([dm.id]));
    const others = await this.deps.world.getUsers(dm.recipients.filter((id) => id !== userId));
    return {
      id: dm.id,
      type: ChannelType.GroupDM,
      name: dm.name,
      owner_id: dm.owner_id,
      icon: null,
      last_message_id: counted(dm.id).last_message_id,
      flags: NO_CHANNEL_FLAGS,
      recipients: others.map(toWirePublicUser),
    };
  }

  /** The user's group DMs (the console's list), each as the user sees it. */
  async groupDmsOfUser(userId: string): Promise<WireGroupDm[]> {
    const groupDms = await this.deps.dmChannels.listGroupDmsOfUser(userId);
    const counters = withCounters(null, await this.deps.messages.channelCounters(groupDms.map((dm) => dm.id)));
    const wired: WireGroupDm[] = [];
    for (const dm of groupDms) wired.push(await this.wireGroupDm(dm, userId, counters));
    return wired;
  }

  /** The channel object: its recipient is the other end; `counters` read for it alone unless given. */
  async wire(dm: DmChannel, viewer: Viewer, counters?: CountersOf): Promise<WireDmChannel> {
    const counted = counters ?? withCounters(null, await this.deps.messages.channelCounters([dm.id]));
    const other =
      viewer.kind === 'bot'
        ? await this.deps.world.getUser(dm.user_id)
        : await this.deps.world.getApplication(dm.application_id);
    const recipient =
      viewer.kind === 'bot'
        ? other && 'username' in other
          ? toWirePublicUser(other)
          : { id: dm.user_id }
        : other && 'bot_token' in other
          ? toWirePublicBot(other)
          : { id: dm.application_id };
    return {
      id: dm.id,
      type: ChannelType.DM,
      last_message_id: counted(dm.id).last_message_id,
      flags: NO_CHANNEL_FLAGS,
      recipients: [recipient],
    };
  }

  /** The user's DM channels (the console's list), each as the user sees it, then their group DMs. */
  async ofUser(userId: string): Promise<WirePrivateChannel[]> {
    const viewer: Viewer = { kind: 'user', userId };
    const wired: WireDmChannel[] = [];
    const dms = await this.deps.dmChannels.listDmChannelsOfUser(userId);
    const counters = withCounters(null, await this.deps.messages.channelCounters(dms.map((dm) => dm.id)));
    for (const dm of dms) wired.push(await this.wire(dm, viewer, counters));
    return [...wired, ...(await this.groupDmsOfUser(userId))];
  }

  /**
   * A message of one end to the other. A bot reaches only a user it shares a guild with, as v10
   * lets it (50007 otherwise; opening the channel is allowed, sending is not), checked before
   * anything is stored.
   */
  async send(viewer: Viewer, dm: DmChannel, body: unknown, files: readonly IncomingFile[]): Promise<RenderedMessage> {
    const data = checkChannelMessage(body);
    if (viewer.kind === 'bot' && !(await this.sharesGuild(dm))) throw apiError('CannotMessageUser');
    const message = newMessageFields(data, this.deps.ids.next(), dm.id, null, authorOf(viewer), this.deps.now());
    await storeNewMessage(this.deps, message, data, files);
    await this.deps.events.messageCreated(message, [dm.application_id, dm.user_id]);
    return this.deps.renderer.render(message);
  }

  /** Whether the DM's bot is in a guild its user is a member of. */
  private async sharesGuild(dm: DmChannel): Promise<boolean> {
    for (const guildId of await this.deps.members.guildIdsOfMember(dm.user_id)) {
      const guild = await this.deps.members.getGuildWithMembers(guildId, []);
      if (guild && botInGuild(guild, dm.application_id)) return true;
    }
    return false;
  }

  /** A page of the DM's messages, newest first. */
  messages(viewer: Viewer, dm: DmChannel, page: Page): Promise<RenderedMessage[]> {
    return this.deps.renderer.dmMessages(dm.id, viewerId(viewer), page);
  }

  /** A page of a group DM's messages (what apps answered there), newest first. */
  groupDmMessages(viewer: Viewer, groupDm: GroupDm, page: Page): Promise<RenderedMessage[]> {
    return this.deps.renderer.dmMessages(groupDm.id, viewerId(viewer), page);
  }

  async message(viewer: Viewer, dm: DmChannel, messageId: string): Promise<RenderedMessage> {
    const message = await this.deps.messages.getMessage(dm.id, messageId);
    if (!message || message.guild_id !== null) throw apiError('UnknownMessage');
    return this.deps.renderer.renderFor(message, viewerId(viewer));
  }
}
