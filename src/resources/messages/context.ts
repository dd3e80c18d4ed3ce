/**
 * Everything rendering messages needs loaded first, so that rendering itself stays pure: the users
 * and applications the messages name (authors, interaction users, mentions) and the messages that
 * replies answer (one level: a replied-to message's own reply is not followed), and which of them
 * are pinned.
 */
import {
  fromWorldMessage,
  type MessageRenderContext,
  type StoredMessage,
  type StoredMessageReference,
} from './rules/messages.js';
import type { Application, User } from '../../core/world/types.js';
import type { GuildMemberStore, InteractionStore, WorldStore } from '../../store/store.js';

/** What the context is loaded from. */
export interface MessageContextStore {
  world: Pick<WorldStore, 'getUser' | 'getApplication'>;
  members: Pick<GuildMemberStore, 'getGuildWithMembers'>;
  messages: Pick<InteractionStore, 'getMessage' | 'pinnedAmong' | 'changedWorldMessages'>;
}

function referenceKey(reference: StoredMessageReference): string {
  return `${reference.channel_id}/${reference.message_id}`;
}

/** The message a reply answers: stored by slashd, or of the world file; null when it is gone. */
export async function findReferencedMessage(
  store: MessageContextStore,
  reference: StoredMessageReference,
): Promise<StoredMessage | null> {
  const stored = await store.messages.getMessage(reference.channel_id, reference.message_id);
  if (stored) return stored.ephemeral_for_user_id === null ? stored : null;
  // Only its messages are read: none of its members.
  const guild = reference.guild_id ? await store.members.getGuildWithMembers(reference.guild_id, []) : null;
  const world = guild?.messages.find((m) => m.id === reference.message_id && m.channel_id === reference.channel_id);
  if (!world || !guild) return null;
  const deleted = await store.messages.changedWorldMessages(reference.channel_id, [reference.message_id]);
  return deleted.length > 0 ? null : fromWorldMessage(world, guild.id, guild.installs);
}

function messageKey(message: Pick<StoredMessage, 'channel_id' | 'id'>): string {
  return `${message.channel_id}/${message.id}`;
}

/** The keys (`channel/id`) of the pinned ones among `messages`: one look-up per channel. */
async function pinnedKeys(store: MessageContextStore, messages: readonly StoredMessage[]): Promise<Set<string>> {
  const byChannel = new Map<string, string[]>();
  for (const message of messages)
    byChannel.set(message.channel_id, [...(byChannel.get(message.channel_id) ?? []), message.id]);
  const pinned = new Set<string>();
  for (const [channelId, ids] of byChannel) {
    for (const id of await store.messages.pinnedAmong(channelId, ids))
      pinned.add(messageKey({ channel_id: channelId, id }));
  }
  return pinned;
}

function namedIds(message: StoredMessage): { users: (string | undefined)[]; apps: (string | undefined)[] } {
  const mentions = message.mentions ?? [];
  return {
    users: [
      // A webhook is no user: its name and avatar are on the message.
      message.author.kind === 'webhook' ? undefined : message.author.id,
      message.interaction_metadata?.user_id,
      message.interaction_metadata?.target_user_id,
      ...mentions,
    ],
    apps: [message.application_id, message.author.kind === 'app' ? message.author.id : undefined, ...mentions],
  };
}

/**
 * The render context of `messages`: each user, application and replied-to message loaded once.
 * `created`: the messages were just stored, so none is pinned yet (only the messages they reply
 * to are looked up among the pins).
 */
export async function loadMessageContext(
  store: MessageContextStore,
  messages: readonly StoredMessage[],
  { created = false }: { created?: boolean } = {},
): Promise<MessageRenderContext> {
  const referenced = new Map<string, StoredMessage | null>();
  for (const message of messages) {
    const reference = message.message_reference;
    if (!reference || referenced.has(referenceKey(reference))) continue;
    referenced.set(referenceKey(reference), await findReferencedMessage(store, reference));
  }
  const users = new Map<string, User | null>();
  const apps = new Map<string, Application | null>();
  const replied = [...referenced.values()].filter((m): m is StoredMessage => m !== null);
  const all = [...messages, ...replied];
  for (const message of all) {
    const named = namedIds(message);
    for (const id of named.users) {
      if (id && !users.has(id)) users.set(id, await store.world.getUser(id));
    }
    for (const id of named.apps) {
      if (id && !apps.has(id) && !users.get(id)) apps.set(id, await store.world.getApplication(id));
    }
  }
  const pinned = await pinnedKeys(store, created ? replied : all);
  return {
    findUser: (id) => users.get(id) ?? undefined,
    findApplication: (id) => apps.get(id) ?? undefined,
    findReferenced: (reference) => referenced.get(referenceKey(reference)),
    isPinned: (message) => pinned.has(messageKey(message)),
  };
}
