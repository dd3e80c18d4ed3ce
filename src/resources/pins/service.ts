/**
 * A channel's pins (docs/v10-behaviour.md#pins): pinning and unpinning need PIN_MESSAGES where the
 * message is (and VIEW_CHANNEL); listing needs VIEW_CHANNEL, and without READ_MESSAGE_HISTORY the
 * list is empty, as v10's is. Each change is told to bots as CHANNEL_PINS_UPDATE (GUILDS intent)
 * and as MESSAGE_UPDATE of the message with its new `pinned` (GUILD_MESSAGES), as v10 tells both.
 */
import { apiError } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import { channelPinsUpdateDispatch, LEGACY_PINS_LIST_MAX, MAX_PINS_PER_CHANNEL, readPinsQuery } from './rules.js';
import type { RenderedMessage, StoredMessage } from '../messages/rules/messages.js';

/**
 * `GET /channels/{id}/messages/pins` as slashd answers it: v10's page of pins, each message as its
 * reader receives it (slashd's message shape, `WireMessage`).
 */
interface WirePins {
  items: { pinned_at: string; message: RenderedMessage }[];
  has_more: boolean;
}
import { hasAll, PIN_MESSAGES, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { InteractionStore, Pin } from '../../store/store.js';
import { findChannelMessage } from '../messages/lookup.js';
import type { MessageRenderer } from '../messages/renderer.js';
import type { WorldEvents } from '../../events/world-events.js';
import { visibleChannel, type WorldReadStore } from '../world/reads.js';

export interface PinsDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  messages: Pick<InteractionStore, 'getMessage' | 'changedWorldMessages' | 'pinMessage' | 'unpinMessage' | 'listPins'>;
  renderer: MessageRenderer;
  events: WorldEvents;
  now: () => number;
}

export class PinsService {
  constructor(private readonly deps: PinsDeps) {}

  async pin(viewer: Viewer, channelId: string, messageId: string): Promise<void> {
    const { guild, channel, message } = await this.pinnable(viewer, channelId, messageId);
    const pinnedAt = new Date(this.deps.now()).toISOString();
    const outcome = await this.deps.messages.pinMessage(channel.id, messageId, pinnedAt, MAX_PINS_PER_CHANNEL);
    if (outcome === 'full') throw apiError('MaxPins', { params: { limit: MAX_PINS_PER_CHANNEL } });
    if (outcome !== 'pinned') return;
    this.announce(guild, channel, pinnedAt);
    await this.deps.events.messageUpdated(message);
  }

  /** Unpinning a message that is not pinned changes nothing and tells no one. */
  async unpin(viewer: Viewer, channelId: string, messageId: string): Promise<void> {
    const { guild, channel, message } = await this.pinnable(viewer, channelId, messageId);
    if (!(await this.deps.messages.unpinMessage(channel.id, messageId))) return;
    const [newest] = await this.deps.messages.listPins(channel.id, 1);
    this.announce(guild, channel, newest?.pinnedAt ?? null);
    await this.deps.events.messageUpdated(message);
  }

  /** `GET /channels/{id}/messages/pins`: `{items: [{pinned_at, message}], has_more}`, newest pin first. */
  async list(viewer: Viewer, channelId: string, query: Readonly<Record<string, unknown>>): Promise<WirePins> {
    const { limit, before } = orThrow(readPinsQuery(query));
    const pins = await this.readable(viewer, channelId, limit + 1, before);
    const page = pins.slice(0, limit);
    const items = page.map(({ pin, message }) => ({ pinned_at: pin.pinnedAt, message }));
    return { items, has_more: pins.length > limit };
  }

  /** The older `GET /channels/{id}/pins`: the messages alone, newest pin first, unpaged. */
  async listMessages(viewer: Viewer, channelId: string): Promise<RenderedMessage[]> {
    return (await this.readable(viewer, channelId, LEGACY_PINS_LIST_MAX)).map(({ message }) => message);
  }

  private async readable(
    viewer: Viewer,
    channelId: string,
    limit: number,
    before?: string,
  ): Promise<{ pin: Pin; message: RenderedMessage }[]> {
    const { guild, channel, permissions } = await visibleChannel(this.deps, viewer, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) return [];
    const pins = await this.deps.messages.listPins(channel.id, limit, before);
    const found: { pin: Pin; message: StoredMessage }[] = [];
    for (const pin of pins) {
      const message = await findChannelMessage(this.deps.messages, guild, channel, pin.messageId, viewerId(viewer));
      if (message) found.push({ pin, message });
    }
    const rendered: { pin: Pin; message: RenderedMessage }[] = [];
    for (const { pin, message } of found) {
      rendered.push({ pin, message: { ...(await this.deps.renderer.render(message)), pinned: true } });
    }
    return rendered;
  }

  /** The channel, when the viewer may pin there and the message is one everyone in it sees. */
  private async pinnable(viewer: Viewer, channelId: string, messageId: string) {
    const { guild, channel, permissions } = await visibleChannel(this.deps, viewer, channelId);
    if (!hasAll(permissions, PIN_MESSAGES)) throw apiError('MissingPermissions');
    const message = await findChannelMessage(this.deps.messages, guild, channel, messageId, viewerId(viewer));
    if (!message || message.ephemeral_for_user_id !== null) throw apiError('UnknownMessage');
    return { guild, channel, message };
  }

  private announce(guild: Guild, channel: Channel, lastPin: string | null): void {
    this.deps.events.publishAll([
      { kind: 'dispatch', event: channelPinsUpdateDispatch(guild.id, channel.id, lastPin) },
    ]);
  }
}
