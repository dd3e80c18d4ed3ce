/**
 * What a world change means to bots (docs/v10-behaviour.md#gateway): the v10 dispatches that keep a
 * bot's cache true after the admin API changed the world, computed from the world before and after.
 * Pure: the caller publishes the events, in the order returned: apps leaving guilds first, then the
 * changes inside guilds that stay, then apps joining guilds (whose GUILD_CREATE carries the new state
 * whole, so no finer event is needed for a guild that appears).
 */
import type {
  GatewayGuildEmojisUpdateDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleModifyDispatchData,
  GatewayGuildStickersUpdateDispatchData,
} from 'discord-api-types/v10';
import { fromWorldMessage } from '../../resources/messages/rules/messages.js';
import type { WirePayload } from '../wire-payload.js';
import { isThread } from '../permissions/channels.js';
import { withCounters, NO_STORED_COUNTERS, type CountersOf, type StoredChannelCounters } from './channel-counters.js';
import { guildEmojis, toWireGuildEmoji } from './emojis.js';
import { guildStickers, toWireGuildSticker } from './stickers.js';
import { directoryOf, findGuildMember, guildBotIds, guildMembers, type WorldDirectory } from './guild-members.js';
import { guildDispatch, messageDeleteDispatch, messageDispatch, type WorldEvent } from './dispatch.js';
import type { Channel, Guild, Message, World } from './types.js';
import {
  toWireGuild,
  toWireGuildChannel,
  toWireGuildMember,
  toWireMemberUser,
  toWireRole,
  toWireThread,
  type WireGuildChannel,
  type WireThread,
} from './v10-objects.js';

/**
 * THREAD_CREATE's `d`: the thread (slashd's `WireThread`, whose `parent_id` may be null) marked
 * new, as discord-api-types' `GatewayThreadCreateDispatchData` does on its thread type.
 */
export interface WireThreadCreate extends WireThread {
  newly_created: true;
}

/** THREAD_DELETE's `d`; `parent_id` as on `WireThread`, where discord-api-types requires one. */
export interface WireThreadDelete {
  id: string;
  guild_id: string;
  parent_id: string | null;
  type: WireThread['type'];
}

/** The fields of a guild that GUILD_UPDATE reports (roles, channels and members have their own events). */
const GUILD_OWN_FIELDS = ['name', 'owner_id', 'preferred_locale'] as const;

function byId<T>(items: readonly T[], id: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [id(item), item]));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Created, changed and removed items between two lists keyed by id, each rendered to its wire
 * object: an item whose wire object is unchanged (its position included) yields nothing.
 */
function keyedChanges<T>(
  before: readonly T[],
  after: readonly T[],
  id: (item: T) => string,
  emit: {
    created: (item: T) => void;
    updated: (item: T, previous: T) => void;
    removed: (item: T) => void;
    changed: (previous: T, item: T) => boolean;
  },
): void {
  const old = byId(before, id);
  const now = byId(after, id);
  for (const [key, item] of old) if (!now.has(key)) emit.removed(item);
  for (const [key, item] of now) {
    const previous = old.get(key);
    if (!previous) emit.created(item);
    else if (emit.changed(previous, item)) emit.updated(item, previous);
  }
}

function diffRoles(before: Guild, after: Guild, out: WorldEvent[]): void {
  const guild_id = after.id;
  keyedChanges(before.roles, after.roles, (r) => r.id, {
    created: (role) =>
      out.push(
        guildDispatch('GUILD_ROLE_CREATE', guild_id, null, {
          guild_id,
          role: toWireRole(after, role),
        } satisfies GatewayGuildRoleModifyDispatchData),
      ),
    updated: (role) =>
      out.push(
        guildDispatch('GUILD_ROLE_UPDATE', guild_id, null, {
          guild_id,
          role: toWireRole(after, role),
        } satisfies GatewayGuildRoleModifyDispatchData),
      ),
    removed: (role) =>
      out.push(
        guildDispatch('GUILD_ROLE_DELETE', guild_id, null, {
          guild_id,
          role_id: role.id,
        } satisfies GatewayGuildRoleDeleteDispatchData),
      ),
    changed: (previous, role) => !same(toWireRole(before, previous), toWireRole(after, role)),
  });
}

/** The guild's emojis, whole, when any was added, changed or removed (GUILD_EXPRESSIONS intent). */
function diffEmojis(before: Guild, after: Guild, out: WorldEvent[]): void {
  const emojis = guildEmojis(after).map(toWireGuildEmoji);
  if (same(guildEmojis(before).map(toWireGuildEmoji), emojis)) return;
  out.push(
    guildDispatch('GUILD_EMOJIS_UPDATE', after.id, null, {
      guild_id: after.id,
      emojis,
    } satisfies GatewayGuildEmojisUpdateDispatchData),
  );
}

/** The guild's stickers, whole, when any was added, changed or removed (GUILD_EXPRESSIONS intent). */
function diffStickers(before: Guild, after: Guild, out: WorldEvent[]): void {
  const wire = (guild: Guild) => guildStickers(guild).map((sticker) => toWireGuildSticker(guild.id, sticker));
  const stickers = wire(after);
  if (same(wire(before), stickers)) return;
  out.push(
    guildDispatch('GUILD_STICKERS_UPDATE', after.id, null, {
      guild_id: after.id,
      stickers,
    } satisfies GatewayGuildStickersUpdateDispatchData),
  );
}

function channelWire(
  guild: Guild,
  channel: Channel,
  counters: CountersOf,
): WirePayload<WireGuildChannel> | WirePayload<WireThread> {
  return isThread(channel) ? toWireThread(guild, channel, counters) : toWireGuildChannel(guild, channel, counters);
}

/**
 * The channels' changes. Their counters are the guild's after the change on both sides of the
 * comparison: a message sent (in the world file too) is no change of its channel (v10 sends no
 * CHANNEL_UPDATE for one), only the objects sent carry the counters.
 */
function diffChannels(before: Guild, after: Guild, stored: StoredChannelCounters, out: WorldEvent[]): void {
  const guild_id = after.id;
  const counters = withCounters(after, stored);
  const countersBefore = withCounters(before, stored);
  keyedChanges(before.channels, after.channels, (c) => c.id, {
    created: (channel) =>
      out.push(
        isThread(channel)
          ? guildDispatch('THREAD_CREATE', guild_id, channel.id, {
              ...toWireThread(after, channel, counters),
              newly_created: true,
            } satisfies WireThreadCreate)
          : guildDispatch('CHANNEL_CREATE', guild_id, channel.id, toWireGuildChannel(after, channel, counters)),
      ),
    updated: (channel) =>
      out.push(
        guildDispatch(
          isThread(channel) ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE',
          guild_id,
          channel.id,
          channelWire(after, channel, counters),
        ),
      ),
    removed: (channel) =>
      out.push(
        isThread(channel)
          ? guildDispatch('THREAD_DELETE', guild_id, channel.id, {
              id: channel.id,
              guild_id,
              parent_id: channel.parent_id,
              type: channel.type as WireThread['type'],
            } satisfies WireThreadDelete)
          : guildDispatch('CHANNEL_DELETE', guild_id, channel.id, toWireGuildChannel(before, channel, countersBefore)),
      ),
    changed: (previous, channel) =>
      !same(channelWire(before, previous, counters), channelWire(after, channel, counters)),
  });
}

function diffMembers(
  before: Guild,
  after: Guild,
  dirs: { before: WorldDirectory; after: WorldDirectory },
  out: WorldEvent[],
): void {
  const guild_id = after.id;
  const old = guildMembers(before, dirs.before);
  const now = guildMembers(after, dirs.after);
  keyedChanges(old, now, (v) => v.member.user_id, {
    created: (view) =>
      out.push(
        guildDispatch('GUILD_MEMBER_ADD', guild_id, null, {
          ...toWireGuildMember(after, view),
          guild_id,
        } satisfies GatewayGuildMemberAddDispatchData),
      ),
    updated: (view) =>
      out.push(
        guildDispatch('GUILD_MEMBER_UPDATE', guild_id, null, {
          ...toWireGuildMember(after, view),
          guild_id,
        } satisfies GatewayGuildMemberUpdateDispatchData),
      ),
    removed: (view) =>
      out.push(
        guildDispatch('GUILD_MEMBER_REMOVE', guild_id, null, {
          guild_id,
          user: toWireMemberUser(view),
        } satisfies GatewayGuildMemberRemoveDispatchData),
      ),
    changed: (previous, view) => !same(toWireGuildMember(before, previous), toWireGuildMember(after, view)),
  });
}

/** The world file's messages: created, edited (content) and deleted like any other message. */
function diffMessages(before: Guild, after: Guild, dir: WorldDirectory, out: WorldEvent[]): void {
  const ctx = { findUser: dir.user, findApplication: dir.application };
  const dispatch = (t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: Message) => {
    const author = findGuildMember(after, message.author_id, dir);
    out.push({
      kind: 'dispatch',
      event: messageDispatch(t, fromWorldMessage(message, after.id, after.installs), { guild: after, author }, ctx),
    });
  };
  keyedChanges(before.messages, after.messages, (m) => m.id, {
    created: (message) => dispatch('MESSAGE_CREATE', message),
    updated: (message) => dispatch('MESSAGE_UPDATE', message),
    removed: (message) =>
      out.push({
        kind: 'dispatch',
        event: messageDeleteDispatch(fromWorldMessage(message, before.id, before.installs)),
      }),
    changed: (previous, message) => !same(previous, message),
  });
}

function diffGuild(
  before: Guild,
  after: Guild,
  dirs: { before: WorldDirectory; after: WorldDirectory },
  stored: StoredChannelCounters,
  out: WorldEvent[],
): void {
  if (GUILD_OWN_FIELDS.some((field) => before[field] !== after[field]) || !same(before.settings, after.settings)) {
    out.push(guildDispatch('GUILD_UPDATE', after.id, null, toWireGuild(after)));
  }
  diffRoles(before, after, out);
  diffEmojis(before, after, out);
  diffStickers(before, after, out);
  diffChannels(before, after, stored, out);
  diffMembers(before, after, dirs, out);
  diffMessages(before, after, dirs.after, out);
}

function botIds(guild: Guild | undefined, dir: WorldDirectory): Set<string> {
  return new Set(guild ? guildBotIds(guild, dir) : []);
}

/**
 * Every event that turns a bot's view of `before` into its view of `after`; `stored`: the store's
 * message counters of the changed guilds' channels, which the channel objects sent carry.
 */
export function diffWorlds(
  before: World,
  after: World,
  stored: StoredChannelCounters = NO_STORED_COUNTERS,
): WorldEvent[] {
  const dirs = {
    before: directoryOf(before.users, before.applications),
    after: directoryOf(after.users, after.applications),
  };
  const oldGuilds = byId(before.guilds, (g) => g.id);
  const newGuilds = byId(after.guilds, (g) => g.id);
  const leaving: WorldEvent[] = [];
  const inside: WorldEvent[] = [];
  const joining: WorldEvent[] = [];
  for (const guildId of new Set([...oldGuilds.keys(), ...newGuilds.keys()])) {
    const old = oldGuilds.get(guildId);
    const now = newGuilds.get(guildId);
    const botsBefore = botIds(old, dirs.before);
    const botsAfter = botIds(now, dirs.after);
    for (const applicationId of botsBefore) {
      if (!botsAfter.has(applicationId))
        leaving.push({ kind: 'application_guild', event: { applicationId, guildId, installed: false } });
    }
    for (const applicationId of botsAfter) {
      if (!botsBefore.has(applicationId))
        joining.push({ kind: 'application_guild', event: { applicationId, guildId, installed: true } });
    }
    if (old && now) diffGuild(old, now, dirs, stored, inside);
  }
  return [...leaving, ...inside, ...joining];
}
