/**
 * Whom a channel message is addressed to: the message it replies to (`message_reference`, which
 * needs READ_MESSAGE_HISTORY) and the members, roles and @everyone it mentions. Shared by bots' and
 * users' messages, on create and on edit.
 */
import { invalidFormBody, apiError } from '../../core/io/errors.js';
import { mentionsOf, userMentionIds, type MentionPlace, type MessageMentions } from './rules/message-mentions.js';
import { readMessageReference, storedReference, unknownReplyIssue } from './rules/message-reference.js';
import type { StoredMessage } from './rules/messages.js';
import { hasAll, MENTION_EVERYONE, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import type { Channel, Guild } from '../../core/world/types.js';
import { botInGuild } from '../../core/world/guild-members.js';
import { isMember } from '../../core/world/member-index.js';

/** The fields of a stored message that say whom it addresses. */
export type Addressing = Pick<StoredMessage, 'mentions' | 'mention_roles' | 'mention_everyone' | 'message_reference'>;

export interface AddressingPlace {
  guild: Guild;
  channel: Channel;
  /** The author's permissions in the channel. */
  permissions: bigint;
}

function mentionPlace({ guild, permissions }: AddressingPlace): MentionPlace {
  return {
    isMember: (id) => isMember(guild, id) || botInGuild(guild, id),
    isRole: (id) => id !== guild.id && guild.roles.some((r) => r.id === id),
    mayMentionEveryone: hasAll(permissions, MENTION_EVERYONE),
  };
}

/** Only what is there: a message that mentions nobody stores no mention fields. */
function mentionFields(mentions: MessageMentions): Addressing {
  return {
    ...(mentions.users.length > 0 ? { mentions: mentions.users } : {}),
    ...(mentions.roles.length > 0 ? { mention_roles: mentions.roles } : {}),
    ...(mentions.everyone ? { mention_everyone: true } : {}),
  };
}

/**
 * The addressing of a new message with content `content` and the checked `allowed_mentions`;
 * `body` is the request's body (where `message_reference` is read), `find` looks up a message of
 * the channel as the author may see it.
 */
export async function addressNewMessage(
  place: AddressingPlace,
  content: string,
  allowedMentions: unknown,
  body: unknown,
  find: (messageId: string) => Promise<StoredMessage | null>,
): Promise<Addressing> {
  const reply = readMessageReference(body);
  if (!reply.ok) throw invalidFormBody(reply.issues);
  let replied: StoredMessage | null = null;
  if (reply.value) {
    if (!hasAll(place.permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingPermissions');
    const sameChannel = reply.value.channel_id === undefined || reply.value.channel_id === place.channel.id;
    replied = sameChannel ? await find(reply.value.message_id) : null;
    if (!replied && reply.value.fail_if_not_exists) throw invalidFormBody([unknownReplyIssue()]);
  }
  const mentions = mentionsOf(content, allowedMentions, mentionPlace(place), replied?.author.id);
  return {
    ...mentionFields(mentions),
    ...(replied ? { message_reference: storedReference(replied.id, place.channel.id, place.guild.id) } : {}),
  };
}

/**
 * The mentions of an edited message with content `content`: its content's, and the replied-to
 * author it mentioned before (a reply's mention is not in its content).
 */
export function addressEditedMessage(
  place: AddressingPlace,
  message: StoredMessage,
  content: string,
  allowedMentions: unknown,
): Addressing {
  const named = new Set(userMentionIds(message.content));
  const repliedAuthor = message.message_reference ? (message.mentions ?? []).find((id) => !named.has(id)) : undefined;
  const mentions = mentionsOf(content, allowedMentions, mentionPlace(place), repliedAuthor);
  return mentionFields(mentions);
}
